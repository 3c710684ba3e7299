/** The CrowdStrike Falcon EDR integration (singleton). The service gives it no sync interval. */
import { edrProvider } from "../integrations";

export = edrProvider("falcon");
