/**
 * Notification channels: where the service tells people about activity in the account (an email to a list of
 * addresses, or an HTTP POST to a webhook), for the activity codes a channel subscribes to.
 *
 * Not in the spec this project started from: the facts (paths, fields, which are required, that webhook header
 * values are write-only and masked in answers) come from the service's own OpenAPI document (v0.77.1), where the
 * family is marked cloud-only. The descriptions and the checks below are ours.
 */
import { issue, OPEN_ENUMS, z } from "./common";

/**
 * The activity codes a channel can subscribe to, with what each means: the codes privnet-server records in its
 * audit log (tests/unit/notifications.test.ts finds every code in server/ here), and the codes the service's
 * document gives as examples of agent activity the local server has no agent for (`user.join`, `peer.user.add`,
 * `peer.login.expire`). `GET /api/integrations/notifications/types` answers this map.
 */
export const NOTIFICATION_EVENT_TYPES: Readonly<Record<string, string>> = {
  "account.create": "The account was created",
  "account.settings.update": "The account's settings changed",
  "agent_network.settings.update": "The Agent Network gateway's settings were bootstrapped or changed",
  "agent_network.settings.delete": "The Agent Network gateway's settings were released",
  "agent_network.provider.create": "An LLM provider was added to the Agent Network gateway",
  "agent_network.provider.update": "An LLM provider of the Agent Network gateway changed",
  "agent_network.provider.delete": "An LLM provider was removed from the Agent Network gateway",
  "agent_network.policy.create": "An Agent Network policy was created",
  "agent_network.policy.update": "An Agent Network policy changed",
  "agent_network.policy.delete": "An Agent Network policy was deleted",
  "agent_network.guardrail.create": "An Agent Network guardrail was created",
  "agent_network.guardrail.update": "An Agent Network guardrail changed",
  "agent_network.guardrail.delete": "An Agent Network guardrail was deleted",
  "agent_network.budget_rule.create": "An Agent Network budget rule was created",
  "agent_network.budget_rule.update": "An Agent Network budget rule changed",
  "agent_network.budget_rule.delete": "An Agent Network budget rule was deleted",
  "dns.setting.update": "The DNS settings changed",
  "dns.setting.disabled.management.group.add": "A group's peers stopped being managed by DNS",
  "dns.setting.disabled.management.group.delete": "A group's peers are managed by DNS again",
  "dns.zone.create": "A DNS zone was created",
  "dns.zone.update": "A DNS zone changed",
  "dns.zone.delete": "A DNS zone was deleted",
  "dns.zone.record.create": "A DNS record was created",
  "dns.zone.record.update": "A DNS record changed",
  "dns.zone.record.delete": "A DNS record was deleted",
  "domain.add": "A custom domain for reverse-proxy services was added",
  "domain.delete": "A custom domain for reverse-proxy services was removed",
  "group.add": "A group was created",
  "group.update": "A group changed",
  "group.delete": "A group was deleted",
  "identityprovider.create": "An identity provider was added",
  "identityprovider.update": "An identity provider changed",
  "identityprovider.delete": "An identity provider was removed",
  "ingress.peer.create": "An ingress peer was added",
  "ingress.peer.update": "An ingress peer changed",
  "ingress.peer.delete": "An ingress peer was removed",
  "ingress.port.allocation.create": "An ingress port was allocated",
  "ingress.port.allocation.update": "An ingress port allocation changed",
  "ingress.port.allocation.delete": "An ingress port allocation was released",
  "integration.create": "An integration was set up",
  "integration.update": "An integration changed",
  "integration.delete": "An integration was removed",
  "integration.sync": "An integration synced on request",
  "integration.token.regenerate": "A provisioning integration's token was replaced",
  "nameserver.group.add": "A nameserver group was created",
  "nameserver.group.update": "A nameserver group changed",
  "nameserver.group.delete": "A nameserver group was deleted",
  "network.create": "A network was created",
  "network.update": "A network changed",
  "network.delete": "A network was deleted",
  "network.resource.create": "A network resource was added",
  "network.resource.update": "A network resource changed",
  "network.resource.delete": "A network resource was removed",
  "network.router.create": "A network router was added",
  "network.router.update": "A network router changed",
  "network.router.delete": "A network router was removed",
  "notification.channel.create": "A notification channel was created",
  "notification.channel.update": "A notification channel changed",
  "notification.channel.delete": "A notification channel was deleted",
  "peer.add": "A peer joined with a setup key",
  "peer.user.add": "A peer joined through a user's login",
  "peer.update": "A peer's settings changed",
  "peer.delete": "A peer was removed",
  "peer.login.expire": "A peer's login expired",
  "peer.job.create": "A job was started on a peer",
  "peer.job.succeed": "A peer finished a job",
  "peer.job.fail": "A peer's job failed",
  "peer.temporary.access.create": "A peer was given temporary access",
  "personal.access.token.create": "A personal access token was created",
  "personal.access.token.delete": "A personal access token was deleted",
  "policy.add": "A policy was created",
  "policy.update": "A policy changed",
  "policy.delete": "A policy was deleted",
  "posture.check.create": "A posture check was created",
  "posture.check.update": "A posture check changed",
  "posture.check.delete": "A posture check was deleted",
  "proxy.cluster.delete": "A proxy cluster was removed",
  "proxy.token.create": "A proxy token was created",
  "proxy.token.revoke": "A proxy token was revoked",
  "route.add": "A route was created",
  "route.update": "A route changed",
  "route.delete": "A route was deleted",
  "service.create": "A reverse-proxy service was created",
  "service.update": "A reverse-proxy service changed",
  "service.delete": "A reverse-proxy service was deleted",
  "service.user.create": "A service user was created",
  "service.user.delete": "A service user was deleted",
  "setupkey.add": "A setup key was created",
  "setupkey.update": "A setup key changed",
  "setupkey.revoke": "A setup key was revoked",
  "setupkey.delete": "A setup key was deleted",
  "user.join": "A user signed in for the first time",
  "user.invite": "A user was invited",
  "user.invite.link.create": "An invite link was created",
  "user.invite.link.regenerate": "An invite link was replaced",
  "user.invite.link.delete": "An invite link was withdrawn",
  "user.invite.link.accept": "An invite link was used",
  "user.update": "A user's role or groups changed",
  "user.block": "A user was blocked",
  "user.unblock": "A user was unblocked",
  "user.approve": "A pending user was approved",
  "user.reject": "A pending user was rejected",
  "user.delete": "A user was deleted",
  "user.password.change": "A user changed their password",
};

