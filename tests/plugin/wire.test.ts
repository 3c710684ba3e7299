/**
 * plugin/wire.ts against the SDK's generated message classes (google-protobuf): every per-resource message it
 * reads is read the same as the generated class reads it, and every message it writes is read back by the
 * generated class as the values written, for random property values (nested objects and lists, unicode, numbers
 * of every kind, null, booleans, empty strings and keys, secrets' wire form). Malformed bytes are refused.
 */
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { MESSAGES, readMessage, writeMessage, type Props } from "../../plugin/wire";
import { prng as rng } from "../support/netmap-account";

const STRINGS = [
  "",
  "g-1",
  "ünïcödé ✓",
  "emoji 🛰️ and 𝕏",
  "a".repeat(300),
  "10.0.0.5/32",
  "line\nbreak\u0000nul",
];
const NUMBERS = [0, 1, -1, 42, 3.5, -0.25, 1e300, -1e-300, 2 ** 53, Number.MAX_SAFE_INTEGER, 65535];

function value(r: () => number, depth: number): unknown {
  const pick = Math.floor(r() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0:
      return STRINGS[Math.floor(r() * STRINGS.length)];
    case 1:
      return NUMBERS[Math.floor(r() * NUMBERS.length)];
    case 2:
      return r() < 0.5;
    case 3:
      return null;
    case 4:
      return `s${Math.floor(r() * 1e6)}`;
    case 5:
      return Array.from({ length: Math.floor(r() * 5) }, () => value(r, depth + 1));
    default:
      return props(r, depth + 1);
  }
}

function props(r: () => number, depth = 0): Props {
  const out: Props = {};
  const n = Math.floor(r() * 6);
  for (let i = 0; i < n; i++) out[r() < 0.1 ? "" : `k${Math.floor(r() * 1000)}_${i}`] = value(r, depth);
  if (r() < 0.2)
    out.secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s3cr3t" };
  return out;
}

const struct = (p: Props) => Struct.fromJavaScript(p as Record<string, never>);
const SEEDS = Array.from({ length: 60 }, (_, i) => i + 1);

