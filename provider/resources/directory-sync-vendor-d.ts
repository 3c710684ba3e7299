/** Directory sync integration vendor-d-idp: users and groups synced from a directory. */
import { z } from "../../api/common";
import { VendorDCreateSchema, VendorDSchema, VendorDUpdateSchema } from "../../api/directory-sync";
import { defaultCreate, defaultUpdate, PrivnetProvider } from "../lifecycle";
import type { ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "DirectorySyncVendorD",
  file: "directory-sync-vendor-d",
  description:
    "A vendor-d-idp directory sync integration: groups matching `groupPrefixes` and their users are synced " +
    "every `syncInterval` seconds. `serviceAccountKey` is write-only: the API never returns it, so it is kept in state " +
    "(encrypted) and sent again when it changes.",
  input: VendorDCreateSchema.extend({
    enabled: z.boolean().optional().describe("Whether the integration is active; default true"),
  }),
  output: VendorDSchema,
  updateBody: VendorDUpdateSchema,
  ops: {
    create: "createVendorDIdp",
    read: "getVendorDIdp",
    update: "updateVendorDIdp",
    delete: "deleteVendorDIdp",
  },
  idParam: "id",
  writeOnly: ["serviceAccountKey"],
  secretInputs: ["serviceAccountKey"],
  defaults: { enabled: true, syncInterval: 300 },
};

spec.hooks = {
  // The create body has no `enabled`: an integration created disabled is switched off right after.
  async create(ctx, inputs) {
    const created = await defaultCreate(spec, ctx, inputs);
    if (inputs.enabled !== false) return created;
    const { outs } = await defaultUpdate(spec, ctx, created.id, created.outs, inputs);
    return { id: created.id, outs };
  },
};

export = new PrivnetProvider(spec);