const CODES = Object.keys(NOTIFICATION_EVENT_TYPES) as [string, ...string[]];

/**
 * An activity code. An open set: the provider's check lets codes outside the list through, as the service may
 * know codes this list does not, and the server decides (this one refuses them, naming the route that lists its
 * codes rather than all of them).
 */
export const NotificationEventType = z
  .enum(CODES, {
    error: (iss) =>
      typeof iss.input === "string"
        ? `${JSON.stringify(iss.input)} is not an activity code this server knows; ` +
          "GET /api/integrations/notifications/types lists them"
        : "must be a string",
  })
  .describe(
    "An activity code such as `peer.add` or `policy.update`; GET /api/integrations/notifications/types lists them",
  );
OPEN_ENUMS.add(NotificationEventType, {});

export const NotificationChannelType = z
  .enum(["email", "webhook"])
  .describe("How the channel delivers: `email` to `target.emails`, `webhook` as a POST to `target.url`");

/** What a masked header value looks like in answers. */
export const MASKED_HEADER_VALUE = "********";

/** An HTTP header name: a token of RFC 9110 (letters, digits and ``!#$%&'*+-.^_`|~``). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Header values must not carry line breaks or NUL: they would start a header the program never wrote. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HEADER_VALUE_FORBIDDEN = /[\u0000\r\n]/;

const headers = () =>
  z
    .record(z.string(), z.string())
    .superRefine((h, ctx) => {
      const seen = new Map<string, string>();
      for (const [name, value] of Object.entries(h)) {
        if (!HEADER_NAME.test(name))
          issue(ctx, [name], "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~)");
        else if (seen.has(name.toLowerCase()))
          issue(ctx, [name], `is the same header as ${seen.get(name.toLowerCase())} (names ignore case)`);
        seen.set(name.toLowerCase(), name);
        if (HEADER_VALUE_FORBIDDEN.test(value)) issue(ctx, [name], "must not contain a line break or NUL");
      }
    })
    .describe(
      "HTTP headers sent with every webhook request (for example a shared secret). Values are write-only: " +
        `answers show each as ${MASKED_HEADER_VALUE}; on update, a value sent as ${MASKED_HEADER_VALUE} keeps the ` +
        "stored one while `url` stays the same",
    );

const webhookUrl = () =>
  z
    .string()
    .refine((s) => /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(s) && URL.canParse(s), {
      error: "must be an http(s) URL such as https://hooks.example.com/privnet",
    })
    .describe("Where webhook requests are POSTed; an http(s) URL");

export const NotificationTargetSchema = z
  .object({
    emails: z
      .array(z.email({ error: "must be an email address" }))
      .min(1, { error: "must name at least one address" })
      .optional()
      .describe("For an `email` channel: who receives the notifications (at least one address)"),
    url: webhookUrl()
      .optional()
      .describe("For a `webhook` channel: where requests are POSTed (an http(s) URL)"),
    headers: headers()
      .optional()
      .describe(
        "For a `webhook` channel: HTTP headers sent with every request (a shared secret, say); write-only " +
          `values, answered as ${MASKED_HEADER_VALUE}`,
      ),
  })
  .describe("Where the channel delivers: `emails` for an email channel; `url` (and `headers`) for a webhook");

export const NotificationTargetAnsweredSchema = z
  .strictObject({
    emails: z.array(z.string()).optional().describe("Recipients of an email channel"),
    url: z.string().optional().describe("Webhook URL"),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe(`Webhook headers, each value masked as ${MASKED_HEADER_VALUE}`),
  })
  .describe("Where the channel delivers (webhook header values masked)");

/** The target must be the type's own shape: an email channel has no URL, a webhook no recipients. */
function checkTarget(b: { type?: unknown; target?: unknown }, ctx: z.RefinementCtx): void {
  const t = b.target as { emails?: unknown; url?: unknown; headers?: unknown } | undefined;
  if (b.type !== "email" && b.type !== "webhook") return;
  if (t === undefined || t === null) {
    issue(ctx, ["target"], `is required: ${b.type === "email" ? "{emails: [...]}" : "{url: ...}"}`);
    return;
  }
  if (typeof t !== "object") return;
  if (b.type === "email") {
    if (t.emails === undefined) issue(ctx, ["target", "emails"], "is required for an email channel");
    for (const k of ["url", "headers"] as const)
      if (t[k] !== undefined) issue(ctx, ["target", k], "is not a setting of an email channel");
  } else {
    if (t.url === undefined) issue(ctx, ["target", "url"], "is required for a webhook channel");
    if (t.emails !== undefined) issue(ctx, ["target", "emails"], "is not a setting of a webhook channel");
  }
}