describe("requests: read as the generated classes read them", () => {
  test.each(SEEDS)("seed %i: Check, Diff, Read, Create, Update, Delete", (seed) => {
    const r = rng(seed);
    const [a, b, c] = [props(r), props(r), props(r)];

    const check = new providerPb.CheckRequest();
    check.setUrn("urn:pulumi:s::p::privnet:index:Group::g");
    check.setType("privnet:index:Group");
    check.setName("g");
    check.setOlds(struct(a));
    check.setNews(struct(b));
    check.setRandomseed(Buffer.from([1, 2, 3]));
    expect(readMessage(MESSAGES.CheckRequest, Buffer.from(check.serializeBinary()))).toEqual({
      urn: check.getUrn(),
      type: check.getType(),
      name: "g",
      olds: check.getOlds()!.toJavaScript(),
      news: check.getNews()!.toJavaScript(),
    });

    const diff = new providerPb.DiffRequest();
    diff.setId(`id-${seed}`);
    diff.setUrn("urn:x");
    diff.setType("privnet:index:Policy");
    diff.setOlds(struct(a));
    diff.setNews(struct(b));
    diff.setOldInputs(struct(c));
    diff.setIgnorechangesList(seed % 2 ? ["name", "rules[0]", "ü"] : []);
    expect(readMessage(MESSAGES.DiffRequest, Buffer.from(diff.serializeBinary()))).toEqual({
      id: `id-${seed}`,
      urn: "urn:x",
      type: "privnet:index:Policy",
      name: "",
      olds: diff.getOlds()!.toJavaScript(),
      news: diff.getNews()!.toJavaScript(),
      oldInputs: diff.getOldInputs()!.toJavaScript(),
      ignoreChanges: diff.getIgnorechangesList(),
    });

    const read = new providerPb.ReadRequest();
    read.setId("abc");
    read.setUrn("urn:r");
    read.setType("privnet:index:Group");
    read.setProperties(struct(a));
    if (seed % 3) read.setInputs(struct(c));
    read.setTimeout(30);
    const readBack = readMessage(MESSAGES.ReadRequest, Buffer.from(read.serializeBinary()));
    expect(readBack).toEqual({
      id: "abc",
      urn: "urn:r",
      type: "privnet:index:Group",
      name: "",
      properties: read.getProperties()!.toJavaScript(),
      ...(seed % 3 ? { inputs: read.getInputs()!.toJavaScript() } : {}),
    });

    const create = new providerPb.CreateRequest();
    create.setUrn("urn:c");
    create.setType("privnet:index:SetupKey");
    create.setProperties(struct(b));
    create.setPreview(seed % 2 === 0);
    create.setTimeout(12.5);
    expect(readMessage(MESSAGES.CreateRequest, Buffer.from(create.serializeBinary()))).toEqual({
      urn: "urn:c",
      type: "privnet:index:SetupKey",
      name: "",
      properties: create.getProperties()!.toJavaScript(),
      preview: seed % 2 === 0,
    });

    const update = new providerPb.UpdateRequest();
    update.setId("u1");
    update.setUrn("urn:u");
    update.setType("privnet:index:Route");
    update.setOlds(struct(a));
    update.setNews(struct(b));
    update.setOldInputs(struct(c));
    update.setPreview(true);
    update.setIgnorechangesList(["x"]);
    expect(readMessage(MESSAGES.UpdateRequest, Buffer.from(update.serializeBinary()))).toEqual({
      id: "u1",
      urn: "urn:u",
      type: "privnet:index:Route",
      name: "",
      olds: update.getOlds()!.toJavaScript(),
      news: update.getNews()!.toJavaScript(),
      oldInputs: update.getOldInputs()!.toJavaScript(),
      preview: true,
      ignoreChanges: ["x"],
    });

    const del = new providerPb.DeleteRequest();
    del.setId("d1");
    del.setUrn("urn:d");
    del.setType("privnet:index:Group");
    del.setProperties(struct(a));
    expect(readMessage(MESSAGES.DeleteRequest, Buffer.from(del.serializeBinary()))).toEqual({
      id: "d1",
      urn: "urn:d",
      type: "privnet:index:Group",
      name: "",
      properties: del.getProperties()!.toJavaScript(),
    });
  });

  test("absent fields take protobuf's defaults; unknown fields are skipped", () => {
    expect(readMessage(MESSAGES.CreateRequest, Buffer.alloc(0))).toEqual({
      urn: "",
      type: "",
      name: "",
      preview: false,
    });
    const read = new providerPb.ReadRequest();
    read.setId("abc");
    read.setProperties(struct({ name: "n" }));
    read.setResourceStatusAddress("127.0.0.1:1");
    read.setOldViewsList([new providerPb.View()]);
    // Field 99 (varint), 98 (fixed32), 97 (fixed64), 96 (bytes): not in the message.
    const unknown = Buffer.from([
      0x98, 0x06, 0x05, 0x95, 0x06, 1, 2, 3, 4, 0x89, 0x06, 1, 2, 3, 4, 5, 6, 7, 8, 0x82, 0x06, 2, 0x61, 0x62,
    ]);
    const bytes = Buffer.concat([Buffer.from(read.serializeBinary()), unknown]);
    expect(readMessage(MESSAGES.ReadRequest, bytes)).toMatchObject({ id: "abc", properties: { name: "n" } });
  });

  test("a key __proto__ is an own property, not the object's prototype", () => {
    // Written by wire.ts (the generated classes keep their map in a plain object and lose such a key).
    const bytes = writeMessage({ 3: ["news", "struct"] }, { news: JSON.parse('{"__proto__": {"x": 1}}') });
    const news = readMessage(MESSAGES.CheckRequest, bytes).news as Props;
    expect(Object.getPrototypeOf(news)).toBe(Object.prototype);
    expect(Object.keys(news)).toEqual(["__proto__"]);
    expect((news as { x?: number }).x).toBeUndefined();
  });

  test("malformed bytes are refused, never read in part", () => {
    const check = new providerPb.CheckRequest();
    check.setUrn("urn:pulumi:s::p::t::n");
    check.setNews(struct({ name: "abc", list: [1, "two", { three: true }] }));
    const bytes = Buffer.from(check.serializeBinary());
    // Every cut inside a field (a cut between two fields is a shorter message, valid in protobuf).
    const between = 2 + Buffer.byteLength(check.getUrn());
    for (let cut = 1; cut < bytes.length; cut++) {
      if (cut === between) continue;
      expect(() => readMessage(MESSAGES.CheckRequest, bytes.subarray(0, cut))).toThrow(/malformed protobuf/);
    }
    // A known field with another wire type; an unsupported wire type (groups).
    expect(() => readMessage(MESSAGES.CheckRequest, Buffer.from([0x08, 0x01]))).toThrow(/wire type 0/);
    expect(() => readMessage(MESSAGES.CheckRequest, Buffer.from([0x7b]))).toThrow(/wire type 3/);
    expect(() =>
      readMessage(
        MESSAGES.CheckRequest,
        Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
      ),
    ).toThrow(/malformed/);
  });
});

