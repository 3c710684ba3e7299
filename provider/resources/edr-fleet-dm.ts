/** The FleetDM EDR integration (singleton). */
import { edrProvider } from "../integrations";

export = edrProvider("fleetdm");
