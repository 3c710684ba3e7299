/** EDR integration vendor-b (singleton). */
import { edrProvider } from "../integrations";

export = edrProvider("vendor-b");
