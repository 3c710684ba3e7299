/** EDR integration vendor-a (singleton). */
import { edrProvider } from "../integrations";

export = edrProvider("vendor-a");
