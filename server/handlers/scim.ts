/**
 * SCIM provisioning integrations (the service's own OpenAPI document; not in the spec): the `scim-idp` and
 * `okta-scim-idp` collections, with integer ids from the integrations' shared sequence, their tokens and logs.
 *
 * The document marks both cloud-only, as it marks the EDR, directory-sync and event-streaming integrations; this
 * server serves all of them without `--cloud`, so a program that manages integrations runs against it as it is.
 *
 * The token is the credential an identity provider pushes with. It is answered in full twice only: by the create
 * and by the token route; every other answer masks it. The server needs it only to check a pushed request, so it
 * keeps what a check needs, as for personal access tokens: the SHA-256 of the token (and its masked form for the
 * answers), never the token itself, neither in the database nor in an audit event or a log line.
 */
import {
  maskScimToken,
  type ScimVariant,
  type OktaScimIntegrationCreateSchema,
  type ScimIntegrationCreateSchema,
  type ScimIntegrationUpdateSchema,
} from "../../api/scim";
import { SCIM_OPERATION_NAMES } from "../../api/routes";
import type { z } from "../../api/common";
import { iso, ZERO_TIME } from "../clock";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, type Reader } from "../domain";
import { notFound } from "../errors";
import { hashSecret, newScimToken } from "../ids";
import type { Doc, Tx } from "../store";

/** A stored SCIM integration (doc id = the integer id as a string). */
export interface ScimDoc extends Doc {
  variant: ScimVariant;
  enabled: boolean;
  group_prefixes: string[];
  user_group_prefixes: string[];
  /** "" when none is set (then answers leave it out). */
  connector_id: string;
  /** scim-idp only. */
  prefix?: string;
  provider?: string;
  /** okta-scim-idp only: write-only, never answered. */
  connection_name?: string;
  /** base64 SHA-256 of the current token; the token itself is never stored. */
  token_hash: string;
  /** The current token's masked form, as answers show it. */
  token_masked: string;
  last_synced_at: string;
  created_at: string;
  updated_at: string;
}

/** A log entry of a SCIM integration; parent = `${variant}:${integrationId}`. */
export interface ScimLogDoc extends Doc {
  parent: string;
  level: "info" | "warning" | "error";
  timestamp: string;
  message: string;
}

const WHAT: Record<ScimVariant, string> = {
  "scim-idp": "SCIM integration",
  "okta-scim-idp": "Okta SCIM integration",
};

/** The answer for a stored integration: the token as given (the create's full one) or else its masked form. */
function scimView(d: ScimDoc, token?: string) {
  return {
    id: Number(d.id),
    enabled: d.enabled,
    ...(d.variant === "scim-idp" ? { prefix: d.prefix ?? "", provider: d.provider ?? "" } : {}),
    group_prefixes: d.group_prefixes,
    user_group_prefixes: d.user_group_prefixes,
    ...(d.connector_id ? { connector_id: d.connector_id } : {}),
    auth_token: token ?? d.token_masked,
    last_synced_at: d.last_synced_at,
  };
}

/** The integration `{id}` of `variant`; an id of the other collection is as unknown as a missing one. */
function mustGetScim(r: Reader, variant: ScimVariant, id: string): ScimDoc {
  const d = r.get<ScimDoc>("scim_integration", id);
  if (!d || d.variant !== variant) throw notFound(`${WHAT[variant]} ${id} not found`);
  return d;
}

/** The audit meta of an integration's events: what it is, never its token or its connection name. */
function meta(d: ScimDoc): Record<string, unknown> {
  return {
    type: "scim",
    variant: d.variant,
    ...(d.variant === "scim-idp" ? { provider: d.provider, prefix: d.prefix } : {}),
  };
}

function log(tx: Tx, d: ScimDoc, ts: string, message: string): void {
  const entry: ScimLogDoc = {
    id: String(tx.nextInt("scim_log")),
    parent: `${d.variant}:${d.id}`,
    level: "info",
    timestamp: ts,
    message,
  };
  tx.put("scim_log", entry);
}

/** Sets a new token on `d` and answers it (the only moment it exists in the clear on the server). */
function issueToken(d: ScimDoc): string {
  const token = newScimToken();
  d.token_hash = hashSecret(token);
  d.token_masked = maskScimToken(token);
  return token;
}

