/**
 * The resource calls' messages in Protocol Buffers' wire format, read and written directly to and from plain
 * values, for the calls the engine makes once per resource (Check, Diff, Read, Create, Update, Delete).
 *
 * Why: the SDK's generated message classes (google-protobuf) turn every `google.protobuf.Struct` into a map of
 * message objects and back; in the plugin that was about a quarter of the CPU of each call, on the path the engine
 * waits on at every step (bench/README.md, "plugin per-call cost"). Here a request's Structs become plain values
 * in one pass over the bytes, and a response is written in one buffer of its exact size. The other calls
 * (Configure, Invoke, GetSchema, ...) keep the generated classes.
 *
 * What is read and written is described field by field ({@link MESSAGES}, the field numbers of Pulumi's
 * `provider.proto`); a test reads and writes every message here against the generated classes. Reading is
 * liberal as protobuf requires: unknown fields are skipped, a repeated scalar may come packed or not, the last of
 * a repeated singular field wins, a Value without a kind is null. Malformed bytes are an error (the transport
 * answers INTERNAL), never a partial message.
 */

export type Props = Record<string, unknown>;

/** How a field is read and written. `struct`: a google.protobuf.Struct as a plain object. */
export type FieldKind =
  | "string"
  | "bool"
  | "double"
  | "enum"
  | "struct"
  | "strings"
  | "skip"
  /** Written only: repeated CheckFailure {property = 1, reason = 2}, as `{ property, reason }[]`. */
  | "failures"
  /** Written only: map<string, PropertyDiff {kind = 1, input_diff = 2}>, as `Record<name, { kind, inputDiff }>`. */
  | "diffs";

export interface Failure {
  property: string;
  reason: string;
}
export interface PropertyDiff {
  kind: number;
  inputDiff: boolean;
}

/** A message: field number -> [property name, kind]. */
export type MessageShape = Record<number, readonly [string, FieldKind]>;

