/**
 * What a resource kind declares. The generic lifecycle (provider/lifecycle.ts) does the rest: check, diff,
 * create, read, update and delete are driven by these fields and the api/ schemas.
 *
 * Names: fields listed here are Pulumi (camelCase) names; schemas are the API's (snake_case).
 */
import type { z } from "zod";
import type { OperationId } from "../api/routes";
import type { PrivnetClient } from "../client";
import { expectRecord, listAnswer } from "../model/answers";
import { isRecord } from "../model/mapping";
import type { NormalForm } from "./normalize";

export type Props = Record<string, unknown>;

export { isRecord };

export { expectRecord, listAnswer };

export { KIND_INPUT } from "../model/hidden-inputs";

/** One object of a kind as the API holds it: what {@link ResourceSpec.hooks}' `list` and provider/list.ts answer. */
export interface Listed {
  /** The resource id (a singleton's fixed id, the account id for account settings). */
  id: string;
  /** The object in API form (snake_case), as the server answered it. */
  object: Props;
  /** Parent ids by Pulumi input name (`networkId`, `zoneId`, `userId`, `peerId`). */
  parents: Record<string, string>;
}

/** A parent id that lives in the path, not the body (e.g. a network resource's `networkId`). */
export interface ParentField {
  /** Pulumi input name, e.g. `networkId`. */
  input: string;
  /** Path parameter of the API routes, e.g. `networkId`. */
  param: string;
  description: string;
}

/** The parent ids of a nested kind as path parameters (`{ networkId }`), or undefined when one is missing. */
export function parentPathParams(spec: ResourceSpec, props: Props): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const p of spec.parents ?? []) {
    const v = props[p.input];
    if (typeof v !== "string" || v === "") return undefined;
    out[p.param] = v;
  }
  return out;
}

/** What the provider's reads and writes call: the client's `call` (the importer passes a sharing wrapper). */
export type ApiCaller = Pick<PrivnetClient, "call">;

export interface LifecycleContext {
  client: ApiCaller;
  /** Whether reads may share one list request per kind (provider/read-batch.ts); default true. */
  batchReads?: boolean;
}

