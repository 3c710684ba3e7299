/**
 * The integration kinds come in families that differ only in their vendor, schemas and secret fields: one
 * builder per family keeps them alike. Each kind still has its own module under provider/resources (its
 * serialized provider is a require of that module).
 */
import { z } from "../api/common";
import { DIRECTORY_SYNC, type DirectorySyncVendor } from "../api/directory-sync";
import { EDR, type EdrVendor } from "../api/edr";
import { DIRECTORY_SYNC_OPERATION_NAMES, EDR_OPERATION_NAMES, SCIM_OPERATION_NAMES } from "../api/routes";
import { SCIM, type ScimVariant } from "../api/scim";
import { compareInputs, defaultGet, defaultUpdate, buildOutputs, PrivnetProvider } from "./lifecycle";
import { camel } from "../model/schema";
import { singletonHooks } from "./singleton";
import { expectRecord, type LifecycleContext, type Props, type ResourceSpec } from "./spec";

const writeOnlyNote = (fields: string[]) =>
  `${fields.map((f) => `\`${f}\``).join(" and ")} ${fields.length > 1 ? "are" : "is"} write-only: the API never ` +
  "returns it, so it is kept in state (encrypted) and sent on every update.";

/** A kind kept under an earlier name: its file, and the kind to use instead. */
export interface EarlierName {
  /** The earlier kind name (`EdrVendorA`). */
  name: string;
  /** Its module under provider/resources (`edr-vendor-a`). */
  file: string;
}

const EDR_TITLES: Record<EdrVendor, string> = {
  sentinelone: "SentinelOne",
  intune: "Microsoft Intune",
  falcon: "CrowdStrike Falcon",
  huntress: "Huntress",
  fleetdm: "FleetDM",
};

/** The kind's module name: `EdrSentinelOne` -> `edr-sentinel-one`. */
const kebab = (name: string) => name.replace(/(?<!^)([A-Z])/g, "-$1").toLowerCase();

/**
 * An EDR integration: a per-account singleton that creating the resource adopts. With `earlier`, the same kind
 * under the name the spec's seed gave it, deprecated (the same operations, inputs and objects).
 */
export function edrProvider(vendor: EdrVendor, earlier?: EarlierName): PrivnetProvider {
  const { request, response, secrets } = EDR[vendor];
  // `EdrSentinelOne`: the operation ids' spelling, so that they are checked against the route table.
  const name = EDR_OPERATION_NAMES[vendor];
  const secretInputs = secrets.map(camel);
  const spec: ResourceSpec = {
    name: earlier?.name ?? name,
    file: earlier?.file ?? kebab(name),
    description:
      (earlier ? `Deprecated: the earlier name of ${name}, the same object; use ${name}. ` : "") +
      `The ${EDR_TITLES[vendor]} endpoint-protection (EDR) integration (one per account): peers of \`groups\` ` +
      `must pass the vendor's checks. Creating the resource adopts an existing integration. ` +
      writeOnlyNote(secretInputs),
    input: request,
    output: response,
    ops: { create: `create${name}`, read: `get${name}`, update: `update${name}`, delete: `delete${name}` },
    writeOnly: secretInputs,
    secretInputs,
    defaults: { enabled: true },
    singleton: true,
    singletonId: `\`${vendor}\``,
    deprecatedBy: earlier ? name : undefined,
  };
  spec.hooks = singletonHooks(spec, vendor);
  return new PrivnetProvider(spec);
}

const DIRECTORY_SYNC_TITLES: Record<DirectorySyncVendor, string> = {
  "google-idp": "Google Workspace",
  "azure-idp": "Azure AD (Microsoft Entra ID)",
};

/**
 * A directory-sync integration (a collection with integer ids). With `earlier`, the same kind under the name the
 * spec's seed gave it, deprecated.
 */