describe("responses: what the generated classes read back is what was written", () => {
  test.each(SEEDS)("seed %i: Check, Diff, Read, Create, Update", (seed) => {
    const r = rng(seed * 7919);
    const [a, b] = [props(r), props(r)];

    const check = providerPb.CheckResponse.deserializeBinary(
      writeMessage(MESSAGES.CheckResponse, {
        inputs: a,
        failures:
          seed % 2
            ? [
                { property: "name", reason: "must not be empty ✓" },
                { property: "", reason: "r" },
              ]
            : [],
      }),
    );
    expect(check.getInputs()!.toJavaScript()).toEqual(a);
    expect(check.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual(
      seed % 2
        ? [
            ["name", "must not be empty ✓"],
            ["", "r"],
          ]
        : [],
    );

    const K = providerPb.PropertyDiff.Kind;
    const diff = providerPb.DiffResponse.deserializeBinary(
      writeMessage(MESSAGES.DiffResponse, {
        changes:
          seed % 2
            ? providerPb.DiffResponse.DiffChanges.DIFF_SOME
            : providerPb.DiffResponse.DiffChanges.DIFF_NONE,
        diffs: seed % 2 ? ["name", "peers"] : [],
        replaces: seed % 2 ? ["peers"] : [],
        deleteBeforeReplace: seed % 4 === 1,
        hasDetailedDiff: true,
        detailedDiff:
          seed % 2
            ? { name: { kind: K.UPDATE, inputDiff: true }, peers: { kind: K.ADD, inputDiff: true } }
            : {},
      }),
    );
    expect(diff.getChanges()).toBe(
      seed % 2
        ? providerPb.DiffResponse.DiffChanges.DIFF_SOME
        : providerPb.DiffResponse.DiffChanges.DIFF_NONE,
    );
    expect(diff.getDiffsList()).toEqual(seed % 2 ? ["name", "peers"] : []);
    expect(diff.getReplacesList()).toEqual(seed % 2 ? ["peers"] : []);
    expect(diff.getDeletebeforereplace()).toBe(seed % 4 === 1);
    expect(diff.getHasdetaileddiff()).toBe(true);
    const detailed: Record<string, [number, boolean]> = {};
    diff.getDetaileddiffMap().forEach((v, k) => (detailed[k] = [v.getKind(), v.getInputdiff()]));
    expect(detailed).toEqual(seed % 2 ? { name: [K.UPDATE, true], peers: [K.ADD, true] } : {});

    const read = providerPb.ReadResponse.deserializeBinary(
      writeMessage(MESSAGES.ReadResponse, { id: `id-${seed}`, properties: a, inputs: b }),
    );
    expect([read.getId(), read.getProperties()!.toJavaScript(), read.getInputs()!.toJavaScript()]).toEqual([
      `id-${seed}`,
      a,
      b,
    ]);
    // Gone: an empty response.
    expect(writeMessage(MESSAGES.ReadResponse, {}).length).toBe(0);

    const create = providerPb.CreateResponse.deserializeBinary(
      writeMessage(MESSAGES.CreateResponse, { id: "", properties: b }),
    );
    expect([create.getId(), create.getProperties()!.toJavaScript()]).toEqual(["", b]);

    const update = providerPb.UpdateResponse.deserializeBinary(
      writeMessage(MESSAGES.UpdateResponse, { properties: a }),
    );
    expect(update.getProperties()!.toJavaScript()).toEqual(a);
  });

  test("undefined members are left out, undefined list items are null; what a Value cannot hold is refused", () => {
    const bytes = writeMessage(MESSAGES.UpdateResponse, {
      properties: { a: undefined, b: [1, undefined, "x"], c: { d: undefined, e: 0 }, f: -0 },
    });
    expect(providerPb.UpdateResponse.deserializeBinary(bytes).getProperties()!.toJavaScript()).toEqual({
      b: [1, null, "x"],
      c: { e: 0 },
      f: -0,
    });
    expect(() => writeMessage(MESSAGES.UpdateResponse, { properties: { n: BigInt(1) } })).toThrow(/bigint/);
  });

  test("written and read by wire.ts alone: the same values, deep and wide", () => {
    const r = rng(4242);
    for (let i = 0; i < 200; i++) {
      const p = props(r);
      expect(
        readMessage({ 1: ["inputs", "struct"] }, writeMessage(MESSAGES.CheckResponse, { inputs: p })).inputs,
      ).toEqual(p);
    }
  });
});
