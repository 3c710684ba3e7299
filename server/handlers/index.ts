/** Every family's handlers, merged into one map keyed by operationId. */
import type { Handlers } from "../context";
import { accountsHandlers } from "./accounts";
import { dnsHandlers } from "./dns";
import { eventsHandlers } from "./events";
import { groupHandlers } from "./groups";
import { identityProvidersHandlers } from "./identity-providers";
import { ingressHandlers } from "./ingress";
import { integrationsHandlers } from "./integrations";
import { invitesHandlers } from "./invites";
import { networksHandlers } from "./networks";
import { peersHandlers } from "./peers";
import { policiesHandlers } from "./policies";
import { postureChecksHandlers } from "./posture-checks";
import { routesHandlers } from "./routes";
import { setupKeysHandlers } from "./setup-keys";
import { tokensHandlers } from "./tokens";
import { usersHandlers } from "./users";

export const allHandlers: Handlers = {
  ...accountsHandlers,
  ...dnsHandlers,
  ...eventsHandlers,
  ...groupHandlers,
  ...identityProvidersHandlers,
  ...ingressHandlers,
  ...integrationsHandlers,
  ...invitesHandlers,
  ...networksHandlers,
  ...peersHandlers,
  ...policiesHandlers,
  ...postureChecksHandlers,
  ...routesHandlers,
  ...setupKeysHandlers,
  ...tokensHandlers,
  ...usersHandlers,
};
