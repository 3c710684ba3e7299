/** EDR integration vendor-c (singleton). Its sync interval is optional; the service uses 24 hours. */
import { edrProvider } from "../integrations";

export = edrProvider("vendor-c", { lastSyncedInterval: 24 });