export interface ResourceSpec {
  /**
   * Resource name (PascalCase), also the Pulumi type: `pulumi-nodejs:dynamic/privnet:<name>` through the dynamic
   * providers, `privnet:index:<name>` through the resource plugin.
   */
  name: string;
  /**
   * The kind to use instead: this one is an earlier name of it, kept so that programs and stacks written with
   * that name go on working (the same objects, operations and inputs). The schema and the SDKs mark it
   * deprecated, a check warns naming the new kind, and the new kind carries type aliases of this one's types (see
   * provider/registry.ts `formerNamesOf`), so that a resource moved to it is the same resource: no replacement.
   */
  deprecatedBy?: string;
  /** File name of the provider module under provider/resources/ (kebab-case). */
  file: string;
  /** One paragraph for the reference docs. */
  description: string;
  /**
   * The inputs in API form (snake_case zod object): normally the create body. Used by check, by the body of
   * create/update, by the diff and by the docs.
   */
  input: z.ZodObject;
  /**
   * The create body, when the inputs hold more than it (fields only an update sets, such as a setup key's
   * `revoked`): create sends this, then updates at once if one of those fields is not yet as the program asks.
   */
  createBody?: z.ZodObject;
  /** The object as the API returns it. */
  output: z.ZodType;
  /** Operation ids of api/routes.ts (a misspelt one does not compile). */
  ops: { create?: OperationId; read: OperationId; update?: OperationId; delete?: OperationId };
  /** Path parameter naming the object's id in read/update/delete (absent for singletons). */
  idParam?: string;
  parents?: ParentField[];
  /** Body of update: the fields of this schema only (e.g. a setup key's update takes revoked and autoGroups). */
  updateBody?: z.ZodObject;
  /** Inputs whose change needs a new object (the API cannot change them in place). */
  replaceOnChange?: string[];
  /** Replace by deleting first (unique names would otherwise collide). */
  deleteBeforeReplace?: boolean;
  /** Inputs the API never returns (secrets, create-only values): carried forward from state. */
  writeOnly?: string[];
  /** Secret inputs: the sdk wraps them with pulumi.secret. */
  secretInputs?: string[];
  /**
   * Values inside a secret input that the API answers empty (`auth.passwordAuth.password`; `[]` for any list
   * item): the program must state them; privnet-import makes them config secrets the user sets.
   */
  secretPaths?: string[];
  /** Server-generated secrets: listed in additionalSecretOutputs by the sdk. */
  secretOutputs?: string[];
  /** Outputs returned in full only by create (a setup key's key): reads keep the value in state. */
  createOnlyOutputs?: string[];
  /**
   * Values used for absent inputs: in check, in request bodies and in diffs (beyond "" / false / [] / {}, which
   * diffs treat as absent anyway).
   */
  defaults?: Props;
  /** Optional inputs the server chooses when absent (a peer's IP): not compared while the program leaves them out. */
  computedIfAbsent?: string[];
  /** Fields of `input` the resource does not expose (read-only settings the API echoes). */
  ignoreInputs?: string[];
  /** Lists compared as sets besides the id lists (which are found from the schemas). */
  setLists?: string[];
  /**
   * Inputs the server writes back in a normal form of its own (a host `10.0.0.5` as `10.0.0.5/32`, a domain in
   * lower case): compared in that form, and kept in state as the program wrote them.
   */
  normalForms?: Record<string, NormalForm>;
  /**
   * Inputs whose stored value the server derives from other inputs when the program leaves them out (a domain
   * route's placeholder `network`): given the inputs sent, the names to leave out of the outputs' input fields.
   */
  serverDerived?: (sent: Props) => string[];
  /**
   * The resource manages only what the program names: an input left out, at any depth of an object, is not
   * diffed and keeps the server's value on update (account settings, an enrolled peer's settings).
   */
  partial?: boolean;
  /**
   * Inputs used at create only that the API cannot change (a user's name): a change is not applied and does not
   * replace the object; preview and up warn that it is ignored.
   */
  createOnly?: string[];
  /** Replacements beyond `replaceOnChange` that depend on the values (a revoked key cannot be un-revoked). */
  replaceWhen?: (olds: Props, news: Props) => string[];
  /**
   * For kinds the API cannot change in place (no update): `adoptId` still adopts an existing object, taking it as
   * it is, when every input the server shows equals the program's; otherwise create fails naming what differs.
   */
  adoptAsIs?: boolean;
  /** Singletons exist once per account: create adopts the existing object (they cannot be adopted by id). */
  singleton?: boolean;
  /**
   * A singleton's id, as `pulumi import` takes it (markdown): a fixed text such as `"dns-settings"`, or what it
   * is. Documented in the package schema.
   */
  singletonId?: string;
  /**
   * Read the object back after a write, when a server's answer to it is not what the server stores: an
   * invite's `created_at` differs between create and list (`"create"`); a policy's rules may be answered as
   * sent but stored otherwise (`"always"`). State then holds what a refresh will read, and the comparison with
   * what was sent (see `reportStoredDifferences`) sees what is really stored. Costs one read per write.
   */
  readBack?: "create" | "always";
  /** Turns a create response into the object (default: identity). */
  unwrapCreate?: (response: Props) => { object: Props; extra?: Props };
  /** Adjusts outputs after the generic mapping (e.g. keeps secrets the API masks). */
  mergeOutputs?: (outs: Props, inputs: Props, previous: Props | undefined) => Props;
  /** Adjusts an update body using the old outputs (e.g. keeps server-assigned ids of list items). */
  prepareUpdateBody?: (body: Props, olds: Props) => Props;
  /**
   * The inputs `pulumi import` and privnet-import state for an object, from those its outputs show (`object`:
   * its fields, in either form): for kinds where some shown inputs only follow from others (the Agent Network
   * settings' endpoint, allocated under the proxy address the program names).
   */
  importInputs?: (inputs: Props, object: Props) => Props;
  /** Extra outputs (declared for the sdk) besides the response's fields. */
  extraOutputs?: Record<string, { description: string; type: string }>;
  /** Full overrides, for kinds that do not fit CRUD (adopted peers, singletons without delete). */
  hooks?: Partial<{
    create(ctx: LifecycleContext, inputs: Props): Promise<{ id: string; outs: Props }>;
    read(
      ctx: LifecycleContext,
      id: string,
      props: Props,
    ): Promise<{ id?: string; props?: Props; inputs?: Props }>;
    update(ctx: LifecycleContext, id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
    delete(ctx: LifecycleContext, id: string, props: Props): Promise<void>;
    /**
     * Every object of the kind, for kinds that are not a collection (singletons, settings): what privnet-import
     * adopts (provider/list.ts lists collections from the route table).
     */
    list(ctx: LifecycleContext): Promise<Listed[]>;
  }>;
}
