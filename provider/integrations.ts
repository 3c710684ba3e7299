/**
 * The integration kinds come in families that differ only in their vendor, schemas and secret fields: one
 * builder per family keeps them alike. Each kind still has its own module under provider/resources (its
 * serialized provider is a require of that module).
 */
import { z } from "../api/common";
import { DIRECTORY_SYNC, type DirectorySyncVendor } from "../api/directory-sync";
import { EDR, type EdrVendor } from "../api/edr";
import { DIRECTORY_SYNC_OPERATION_NAMES, EDR_OPERATION_NAMES } from "../api/routes";
import { PrivnetProvider } from "./lifecycle";
import { camel } from "../model/schema";
import { singletonHooks } from "./singleton";
import type { ResourceSpec } from "./spec";

const pascal = (segment: string) => segment.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const writeOnlyNote = (fields: string[]) =>
  `${fields.map((f) => `\`${f}\``).join(" and ")} ${fields.length > 1 ? "are" : "is"} write-only: the API never ` +
  "returns it, so it is kept in state (encrypted) and sent on every update.";

/** An EDR integration: a per-account singleton that creating the resource adopts. */
export function edrProvider(vendor: EdrVendor, extraDefaults: Record<string, unknown> = {}): PrivnetProvider {
  const { request, response, secrets } = EDR[vendor];
  // `EdrVendorA`: the operation ids' spelling, so that they are checked against the route table.
  const name = EDR_OPERATION_NAMES[vendor];
  const secretInputs = secrets.map(camel);
  const spec: ResourceSpec = {
    name,
    file: `edr-${vendor}`,
    description:
      `The ${vendor} endpoint-protection (EDR) integration (one per account): peers of \`groups\` are checked ` +
      `against the vendor. Creating the resource adopts an existing integration. ${writeOnlyNote(secretInputs)}`,
    input: request,
    output: response,
    ops: { create: `create${name}`, read: `get${name}`, update: `update${name}`, delete: `delete${name}` },
    writeOnly: secretInputs,
    secretInputs,
    defaults: { enabled: true, ...extraDefaults },
    singleton: true,
    singletonId: `\`${vendor}\``,
  };
  spec.hooks = singletonHooks(spec, vendor);
  return new PrivnetProvider(spec);
}

/** A directory-sync integration (a collection with integer ids). */
export function directorySyncProvider(
  vendor: DirectorySyncVendor,
  replaceOnChange: string[] = [],
): PrivnetProvider {
  const { create, update, response, secrets } = DIRECTORY_SYNC[vendor];
  const short = vendor.replace(/-idp$/, "");
  const opName = DIRECTORY_SYNC_OPERATION_NAMES[vendor];
  const secretInputs = secrets.map(camel);
  const spec: ResourceSpec = {
    name: `DirectorySync${pascal(short)}`,
    file: `directory-sync-${short}`,
    description:
      `A ${vendor} directory sync integration: groups matching \`groupPrefixes\` and their users are synced ` +
      `every \`syncInterval\` seconds. ${writeOnlyNote(secretInputs)}`,
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
  };
  return new PrivnetProvider(spec);
}
