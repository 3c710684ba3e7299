/** The Microsoft Intune EDR integration (singleton). */
import { edrProvider } from "../integrations";

export = edrProvider("intune");
