/** The examples' renderer for a package schema, with what it needs of the lookup table. */
import { LOOKUP_SPECS } from "../../sdk/lookups/table";
import type { PackageSchema } from "../schemagen";
import { Renderer } from "./render";

export function exampleRenderer(schema: PackageSchema): Renderer {
  const shapes = new Map(
    LOOKUP_SPECS.map((l) => [
      l.name,
      { name: l.name, many: l.many === true, ...(l.positional ? { positional: l.positional } : {}) },
    ]),
  );
  return new Renderer(schema, shapes);
}
