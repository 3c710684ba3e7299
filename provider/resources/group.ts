/** Group: peers and network resources, referenced by policies, routes and DNS. */
import { GroupRequestSchema, GroupSchema } from "../../api/group";
import { defaultUpdate, PrivnetProvider } from "../lifecycle";
import { fromApi } from "../../model/mapping";
import { expectRecord, isRecord, type ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "Group",
  file: "group",
  description:
    "A group of peers and network resources. Policies, routes, DNS and setup keys refer to groups by id. " +
    "The built-in `All` group cannot be managed; look it up with `getGroup` by its name, `All`.",
  input: GroupRequestSchema,
  output: GroupSchema,
  ops: { create: "createGroup", read: "getGroup", update: "updateGroup", delete: "deleteGroup" },
  idParam: "groupId",
  // Membership is also written from elsewhere: a network resource's `groups` adds the resource to its groups,
  // setup keys and users put the peers they enroll into their auto groups. A program that leaves `peers` or
  // `resources` out does not manage that list: it is not diffed (else every refresh would show the members added
  // elsewhere as drift, and the next update would remove them).
  computedIfAbsent: ["peers", "resources"],
};

spec.hooks = {
  // The API's PUT replaces the whole group: a list the program leaves out is sent as the server has it now, so an
  // update (a rename) keeps the members added elsewhere.
  async update(ctx, id, olds, news) {
    if (news.peers != null && news.resources != null) return defaultUpdate(spec, ctx, id, olds, news);
    const current = expectRecord(
      fromApi(await ctx.client.call("getGroup", { params: { groupId: id } }), spec.output),
      "the answer to getGroup",
    );
    // fromApi answers a list for a list of the schema (`null` is an empty one).
    const peers = Array.isArray(current.peers) ? current.peers : [];
    return defaultUpdate(spec, ctx, id, olds, {
      ...news,
      peers: news.peers ?? peers.map((p) => (isRecord(p) ? p.id : undefined)),
      resources: news.resources ?? current.resources,
    });
  },
};

export = new PrivnetProvider(spec);