const channelFields = {
  type: NotificationChannelType,
  event_types: z
    .array(NotificationEventType)
    .describe("The activity codes the channel reports; empty reports nothing"),
  enabled: z.boolean().describe("Whether the channel delivers"),
};

/**
 * The create and replace body, as the service's document states it: `target` is not among its required fields
 * (its shape follows `type`); this server requires it all the same, in the check below, since a channel without
 * one delivers nothing.
 */
export const NotificationChannelRequestSchema = z
  .object({
    ...channelFields,
    target: NotificationTargetSchema.optional().describe(
      "Where the channel delivers, in the shape of its `type`; required by this server (a channel without a " +
        "target could deliver nothing)",
    ),
  })
  .superRefine(checkTarget)
  .describe("Notification channel create or replace body (the target's shape follows `type`)");

/** The same body with `target` required in its type too: what a program declares (the provider's inputs). */
export const NotificationChannelInputSchema = z
  .object({
    ...channelFields,
    target: NotificationTargetSchema.describe("Where the channel delivers, in the shape of its `type`"),
  })
  .superRefine(checkTarget)
  .describe("Notification channel inputs");

export const NotificationChannelSchema = z
  .strictObject({
    id: z.string().describe("Channel id"),
    type: NotificationChannelType,
    target: NotificationTargetAnsweredSchema.optional().describe(
      "Where the channel delivers (webhook header values masked)",
    ),
    event_types: z.array(z.string()).describe("The activity codes the channel reports"),
    enabled: z.boolean().describe("Whether the channel delivers"),
  })
  .describe("Notification channel (webhook header values masked)");

export const NotificationEventTypesSchema = z
  .record(z.string(), z.string())
  .describe("Every activity code a channel can subscribe to, with what it means");

/** Why a header value sent on create cannot be the mask (it stands for a stored value only on update). */
export function maskedHeaderProblem(value: string): string | undefined {
  return value === MASKED_HEADER_VALUE
    ? `must be the value itself: ${MASKED_HEADER_VALUE} stands for a stored value only when updating a channel`
    : undefined;
}
