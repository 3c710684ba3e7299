/**
 * The package's one public provider entry, `pulumi-privnet/provider`: the object every resource passes to the
 * engine as its dynamic provider, so each resource's serialized `__provider` in state is one
 * `require("pulumi-privnet/provider")`, whatever the package's files are called inside.
 *
 * The dynamic-provider host hands a provider only the resource's properties, so each resource carries its kind
 * in the hidden input `__kind` (set by the sdk's resource classes and kept in the outputs), and this entry hands
 * each call to that kind's provider.
 *
 * Compatibility promise: `require("pulumi-privnet/provider")` keeps this shape, and kinds keep their names. States
 * written before this entry existed name one module per kind (`pulumi-privnet/dist/provider/resources/<kind>.js`);
 * those modules stay where they are so such states refresh and destroy.
 *
 * Loading: the program does not load this module (the resource classes name it in the text they register,
 * sdk/serialized-provider.ts); the dynamic-provider host loads it at its first call, and with it nothing of the
 * kinds: each kind's provider loads at the first call for that kind (./kinds.ts), so a stack of groups never loads
 * the other kinds or their API schemas.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as compileCacheTypes from "./compile-cache";
import type * as kindsTypes from "./kinds";
import type { PrivnetProvider } from "./lifecycle";
import type { Props } from "./spec";
import { KIND_INPUT } from "../model/hidden-inputs";

let kinds: kindsTypes.LoadedKinds | undefined;
/**
 * The kinds of this process, made at the first call (./kinds.ts loads the lifecycle, the client, zod), with Node's
 * compile cache on for them (./compile-cache.ts), written once each kind has loaded and its call is answered.
 */
function loaded(): kindsTypes.LoadedKinds {
  if (!kinds) {
    const cache: typeof compileCacheTypes = require("./compile-cache");
    cache.enableCompileCache();
    const { LoadedKinds }: typeof kindsTypes = require("./kinds");
    kinds = new LoadedKinds({ onLoad: () => setImmediate(cache.flush).unref() });
  }
  return kinds;
}

function providerOf(...props: (Props | undefined)[]): { kind: string; provider: PrivnetProvider } {
  for (const p of props) {
    const kind = p?.[KIND_INPUT];
    if (typeof kind !== "string") continue;
    const provider = loaded().get(kind);
    if (!provider) {
      throw new Error(
        `privnet: this version of pulumi-privnet has no resource kind ${JSON.stringify(kind)} ` +
          "(was the state written by a newer version?)",
      );
    }
    return { kind, provider };
  }
  throw new Error("privnet: the resource's properties do not name its kind (__kind)");
}

const withKind = (props: Props | undefined, kind: string): Props | undefined =>
  props === undefined ? undefined : { ...props, [KIND_INPUT]: kind };

/** Hands every call to the provider of the resource's kind. */
class PrivnetEntry implements pulumi.dynamic.ResourceProvider {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    loaded().configure((key) => req.config.get(`privnet:${key}`));
  }

  async check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
    return providerOf(news, olds).provider.check(olds, news);
  }

  async diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
    return providerOf(news, olds).provider.diff(id, olds, news);
  }

  async create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
    const { kind, provider } = providerOf(inputs);
    const created = await provider.create(inputs);
    return { id: created.id, outs: withKind(created.outs, kind) };
  }

  async read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
    const { kind, provider } = providerOf(props);
    const found = await provider.read(id, props);
    if (!found.id) return found;
    return { id: found.id, props: withKind(found.props, kind), inputs: withKind(found.inputs, kind) };
  }

  async update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
    const { kind, provider } = providerOf(news, olds);
    const updated = await provider.update(id, olds, news);
    return { outs: withKind(updated.outs, kind) };
  }

  async delete(id: string, props: Props): Promise<void> {
    await providerOf(props).provider.delete(id, props);
  }
}

export = new PrivnetEntry();