export function directorySyncProvider(
  vendor: DirectorySyncVendor,
  replaceOnChange: string[] = [],
  earlier?: EarlierName,
): PrivnetProvider {
  const { create, update, response, secrets } = DIRECTORY_SYNC[vendor];
  const opName = DIRECTORY_SYNC_OPERATION_NAMES[vendor];
  const secretInputs = secrets.map(camel);
  const spec: ResourceSpec = {
    name: earlier?.name ?? opName,
    file: earlier?.file ?? kebab(opName),
    description:
      (earlier ? `Deprecated: the earlier name of ${opName}, the same object; use ${opName}. ` : "") +
      `A ${DIRECTORY_SYNC_TITLES[vendor]} directory sync integration: groups matching \`groupPrefixes\` and ` +
      `their users are synced every \`syncInterval\` seconds. ${writeOnlyNote(secretInputs)}` +
      (replaceOnChange.length
        ? ` Changing ${replaceOnChange.map((f) => `\`${f}\``).join(", ")} replaces the integration (the API ` +
          "cannot change it in place)."
        : ""),
    input: create.extend({
      enabled: z.boolean().optional().describe("Whether the integration is active; default true"),
    }),
    // The create body has no `enabled`: an integration created disabled is switched off right after.
    createBody: create,
    output: response,
    updateBody: update,
    ops: {
      create: `create${opName}`,
      read: `get${opName}`,
      update: `update${opName}`,
      delete: `delete${opName}`,
    },
    idParam: "id",
    replaceOnChange,
    writeOnly: secretInputs,
    secretInputs,
    defaults: { enabled: true, syncInterval: 300 },
    deprecatedBy: earlier ? opName : undefined,
  };
  return new PrivnetProvider(spec);
}

/** The input that rotates a SCIM integration's token: any change of its value asks for a new token. */
export const ROTATE_TOKEN_INPUT = "rotateToken";

/**
 * A SCIM provisioning integration (a collection with integer ids). The token is a server-generated secret output:
 * in full only in the create's answer and the token route's, so state keeps it (reads answer a masked form, which
 * never replaces it). Changing `rotateToken` calls the token route in an update in place.
 */
export function scimProvider(variant: ScimVariant): PrivnetProvider {
  const { create, update, response } = SCIM[variant];
  const name = SCIM_OPERATION_NAMES[variant];
  const okta = variant === "okta-scim-idp";
  const input = create.extend({
    enabled: z.boolean().optional().describe("Whether the identity provider may push changes; default true"),
    rotate_token: z
      .string()
      .optional()
      .describe(
        "Any value; changing it (setting it included) replaces the token in an update in place, and " +
          "`authToken` becomes the new one (the old one stops authenticating at once). Removing it changes " +
          "nothing. A date or a counter makes a rotation easy to read in the program",
      ),
  });
  const spec: ResourceSpec = {
    name,
    file: okta ? "okta-scim-integration" : "scim-integration",
    description: okta
      ? "An Okta SCIM provisioning integration: the Okta enterprise connection `connectionName` pushes users " +
        "and groups (those matching `groupPrefixes` and `userGroupPrefixes`) into the account with the bearer " +
        "token `authToken`, a secret output. The API answers the token in full only when it is made, so it is " +
        "kept in state (an imported integration has none until `rotateToken` is set). `connectionName` is " +
        "write-only and fixed at creation: changing it creates a new integration (and a new token for Okta to " +
        "use). Everything else changes in place."
      : "A SCIM provisioning integration: the identity provider `provider` pushes users and groups (those " +
        "matching `groupPrefixes` and `userGroupPrefixes`) into the account with the bearer token `authToken`, " +
        "a secret output. The API answers the token in full only when it is made, so it is kept in state (an " +
        "imported integration has none until `rotateToken` is set). `provider` is fixed at creation: changing it " +
        "creates a new integration (and a new token for the identity provider to use). Everything else, " +
        "`prefix` included, changes in place.",
    input,
    // The create body has no `enabled`: an integration created disabled is switched off right after.
    createBody: create,
    output: response,
    updateBody: update,
    ops: {
      create: `create${name}`,
      read: `get${name}`,
      update: `update${name}`,
      delete: `delete${name}`,
    },
    idParam: "id",
    replaceOnChange: [okta ? "connectionName" : "provider"],
    writeOnly: okta ? ["connectionName", ROTATE_TOKEN_INPUT] : [ROTATE_TOKEN_INPUT],
    secretOutputs: ["authToken"],
    createOnlyOutputs: ["authToken"],
    // An update sends every field, so a field the program drops is cleared rather than kept by the server.
    defaults: { enabled: true, groupPrefixes: [], userGroupPrefixes: [], connectorId: "" },
    setLists: ["groupPrefixes", "userGroupPrefixes"],
  };
  spec.hooks = {
    async update(ctx: LifecycleContext, id: string, olds: Props, news: Props) {
      const { changed } = compareInputs(spec, olds, news);
      // A rotation alone writes nothing else: the object is read for the outputs, no update is sent. Any other
      // update (an adoption with nothing to change included) is the usual PUT of every field.
      let outs: Props;
      if (!(changed.length === 1 && changed[0] === ROTATE_TOKEN_INPUT)) {
        outs = (await defaultUpdate(spec, ctx, id, olds, news)).outs;
      } else {
        const current = await defaultGet(spec, ctx, id, news);
        if (!current) throw new Error(`privnet: ${name} ${id} no longer exists`);
        outs = buildOutputs(spec, current, news, olds, "update");
      }
      if (changed.includes(ROTATE_TOKEN_INPUT) && news[ROTATE_TOKEN_INPUT] !== undefined) {
        const answer = expectRecord(
          await ctx.client.call(`regenerate${name}Token`, { params: { id } }),
          `the answer to regenerate${name}Token`,
        );
        outs.authToken = answer.auth_token;
      }
      return { outs };
    },
  };
  return new PrivnetProvider(spec);
}
