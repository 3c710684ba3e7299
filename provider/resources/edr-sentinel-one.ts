/** The SentinelOne EDR integration (singleton). */
import { edrProvider } from "../integrations";

export = edrProvider("sentinelone");
