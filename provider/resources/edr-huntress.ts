/** The Huntress EDR integration (singleton). */
import { edrProvider } from "../integrations";

export = edrProvider("huntress");
