/**
 * The fields of a resource kind as the generators publish them: the inputs (the sdk's `Args`, the schema's
 * `inputProperties`) and the outputs (the sdk's class properties and `State`, the schema's `properties`), derived
 * once from the resource spec and the api/ schemas. The TypeScript sdk (./sdkgen.ts) and the package schema
 * (./schemagen.ts) write their types from these, so both say the same about every field.
 */
import type { z } from "zod";
import { ADOPT_INPUT, canAdopt, checkSchema, inputNames } from "../provider/lifecycle";
import { renameFields, snakeNames } from "../model/mapping";
import { camel, describe, isOptional, shapeOf } from "../model/schema";
import type { ResourceSpec } from "../provider/spec";

export interface Field {
  /** Pulumi (camelCase) name. */
  name: string;
  /**
   * The API's schema of the value (snake_case keys). Absent for the plain strings the provider adds (parent ids,
   * `adoptId`) and for a spec's extra outputs, which declare `declaredType` instead.
   */
  schema?: z.ZodType;
  /** The TypeScript type a spec declares for an extra output (`string`, `Record<string, unknown>`). */
  declaredType?: string;
  optional: boolean;
  /** Description, in Pulumi's names. */
  doc: string;
  /** A change replaces the object. */
  replace: boolean;
  secret: boolean;
  /** The API never returns it: kept from state. */
  writeOnly: boolean;
  /** The value used when the program leaves the input out (scalars only). */
  default?: string | number | boolean;
}

/** Field descriptions in Pulumi's names (`peer_groups` -> `peerGroups`). */
export function pulumiNames(spec: ResourceSpec, text: string | undefined): string {
  return text ? renameFields(text, snakeNames(checkSchema(spec))) : "";
}

/** The inputs of a kind: parent ids, the body's fields, then `adoptId` where the kind can adopt. */
export function inputFields(spec: ResourceSpec): Field[] {
  const shape = shapeOf(spec.input) ?? {};
  const replace = new Set(spec.replaceOnChange ?? []);
  const secret = new Set(spec.secretInputs ?? []);
  const writeOnly = new Set(spec.writeOnly ?? []);
  const names = new Set(inputNames(spec));
  const plain = { secret: false, writeOnly: false };
  const fields: Field[] = [];
  for (const p of spec.parents ?? []) {
    fields.push({
      ...plain,
      name: p.input,
      optional: false,
      doc: p.description,
      replace: replace.has(p.input),
    });
  }
  for (const [key, s] of Object.entries(shape)) {
    const name = camel(key);
    if (!names.has(name)) continue;
    const def = spec.defaults?.[name];
    fields.push({
      name,
      schema: s,
      optional: isOptional(s) || (spec.defaults !== undefined && name in spec.defaults),
      doc: pulumiNames(spec, describe(s)),
      replace: replace.has(name),
      secret: secret.has(name),
      writeOnly: writeOnly.has(name),
      ...(typeof def === "string" || typeof def === "number" || typeof def === "boolean"
        ? { default: def }
        : {}),
    });
  }
  if (canAdopt(spec)) {
    fields.push({
      ...plain,
      name: ADOPT_INPUT,
      optional: true,
      doc: spec.adoptAsIs
        ? `Id of an existing ${spec.name} to bring under management: create reads it and takes it as it is ` +
          "instead of creating a new one (the API cannot change it: its fields must be these inputs). Used at " +
          "create only"
        : `Id of an existing ${spec.name} to bring under management: create reads it and updates it to match ` +
          "these inputs instead of creating a new one. Used at create only",
      replace: false,
    });
  }
  return fields;
}

/**
 * The outputs of a kind: the API object's fields (typed as the input of the same name where there is one), the
 * inputs the object does not echo (parent ids, write-only inputs) and the spec's extra outputs. Secret: the spec's
 * secret outputs and its secret inputs. `adoptId` is not an output; neither is `id`, which every resource has.
 */
export function outputFields(spec: ResourceSpec, inputs: Field[] = inputFields(spec)): Field[] {
  const byName = new Map(inputs.map((f) => [f.name, f]));
  const secret = new Set([...(spec.secretOutputs ?? []), ...(spec.secretInputs ?? [])]);
  const fields: Field[] = [];
  const seen = new Set<string>();
  const base = { replace: false, writeOnly: false };
  for (const [key, s] of Object.entries(shapeOf(spec.output) ?? {})) {
    const name = camel(key);
    if (name === "id") continue;
    seen.add(name);
    const input = byName.get(name);
    const schema = input ? input.schema : s;
    fields.push({
      ...base,
      name,
      ...(schema ? { schema } : {}),
      optional: input ? input.optional : isOptional(s),
      doc: input?.doc || pulumiNames(spec, describe(s)),
      secret: secret.has(name),
    });
  }
  for (const f of inputs) {
    if (seen.has(f.name) || f.name === ADOPT_INPUT) continue;
    seen.add(f.name);
    const { default: _default, ...rest } = f;
    fields.push({ ...rest, ...base, secret: secret.has(f.name) });
  }
  for (const [name, x] of Object.entries(spec.extraOutputs ?? {})) {
    if (seen.has(name)) continue;
    fields.push({
      ...base,
      name,
      declaredType: x.type,
      optional: true,
      doc: x.description,
      secret: secret.has(name),
    });
  }
  return fields;
}

/** The notes the docs add to a field's description: `replaces on change`, `secret`, ... */
export function fieldNotes(f: Field, kind: "input" | "output"): string[] {
  if (kind === "output") return f.secret ? ["secret"] : [];
  const notes: string[] = [];
  if (f.replace) notes.push("replaces on change");
  if (f.secret) notes.push("secret");
  if (f.writeOnly) notes.push("write-only: kept from state, the API never returns it");
  if (f.default !== undefined) notes.push(`default ${JSON.stringify(f.default)}`);
  return notes;
}

/** A field's description with its notes: `Key name (replaces on change)`. */
export function fieldDoc(f: Field, kind: "input" | "output"): string {
  const notes = fieldNotes(f, kind);
  return `${f.doc}${notes.length ? ` (${notes.join("; ")})` : ""}`;
}