class Malformed extends Error {
  constructor(what: string) {
    super(`malformed protobuf message: ${what}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** A cursor over a buffer; every read checks that it stays inside `end`. */
class Reader {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Malformed("truncated varint");
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    throw new Malformed("varint longer than 10 bytes");
  }

  /** The bounds of a length-delimited field's payload; the cursor moves past it. */
  span(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    if (len > this.end - start) throw new Malformed("length past the end of the message");
    this.pos = start + len;
    return [start, this.pos];
  }

  string(): string {
    const [s, e] = this.span();
    return this.buf.toString("utf8", s, e);
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new Malformed("truncated double");
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        if (this.pos + 8 > this.end) throw new Malformed("truncated fixed64");
        this.pos += 8;
        return;
      case 2:
        this.span();
        return;
      case 5:
        if (this.pos + 4 > this.end) throw new Malformed("truncated fixed32");
        this.pos += 4;
        return;
      default:
        throw new Malformed(`unsupported wire type ${wireType}`);
    }
  }
}

function expectWire(actual: number, wanted: number, what: string): void {
  if (actual !== wanted) throw new Malformed(`${what}: wire type ${actual}, expected ${wanted}`);
}

/** A google.protobuf.Value as a plain value: null, number, string, boolean, object or array. */
function readValue(buf: Buffer, start: number, end: number): unknown {
  const r = new Reader(buf, start, end);
  let value: unknown = null;
  while (r.pos < end) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    const wt = tag & 7;
    switch (field) {
      case 1: // null_value
        expectWire(wt, 0, "Value.null_value");
        r.varint();
        value = null;
        break;
      case 2: // number_value
        expectWire(wt, 1, "Value.number_value");
        value = r.double();
        break;
      case 3: // string_value
        expectWire(wt, 2, "Value.string_value");
        value = r.string();
        break;
      case 4: // bool_value
        expectWire(wt, 0, "Value.bool_value");
        value = r.varint() !== 0;
        break;
      case 5: {
        // struct_value
        expectWire(wt, 2, "Value.struct_value");
        const [s, e] = r.span();
        value = readStruct(buf, s, e);
        break;
      }
      case 6: {
        // list_value
        expectWire(wt, 2, "Value.list_value");
        const [s, e] = r.span();
        value = readList(buf, s, e);
        break;
      }
      default:
        r.skip(wt);
    }
  }
  return value;
}

function readList(buf: Buffer, start: number, end: number): unknown[] {
  const r = new Reader(buf, start, end);
  const out: unknown[] = [];
  while (r.pos < end) {
    const tag = r.varint();
    if (Math.floor(tag / 8) === 1) {
      expectWire(tag & 7, 2, "ListValue.values");
      const [s, e] = r.span();
      out.push(readValue(buf, s, e));
    } else r.skip(tag & 7);
  }
  return out;
}

function readStruct(buf: Buffer, start: number, end: number): Props {
  const r = new Reader(buf, start, end);
  const out: Props = {};
  while (r.pos < end) {
    const tag = r.varint();
    if (Math.floor(tag / 8) !== 1) {
      r.skip(tag & 7);
      continue;
    }
    expectWire(tag & 7, 2, "Struct.fields");
    const [s, e] = r.span();
    // A map entry: key = 1, value = 2; either may be absent (the default: "" and a Value without a kind).
    const entry = new Reader(buf, s, e);
    let key = "";
    let value: unknown = null;
    while (entry.pos < e) {
      const t = entry.varint();
      const f = Math.floor(t / 8);
      if (f === 1) {
        expectWire(t & 7, 2, "Struct.fields key");
        key = entry.string();
      } else if (f === 2) {
        expectWire(t & 7, 2, "Struct.fields value");
        const [vs, ve] = entry.span();
        value = readValue(buf, vs, ve);
      } else entry.skip(t & 7);
    }
    // A plain object must not take "__proto__" as its prototype: define it as an own property.
    if (key === "__proto__")
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

/** Reads a message of the given shape: absent fields take protobuf's defaults ("", false, 0, [], undefined Struct). */
export function readMessage(shape: MessageShape, buf: Buffer): Props {
  const out = compile(shape).defaults();
  const r = new Reader(buf, 0, buf.length);
  while (r.pos < buf.length) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    const wt = tag & 7;
    const spec = shape[field];
    if (!spec || spec[1] === "skip" || spec[1] === "failures" || spec[1] === "diffs") {
      r.skip(wt);
      continue;
    }
    const [name, kind] = spec;
    switch (kind) {
      case "string":
        expectWire(wt, 2, name);
        out[name] = r.string();
        break;
      case "bool":
        expectWire(wt, 0, name);
        out[name] = r.varint() !== 0;
        break;
      case "enum":
        expectWire(wt, 0, name);
        out[name] = r.varint();
        break;
      case "double":
        expectWire(wt, 1, name);
        out[name] = r.double();
        break;
      case "struct": {
        expectWire(wt, 2, name);
        const [s, e] = r.span();
        out[name] = readStruct(buf, s, e);
        break;
      }
      case "strings":
        expectWire(wt, 2, name);
        (out[name] as string[]).push(r.string());
        break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing: sizes first (in the order they are written), then one buffer of the exact size.

function varintSize(v: number): number {
  let n = 1;
  while (v >= 128) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

const delimited = (len: number) => 1 + varintSize(len) + len; // a field of number < 16 with its payload

/** Sizes of the nested messages of a value, in the order {@link Writer.value} needs them. */
class Sizer {
  readonly sizes: number[] = [];
  readonly strings: number[] = [];

  /** The size of a Value message holding `v` (nested sizes recorded). */
  value(v: unknown): number {
    switch (typeof v) {
      case "string": {
        const n = Buffer.byteLength(v, "utf8");
        this.strings.push(n);
        return delimited(n);
      }
      case "number":
        return 9;
      case "boolean":
        return 2;
      case "undefined":
        return 2; // as null (structSafe drops undefined members; a top-level undefined is null)
      case "object": {
        if (v === null) return 2;
        const slot = this.sizes.length;
        this.sizes.push(0);
        const inner = Array.isArray(v) ? this.list(v) : this.struct(v as Props);
        this.sizes[slot] = inner;
        return delimited(inner);
      }
      default:
        throw new Error(`cannot encode a ${typeof v} in a google.protobuf.Value`);
    }
  }

  list(items: unknown[]): number {
    let n = 0;
    for (const item of items) n += delimited(this.value(item));
    return n;
  }

  struct(props: Props): number {
    let n = 0;
    for (const key of Object.keys(props)) {
      const v = props[key];
      if (v === undefined) continue;
      const k = Buffer.byteLength(key, "utf8");
      this.strings.push(k);
      const vs = this.value(v);
      n += delimited(delimited(k) + delimited(vs));
    }
    return n;
  }
}

class Writer {
  readonly buf: Buffer;
  pos = 0;
  private s = 0;
  private t = 0;
  constructor(
    size: number,
    private readonly sizer: Sizer,
  ) {
    this.buf = Buffer.allocUnsafe(size);
  }

  varint(v: number): void {
    while (v >= 128) {
      this.buf[this.pos++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.pos++] = v;
  }

  tag(field: number, wt: number): void {
    this.varint(field * 8 + wt);
  }

  /** A string whose byte length the sizer recorded. */
  sizedString(field: number, s: string): void {
    const n = this.sizer.strings[this.t++]!;
    this.tag(field, 2);
    this.varint(n);
    this.pos += this.buf.write(s, this.pos, n, "utf8");
  }

  string(field: number, s: string): void {
    const n = Buffer.byteLength(s, "utf8");
    this.tag(field, 2);
    this.varint(n);
    this.pos += this.buf.write(s, this.pos, n, "utf8");
  }

  value(v: unknown): void {
    switch (typeof v) {
      case "string":
        this.sizedString(3, v);
        return;
      case "number":
        this.tag(2, 1);
        this.buf.writeDoubleLE(v, this.pos);
        this.pos += 8;
        return;
      case "boolean":
        this.tag(4, 0);
        this.varint(v ? 1 : 0);
        return;
      default:
        if (v === null || v === undefined) {
          this.tag(1, 0);
          this.varint(0);
          return;
        }
        if (Array.isArray(v)) {
          this.tag(6, 2);
          this.varint(this.sizer.sizes[this.s++]!);
          this.list(v);
        } else {
          this.tag(5, 2);
          this.varint(this.sizer.sizes[this.s++]!);
          this.struct(v as Props);
        }
    }
  }

  list(items: unknown[]): void {
    for (const item of items) {
      this.tag(1, 2);
      this.varint(this.valueSizeOf(item));
      this.value(item);
    }
  }

  struct(props: Props): void {
    for (const key of Object.keys(props)) {
      const v = props[key];
      if (v === undefined) continue;
      const k = this.sizer.strings[this.t]!;
      const vs = this.valueSizeOf(v, 1);
      this.tag(1, 2);
      this.varint(delimited(k) + delimited(vs));
      this.sizedString(1, key);
      this.tag(2, 2);
      this.varint(vs);
      this.value(v);
    }
  }

  /**
   * The size of the Value message of `v` about to be written, without moving the cursors: scalars are computed,
   * nested lists and objects take their recorded size. `ahead`: recorded strings before this value's own (a
   * struct entry's key).
   */
  private valueSizeOf(v: unknown, ahead = 0): number {
    if (typeof v === "string") return delimited(this.sizer.strings[this.t + ahead]!);
    if (typeof v === "number") return 9;
    if (v === null || typeof v !== "object") return 2;
    return delimited(this.sizer.sizes[this.s]!);
  }
}

/** A shape's fields in field-number order, and its defaults: worked out once per shape, not per message. */
const compiled = new WeakMap<
  MessageShape,
  { fields: (readonly [number, string, FieldKind])[]; defaults: () => Props }
>();
function compile(shape: MessageShape) {
  let c = compiled.get(shape);
  if (!c) {
    const fields = Object.entries(shape).map(([n, [name, kind]]) => [Number(n), name, kind] as const);
    const scalars: [string, unknown][] = [];
    const lists: string[] = [];
    for (const [, name, kind] of fields) {
      if (kind === "string") scalars.push([name, ""]);
      else if (kind === "bool") scalars.push([name, false]);
      else if (kind === "double" || kind === "enum") scalars.push([name, 0]);
      else if (kind === "strings") lists.push(name);
    }
    const defaults = (): Props => {
      const out: Props = {};
      for (const [name, v] of scalars) out[name] = v;
      for (const name of lists) out[name] = [];
      return out;
    };
    c = { fields, defaults };
    compiled.set(shape, c);
  }
  return c;
}

/** Writes a message of the given shape from plain values (fields at their default are left out, as protobuf does). */
export function writeMessage(shape: MessageShape, msg: Props): Buffer {
  // Pass 1: sizes. Struct fields record their nested sizes in writing order.
  const sizer = new Sizer();
  const { fields } = compile(shape);
  let size = 0;
  const structSizes = new Map<number, number>();
  for (const [field, name, kind] of fields) {
    const v = msg[name];
    if (v === undefined || v === null) continue;
    switch (kind) {
      case "string":
        if (v !== "") size += fieldSize(field, 2) + lenSize(Buffer.byteLength(v as string, "utf8"));
        break;
      case "bool":
        if (v) size += fieldSize(field, 0) + 1;
        break;
      case "enum":
        if (v !== 0) size += fieldSize(field, 0) + varintSize(v as number);
        break;
      case "double":
        if (v !== 0) size += fieldSize(field, 1) + 8;
        break;
      case "strings":
        for (const s of v as string[]) size += fieldSize(field, 2) + lenSize(Buffer.byteLength(s, "utf8"));
        break;
      case "struct": {
        const n = sizer.struct(v as Props);
        structSizes.set(field, n);
        size += fieldSize(field, 2) + lenSize(n);
        break;
      }
      case "failures":
        for (const f of v as Failure[]) size += fieldSize(field, 2) + lenSize(failureSize(f));
        break;
      case "diffs":
        for (const [k, d] of Object.entries(v as Record<string, PropertyDiff>))
          size += fieldSize(field, 2) + lenSize(diffEntrySize(k, d));
        break;
    }
  }
  // Pass 2: one buffer of the exact size.
  const w = new Writer(size, sizer);
  for (const [field, name, kind] of fields) {
    const v = msg[name];
    if (v === undefined || v === null) continue;
    switch (kind) {
      case "string":
        if (v !== "") w.string(field, v as string);
        break;
      case "bool":
        if (v) {
          w.tag(field, 0);
          w.varint(1);
        }
        break;
      case "enum":
        if (v !== 0) {
          w.tag(field, 0);
          w.varint(v as number);
        }
        break;
      case "double":
        if (v !== 0) {
          w.tag(field, 1);
          w.buf.writeDoubleLE(v as number, w.pos);
          w.pos += 8;
        }
        break;
      case "strings":
        for (const s of v as string[]) w.string(field, s);
        break;
      case "struct":
        w.tag(field, 2);
        w.varint(structSizes.get(field)!);
        w.struct(v as Props);
        break;
      case "failures":
        for (const f of v as Failure[]) {
          w.tag(field, 2);
          w.varint(failureSize(f));
          if (f.property) w.string(1, f.property);
          if (f.reason) w.string(2, f.reason);
        }
        break;
      case "diffs":
        for (const [k, d] of Object.entries(v as Record<string, PropertyDiff>)) {
          w.tag(field, 2);
          w.varint(diffEntrySize(k, d));
          w.string(1, k);
          w.tag(2, 2);
          w.varint(diffSize(d));
          if (d.kind) {
            w.tag(1, 0);
            w.varint(d.kind);
          }
          if (d.inputDiff) {
            w.tag(2, 0);
            w.varint(1);
          }
        }
        break;
    }
  }
  if (w.pos !== size) throw new Error(`protobuf writer: wrote ${w.pos} bytes, sized ${size}`);
  return w.buf;
}

const fieldSize = (field: number, wt: number) => varintSize(field * 8 + wt);
const lenSize = (n: number) => varintSize(n) + n;
const stringField = (s: string) => (s ? 1 + lenSize(Buffer.byteLength(s, "utf8")) : 0);
const failureSize = (f: Failure) => stringField(f.property) + stringField(f.reason);
const diffSize = (d: PropertyDiff) => (d.kind ? 1 + varintSize(d.kind) : 0) + (d.inputDiff ? 2 : 0);
/** A detailed-diff map entry: the key (always written, as the generated classes do) and the PropertyDiff. */
const diffEntrySize = (k: string, d: PropertyDiff) =>
  1 + lenSize(Buffer.byteLength(k, "utf8")) + 1 + lenSize(diffSize(d));

/**
 * The messages of the per-resource calls (Pulumi's provider.proto; fields the plugin does not use are skipped
 * when read). Responses: the fields the plugin sets.
 */
export const MESSAGES = {
  CheckRequest: {
    1: ["urn", "string"],
    2: ["olds", "struct"],
    3: ["news", "struct"],
    6: ["name", "string"],
    7: ["type", "string"],
  },
  CheckResponse: { 1: ["inputs", "struct"], 2: ["failures", "failures"] },
  DiffRequest: {
    1: ["id", "string"],
    2: ["urn", "string"],
    3: ["olds", "struct"],
    4: ["news", "struct"],
    5: ["ignoreChanges", "strings"],
    6: ["oldInputs", "struct"],
    7: ["name", "string"],
    8: ["type", "string"],
  },
  DiffResponse: {
    1: ["replaces", "strings"],
    3: ["deleteBeforeReplace", "bool"],
    4: ["changes", "enum"],
    5: ["diffs", "strings"],
    6: ["detailedDiff", "diffs"],
    7: ["hasDetailedDiff", "bool"],
  },
  ReadRequest: {
    1: ["id", "string"],
    2: ["urn", "string"],
    3: ["properties", "struct"],
    4: ["inputs", "struct"],
    5: ["name", "string"],
    6: ["type", "string"],
  },
  ReadResponse: { 1: ["id", "string"], 2: ["properties", "struct"], 3: ["inputs", "struct"] },
  CreateRequest: {
    1: ["urn", "string"],
    2: ["properties", "struct"],
    4: ["preview", "bool"],
    5: ["name", "string"],
    6: ["type", "string"],
  },
  CreateResponse: { 1: ["id", "string"], 2: ["properties", "struct"] },
  UpdateRequest: {
    1: ["id", "string"],
    2: ["urn", "string"],
    3: ["olds", "struct"],
    4: ["news", "struct"],
    6: ["ignoreChanges", "strings"],
    7: ["preview", "bool"],
    8: ["oldInputs", "struct"],
    9: ["name", "string"],
    10: ["type", "string"],
  },
  UpdateResponse: { 1: ["properties", "struct"] },
  DeleteRequest: {
    1: ["id", "string"],
    2: ["urn", "string"],
    3: ["properties", "struct"],
    5: ["oldInputs", "struct"],
    6: ["name", "string"],
    7: ["type", "string"],
  },
} as const satisfies Record<string, MessageShape>;