type ScimCreate = z.infer<typeof ScimIntegrationCreateSchema> &
  Partial<z.infer<typeof OktaScimIntegrationCreateSchema>>;
type ScimUpdate = z.infer<typeof ScimIntegrationUpdateSchema>;

function scimHandlers(variant: ScimVariant): Handlers {
  const name = SCIM_OPERATION_NAMES[variant];
  const what = WHAT[variant];
  const idOf = (ctx: Ctx) => ctx.params.id as string;
  return {
    [`create${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        const body = ctx.body as ScimCreate;
        const ts = iso(ctx.now);
        const doc: ScimDoc = {
          id: String(tx.nextInt("integration")),
          variant,
          enabled: true,
          group_prefixes: [...(body.group_prefixes ?? [])],
          user_group_prefixes: [...(body.user_group_prefixes ?? [])],
          connector_id: body.connector_id ?? "",
          ...(variant === "scim-idp"
            ? { prefix: body.prefix, provider: body.provider }
            : { connection_name: body.connection_name }),
          token_hash: "",
          token_masked: "",
          last_synced_at: ZERO_TIME,
          created_at: ts,
          updated_at: ts,
        };
        const token = issueToken(doc);
        tx.put("scim_integration", doc);
        log(tx, doc, ts, "integration created; waiting for the identity provider's first push");
        audit(tx, ctx, "integration.create", "Integration created", doc.id, meta(doc));
        return scimView(doc, token);
      }),

    [`list${name}s`]: (ctx) =>
      ctx.state.store
        .all<ScimDoc>("scim_integration")
        .filter((d) => d.variant === variant)
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map((d) => scimView(d)),

    [`get${name}`]: (ctx) => scimView(mustGetScim(ctx.state.store, variant, idOf(ctx))),

    [`update${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        const old = mustGetScim(tx, variant, idOf(ctx));
        const body = ctx.body as ScimUpdate;
        const ts = iso(ctx.now);
        // Only the fields sent change (the update schemas leave out what cannot change: provider, connection).
        const doc: ScimDoc = {
          ...old,
          enabled: body.enabled ?? old.enabled,
          group_prefixes: body.group_prefixes ? [...body.group_prefixes] : old.group_prefixes,
          user_group_prefixes: body.user_group_prefixes
            ? [...body.user_group_prefixes]
            : old.user_group_prefixes,
          connector_id: body.connector_id ?? old.connector_id,
          ...(variant === "scim-idp" && body.prefix !== undefined ? { prefix: body.prefix } : {}),
          updated_at: ts,
        };
        tx.put("scim_integration", doc);
        if (doc.enabled !== old.enabled)
          log(tx, doc, ts, doc.enabled ? "integration enabled" : "integration disabled; pushes are refused");
        audit(tx, ctx, "integration.update", "Integration updated", doc.id, meta(doc));
        return scimView(doc);
      }),

    [`delete${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        const d = mustGetScim(tx, variant, idOf(ctx));
        for (const l of tx.all("scim_log", `${variant}:${d.id}`)) tx.delete("scim_log", l.id);
        tx.delete("scim_integration", d.id);
        audit(tx, ctx, "integration.delete", "Integration deleted", d.id, meta(d));
        return {};
      }),

    [`regenerate${name}Token`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        const old = mustGetScim(tx, variant, idOf(ctx));
        const ts = iso(ctx.now);
        const doc: ScimDoc = { ...old, updated_at: ts };
        const token = issueToken(doc);
        tx.put("scim_integration", doc);
        log(tx, doc, ts, "token regenerated; the previous token no longer authenticates");
        audit(tx, ctx, "integration.token.regenerate", `${what} token regenerated`, doc.id, meta(doc));
        return { auth_token: token };
      }),

    [`list${name}Logs`]: (ctx) => {
      const { store } = ctx.state;
      const d = mustGetScim(store, variant, idOf(ctx));
      return store
        .all<ScimLogDoc>("scim_log", `${variant}:${d.id}`)
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map((l) => ({ id: Number(l.id), level: l.level, timestamp: l.timestamp, message: l.message }));
    },
  };
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  scim_integration: {},
  scim_log: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  ...scimHandlers("scim-idp"),
  ...scimHandlers("okta-scim-idp"),
};
