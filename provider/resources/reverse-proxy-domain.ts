/**
 * Custom domain for reverse-proxy services. The API has no update and no read of one domain: it is read from the
 * list (which also holds each cluster's own domain, with an empty id: not a resource), and any change makes a new
 * domain.
 */
import { ReverseProxyDomainRequestSchema, ReverseProxyDomainSchema } from "../../api/reverse-proxy";
import { buildOutputs, inputsFromOutputs, PrivnetProvider } from "../lifecycle";
import { domainForm } from "../normal-forms";
import { fromList } from "../read-batch";
import { listAnswer, type Props, type ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "ReverseProxyDomain",
  file: "reverse-proxy-domain",
  description:
    "A custom domain services can be published under (`ReverseProxyService.domain` = the domain or a name under " +
    "it), served by the proxy cluster `targetCluster`. The service checks it when it is added: `validated` " +
    "becomes true once DNS has `validation.<domain>` as a CNAME of the cluster's address (services may use it " +
    "before that). The API cannot change a domain: a new `domain` or `targetCluster` replaces it (the old one is " +
    "deleted first; services under it stay). Adopting an existing domain (`adoptId`) takes it as it is: its " +
    "domain and cluster must be the program's.",
  input: ReverseProxyDomainRequestSchema,
  output: ReverseProxyDomainSchema,
  ops: {
    create: "createReverseProxyDomain",
    read: "listReverseProxyDomains",
    delete: "deleteReverseProxyDomain",
  },
  idParam: "domainId",
  replaceOnChange: ["domain", "targetCluster"],
  deleteBeforeReplace: true,
  adoptAsIs: true,
  // The create's answer lacks what the list says about the cluster (supportsCustomPorts, ...): state holds the list's.
  readBack: "create",
  normalForms: { domain: domainForm },
};

spec.hooks = {
  // No GET of one domain: read lists and picks (a list shared by the reads of a refresh, see read-batch.ts).
  async read(ctx, id, props: Props) {
    const found = id === "" ? undefined : await fromList(ctx, "listReverseProxyDomains", id);
    if (!found) return {};
    const outs = buildOutputs(spec, found, props, props, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
  // Custom domains only: a cluster's own domain (type free, empty id) is not the account's to manage.
  async list(ctx) {
    const all = listAnswer(await ctx.client.call("listReverseProxyDomains"), "listReverseProxyDomains");
    return all
      .filter((d) => d.type === "custom" && typeof d.id === "string" && d.id !== "")
      .map((d) => ({ id: String(d.id), object: d, parents: {} }));
  },
};

export = new PrivnetProvider(spec);
