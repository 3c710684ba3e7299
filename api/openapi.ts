/**
 * OpenAPI 3.0 document generated from the route table and the schemas. `npm run gen` writes it to
 * docs/openapi.json; CI fails when the committed copy is stale.
 */
import { ErrorBodySchema, validate, z } from "./common";
import { OBJECTS } from "./objects";
import { ROUTES, type ApiRoute } from "./routes";

type Json = Record<string, unknown>;

const ERROR_STATUSES: Record<string, string> = {
  "400": "Malformed JSON or bad request",
  "401": "Missing or invalid credentials",
  "403": "Not allowed",
  "404": "No such object",
  "409": "Already exists",
  "412": "Precondition failed",
  "422": "Validation failed; the message names the field",
  "429": "Too many requests",
};

/** Names for the registered schemas, split by direction (a request and a response differ in strictness). */
function registries() {
  const output = z.registry<{ id: string }>();
  const input = z.registry<{ id: string }>();
  for (const obj of OBJECTS) {
    if (obj.schema) output.add(obj.schema, { id: obj.name });
    for (const [name, schema] of Object.entries(obj.requests)) input.add(schema, { id: name });
  }
  return { input, output };
}

/** Converts one schema, moving its definitions into `components` and pointing refs there. */
function convert(
  schema: z.ZodType,
  io: "input" | "output",
  reg: z.core.$ZodRegistry<{ id: string }>,
  components: Json,
): Json {
  const json = z.toJSONSchema(schema, {
    target: "openapi-3.0",
    io,
    metadata: reg,
    unrepresentable: "any",
    cycles: "ref",
    reused: "inline",
  }) as Json;
  const defs = (json.definitions ?? {}) as Record<string, Json>;
  delete json.definitions;
  const fix = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(fix);
    if (v && typeof v === "object") {
      const out: Json = {};
      for (const [k, x] of Object.entries(v as Json)) {
        if (k === "$ref" && typeof x === "string" && x.startsWith("#/definitions/")) {
          out[k] = `#/components/schemas/${x.slice("#/definitions/".length)}`;
        } else if (k === "$id" || k === "$schema" || k === "id") {
          if (k === "id" && typeof x !== "string") out[k] = fix(x);
          else if (k === "id") out[k] = x;
        } else out[k] = fix(x);
      }
      return out;
    }
    return v;
  };
  for (const [name, def] of Object.entries(defs)) {
    const fixed = fix(def) as Json;
    const existing = components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(fixed)) {
      throw new Error(`schema ${name} renders differently in two places`);
    }
    components[name] = fixed;
  }
  // A registered top-level schema comes back as a bare $ref to itself plus the definition.
  return fix(json) as Json;
}

function parameters(route: ApiRoute, components: Json, reg: z.core.$ZodRegistry<{ id: string }>): Json[] {
  const params: Json[] = route.pathParams.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (route.query) {
    const inSchema = convert(route.query, "input", reg, components);
    const outSchema = convert(route.query, "output", reg, components);
    const required = new Set((inSchema.required as string[] | undefined) ?? []);
    const inProps = (inSchema.properties ?? {}) as Record<string, Json>;
    const props = (outSchema.properties ?? {}) as Record<string, Json>;
    const shape = (route.query as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
    for (const [name, s] of Object.entries(props)) {
      const { description: _d, ...rendered } = s;
      const description = (inProps[name]?.description ?? s.description) as string | undefined;
      const field = shape[name];
      // A parameter the server reads forgivingly (anything it cannot use reads as the default, as the service
      // does) is described as what is enforced: an optional string, its meaning in the description. Else the
      // document would promise a 4xx for a value the server takes.
      const forgiving =
        field !== undefined && field.safeParse(undefined).success && field.safeParse("\u0000?").success;
      const constrained =
        ["enum", "minimum", "maximum"].some((k) => k in rendered) || rendered.type !== "string";
      const schema = forgiving && constrained && rendered.type !== "array" ? { type: "string" } : rendered;
      const isRequired = required.has(name) && !(field?.safeParse(undefined).success ?? false);
      params.push({ name, in: "query", required: isRequired, description, schema });
    }
  }
  return params;
}

/** Builds the whole document. */
export function buildOpenApi(version: string): Json {
  const { input, output } = registries();
  const components: Json = {};
  const paths: Record<string, Json> = {};
  for (const r of ROUTES) {
    const op: Json = {
      operationId: r.operationId,
      summary: r.summary,
      tags: [r.family],
    };
    const params = parameters(r, components, input);
    if (params.length) op.parameters = params;
    if (r.body) {
      op.requestBody = {
        // The server takes a missing body as {} where {} is valid (regenerating an invite), so the document
        // must not call such a body required.
        required: !validate(r.body, {}).ok,
        content: { "application/json": { schema: convert(r.body, "input", input, components) } },
      };
    }
    const responses: Json = {};
    responses[String(r.status)] = r.response
      ? {
          description: "Success",
          content: { "application/json": { schema: convert(r.response, "output", output, components) } },
        }
      : { description: "Accepted, no body" };
    const errorRef = convert(ErrorBodySchema, "output", output, components);
    for (const [code, description] of Object.entries(ERROR_STATUSES)) {
      responses[code] = { description, content: { "application/json": { schema: errorRef } } };
    }
    op.responses = responses;
    if (r.auth === "public") op.security = [];
    const notes = [r.cloudOnly ? "cloud-only" : "", r.embeddedIdpOnly ? "embedded IdP only" : ""].filter(
      Boolean,
    );
    if (notes.length) op.description = `${r.summary}. ${notes.join(", ")}.`;
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  const sorted = Object.fromEntries(
    Object.keys(components)
      .sort()
      .map((k) => [k, components[k]]),
  );
  return {
    openapi: "3.0.3",
    info: {
      title: "Private Network Management API",
      version,
      description:
        "The management API served by privnet-server and managed by the pulumi-privnet provider. " +
        "Generated from the zod schemas in api/.",
    },
    servers: [{ url: "http://127.0.0.1:8080" }],
    security: [{ TokenAuth: [] }, { BearerAuth: [] }],
    paths,
    components: {
      schemas: sorted,
      securitySchemes: {
        TokenAuth: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "`Token <personal access token>`",
        },
        BearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      },
    },
  };
}
