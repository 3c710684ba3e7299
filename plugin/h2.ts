/**
 * A small HTTP/2 server (RFC 9113, cleartext with prior knowledge, as the engine's gRPC client connects) for the
 * plugin's unary gRPC calls: each request is read whole, then answered with headers, one body and trailers.
 *
 * Why not node:http2: each of its streams is a full Node stream (Duplex, header objects, several callbacks through
 * the native layer), which cost the plugin about as much CPU per call as all its own work, on the path the engine
 * waits on at every step (bench/README.md, "plugin per-call cost"). Here a call is a few frames parsed from one
 * buffer and its answer one write.
 *
 * What it does: SETTINGS (and their ACK), PING ACK, flow control both ways (the peer's windows are respected when
 * sending; ours are topped up as data is consumed), HEADERS with CONTINUATION and padding, HPACK decoding with the
 * dynamic table and Huffman strings (RFC 7541; responses are written as literals without indexing), RST_STREAM
 * from the peer (the call's answer is dropped), GOAWAY both ways and a graceful close. Push, priorities and server
 * initiated streams are not used. A protocol error closes the connection with GOAWAY and the error's code.
 */
import * as net from "node:net";

// ---------------------------------------------------------------------------------------------------------------
// HPACK (RFC 7541)

/** The static table (Appendix A); index 0 is unused. */
const STATIC_TABLE: readonly (readonly [string, string])[] = [
  ["", ""],
  [":authority", ""],
  [":method", "GET"],
  [":method", "POST"],
  [":path", "/"],
  [":path", "/index.html"],
  [":scheme", "http"],
  [":scheme", "https"],
  [":status", "200"],
  [":status", "204"],
  [":status", "206"],
  [":status", "304"],
  [":status", "400"],
  [":status", "404"],
  [":status", "500"],
  ["accept-charset", ""],
  ["accept-encoding", "gzip, deflate"],
  ["accept-language", ""],
  ["accept-ranges", ""],
  ["accept", ""],
  ["access-control-allow-origin", ""],
  ["age", ""],
  ["allow", ""],
  ["authorization", ""],
  ["cache-control", ""],
  ["content-disposition", ""],
  ["content-encoding", ""],
  ["content-language", ""],
  ["content-length", ""],
  ["content-location", ""],
  ["content-range", ""],
  ["content-type", ""],
  ["cookie", ""],
  ["date", ""],
  ["etag", ""],
  ["expect", ""],
  ["expires", ""],
  ["from", ""],
  ["host", ""],
  ["if-match", ""],
  ["if-modified-since", ""],
  ["if-none-match", ""],
  ["if-range", ""],
  ["if-unmodified-since", ""],
  ["last-modified", ""],
  ["link", ""],
  ["location", ""],
  ["max-forwards", ""],
  ["proxy-authenticate", ""],
  ["proxy-authorization", ""],
  ["range", ""],
  ["referer", ""],
  ["refresh", ""],
  ["retry-after", ""],
  ["server", ""],
  ["set-cookie", ""],
  ["strict-transport-security", ""],
  ["transfer-encoding", ""],
  ["user-agent", ""],
  ["vary", ""],
  ["via", ""],
  ["www-authenticate", ""],
];

/**
 * The Huffman code's length in bits of each symbol, 0-255 and EOS (Appendix B). The code is canonical: codes are
 * assigned in order of length, then of symbol, so the lengths define it.
 */
const HUFFMAN_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28,
  28, 28, 28, 28, 28, 6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7,
  8, 15, 6, 12, 10, 13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19,
  13, 14, 6, 15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13,
  28, 20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21,
  22, 23, 22, 23, 23, 24, 22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23,
  22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, 20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25,
  25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, 30,
];
const EOS = 256;

/** The decoding tree: node n's children at [2n] (bit 0) and [2n+1] (bit 1); a leaf is -(symbol + 1); 0 is none. */
const HUFFMAN_TREE: Int32Array = (() => {
  const symbols = HUFFMAN_LENGTHS.map((len, sym) => ({ len, sym })).sort(
    (a, b) => a.len - b.len || a.sym - b.sym,
  );
  const tree = new Int32Array(2 * 2 * symbols.length);
  let nodes = 1;
  let code = 0;
  let prevLen = symbols[0]!.len;
  symbols.forEach(({ len, sym }, i) => {
    if (i > 0) code = (code + 1) * 2 ** (len - prevLen);
    prevLen = len;
    let node = 0;
    for (let bit = len - 1; bit >= 0; bit--) {
      const b = Math.floor(code / 2 ** bit) % 2;
      const slot = 2 * node + b;
      if (bit === 0) tree[slot] = -(sym + 1);
      else {
        if (tree[slot] === 0) tree[slot] = nodes++;
        node = tree[slot]!;
      }
    }
  });
  return tree;
})();

export class CompressionError extends Error {}

/** Decodes a Huffman-coded string (as latin1: one char per octet). */
export function huffmanDecode(buf: Buffer, start: number, end: number): string {
  let out = "";
  let node = 0;
  let pendingBits = 0; // bits read since the last whole symbol
  let allOnes = true;
  for (let i = start; i < end; i++) {
    const byte = buf[i]!;
    for (let bit = 7; bit >= 0; bit--) {
      const b = (byte >> bit) & 1;
      const next = HUFFMAN_TREE[2 * node + b]!;
      pendingBits++;
      allOnes &&= b === 1;
      if (next < 0) {
        const sym = -next - 1;
        if (sym === EOS) throw new CompressionError("EOS in a Huffman string");
        out += String.fromCharCode(sym);
        node = 0;
        pendingBits = 0;
        allOnes = true;
      } else if (next === 0) throw new CompressionError("invalid Huffman code");
      else node = next;
    }
  }
  // Padding: fewer than 8 bits, all ones (the start of EOS).
  if (pendingBits > 7 || !allOnes) throw new CompressionError("invalid Huffman padding");
  return out;
}

/** Decodes header blocks of one connection (its dynamic table lives here). */
export class HpackDecoder {
  private dynamic: [string, string][] = [];
  private size = 0;
  private maxSize: number;

  /** `limit`: the SETTINGS_HEADER_TABLE_SIZE this side announced (the encoder may use up to it). */
  constructor(private readonly limit = 4096) {
    this.maxSize = limit;
  }

  decode(block: Buffer): [string, string][] {
    const headers: [string, string][] = [];
    let pos = 0;
    const int = (prefixBits: number): number => {
      if (pos >= block.length) throw new CompressionError("truncated integer");
      const max = (1 << prefixBits) - 1;
      let value = block[pos++]! & max;
      if (value < max) return value;
      let shift = 0;
      for (;;) {
        if (pos >= block.length) throw new CompressionError("truncated integer");
        const b = block[pos++]!;
        value += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return value;
        shift += 7;
        if (shift > 28) throw new CompressionError("integer too large");
      }
    };
    const str = (): string => {
      if (pos >= block.length) throw new CompressionError("truncated string");
      const huffman = (block[pos]! & 0x80) !== 0;
      const len = int(7);
      if (len > block.length - pos) throw new CompressionError("string past the end of the block");
      const start = pos;
      pos += len;
      return huffman ? huffmanDecode(block, start, pos) : block.toString("latin1", start, pos);
    };
    const entry = (index: number): readonly [string, string] => {
      if (index > 0 && index < STATIC_TABLE.length) return STATIC_TABLE[index]!;
      const e = this.dynamic[index - STATIC_TABLE.length];
      if (!e) throw new CompressionError(`no header table entry ${index}`);
      return e;
    };
    while (pos < block.length) {
      const b = block[pos]!;
      if (b & 0x80) {
        const [name, value] = entry(int(7));
        headers.push([name, value]);
      } else if (b & 0x40) {
        const index = int(6);
        const name = index ? entry(index)[0] : str();
        const value = str();
        headers.push([name, value]);
        this.insert(name, value);
      } else if (b & 0x20) {
        const size = int(5);
        if (size > this.limit) throw new CompressionError("header table size above the announced limit");
        this.maxSize = size;
        this.evict();
      } else {
        // Literal without indexing (0000) or never indexed (0001).
        const index = int(4);
        const name = index ? entry(index)[0] : str();
        headers.push([name, str()]);
      }
    }
    return headers;
  }

  private insert(name: string, value: string): void {
    const size = name.length + value.length + 32;
    this.dynamic.unshift([name, value]);
    this.size += size;
    this.evict();
  }

  private evict(): void {
    while (this.size > this.maxSize && this.dynamic.length) {
      const [n, v] = this.dynamic.pop()!;
      this.size -= n.length + v.length + 32;
    }
  }
}

function encodeInt(out: number[], value: number, prefixBits: number, first: number): void {
  const max = (1 << prefixBits) - 1;
  if (value < max) {
    out.push(first | value);
    return;
  }
  out.push(first | max);
  value -= max;
  while (value >= 128) {
    out.push((value % 128) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
}

function encodeString(out: number[], s: string): void {
  const bytes = Buffer.from(s, "latin1");
  encodeInt(out, bytes.length, 7, 0);
  for (const b of bytes) out.push(b);
}

/** A header block: `:status` first, then each header as a literal without indexing (no table state needed). */
export function encodeHeaders(
  status: number | undefined,
  headers: readonly (readonly [string, string])[],
): Buffer {
  const out: number[] = [];
  if (status === 200)
    out.push(0x88); // static entry 8
  else if (status !== undefined) {
    encodeInt(out, 8, 4, 0); // name from static entry 8 (:status), literal value
    encodeString(out, String(status));
  }
  for (const [name, value] of headers) {
    out.push(0);
    encodeString(out, name);
    encodeString(out, value);
  }
  return Buffer.from(out);
}

/**
 * Header blocks of the lists a caller passes again and again (a gRPC answer's headers and trailers are the same
 * constant lists at every call): encoded once per list and status. Lists are taken as immutable.
 */
const blocks = new WeakMap<readonly (readonly [string, string])[], Map<number | undefined, Buffer>>();
function blockOf(status: number | undefined, headers: readonly (readonly [string, string])[]): Buffer {
  let byStatus = blocks.get(headers);
  if (!byStatus) blocks.set(headers, (byStatus = new Map()));
  let block = byStatus.get(status);
  if (!block) byStatus.set(status, (block = encodeHeaders(status, headers)));
  return block;
}

// ---------------------------------------------------------------------------------------------------------------
// Frames and connections

const FRAME = {
  DATA: 0,
  HEADERS: 1,
  PRIORITY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PUSH_PROMISE: 5,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
  CONTINUATION: 9,
} as const;
const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const;
export const H2_ERROR = {
  NO_ERROR: 0,
  PROTOCOL_ERROR: 1,
  INTERNAL_ERROR: 2,
  FLOW_CONTROL_ERROR: 3,
  STREAM_CLOSED: 5,
  FRAME_SIZE_ERROR: 6,
  REFUSED_STREAM: 7,
  CANCEL: 8,
  COMPRESSION_ERROR: 9,
} as const;

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
const DEFAULT_WINDOW = 65_535;
const MAX_WINDOW = 2 ** 31 - 1;
/** Our receive windows: large, topped up once half is consumed. */
const STREAM_WINDOW = 4 * 1024 * 1024;
const CONNECTION_WINDOW = 16 * 1024 * 1024;
/** The largest frame we accept (SETTINGS_MAX_FRAME_SIZE, announced). */
const MAX_FRAME = 1024 * 1024;
/** The largest header block accepted over CONTINUATION frames (a gRPC call's headers are a few hundred bytes). */
const MAX_HEADER_BLOCK = 256 * 1024;

class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function frameHeader(length: number, type: number, flags: number, streamId: number): Buffer {
  const h = Buffer.allocUnsafe(9);
  h.writeUIntBE(length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(streamId, 5);
  return h;
}

/** What the server hands its user for each request. */
export interface H2Stream {
  readonly id: number;
  /** Request headers (a repeated name keeps its last value). */
  readonly headers: Readonly<Record<string, string>>;
  /** Body data as it arrives, and its end; set these in the `onStream` callback. */
  onData?: (chunk: Buffer) => void;
  onEnd?: () => void;
  /** The peer reset the stream or the connection closed before the answer was sent. */
  onAbort?: () => void;
  /** Whether the stream can still be answered. */
  readonly open: boolean;
  /**
   * The answer, once: headers, then the body if any, then trailers if any (the last frame ends the stream). If
   * the request has not ended by then, the rest of it is refused (RST_STREAM NO_ERROR). Header lists must not be
   * changed afterwards: their encoding is kept for the next answer with the same list.
   */
  respond(answer: {
    status: number;
    headers: readonly (readonly [string, string])[];
    body?: Buffer;
    trailers?: readonly (readonly [string, string])[];
  }): void;
}

interface Outbound {
  buf: Buffer;
  off: number;
  end: boolean;
  trailers?: Buffer;
}

class Stream implements H2Stream {
  onData?: (chunk: Buffer) => void;
  onEnd?: () => void;
  onAbort?: () => void;
  ended = false; // request side
  answered = false;
  done = false; // response fully sent, or reset
  sendWindow: number;
  recvUnacked = 0;
  pending: Outbound | undefined;

  constructor(
    readonly id: number,
    readonly headers: Record<string, string>,
    private readonly conn: Connection,
  ) {
    this.sendWindow = conn.peerInitialWindow;
  }

  get open(): boolean {
    return !this.done && !this.answered && !this.conn.destroyed;
  }

  respond(answer: Parameters<H2Stream["respond"]>[0]): void {
    if (!this.open) return;
    this.answered = true;
    this.conn.answer(this, answer);
  }
}

class Connection {
  destroyed = false;
  peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrame = 16_384;
  private sendWindow = DEFAULT_WINDOW;
  private recvUnacked = 0;
  private readonly streams = new Map<number, Stream>();
  private readonly decoder = new HpackDecoder();
  /** Bytes received but not yet parsed (a frame in parts), and how many a next step needs before parsing again. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private needed = PREFACE.length;
  private prefaceSeen = false;
  private lastStreamId = 0;
  /** A header block in progress (HEADERS without END_HEADERS, then CONTINUATIONs). */
  private continuing: { streamId: number; flags: number; fragments: Buffer[]; bytes: number } | undefined;
  private goingAway = false;
  private corked = false;

  constructor(
    private readonly socket: net.Socket,
    private readonly onStream: (s: H2Stream) => void,
    private readonly onClose: () => void,
  ) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("error", () => this.destroy());
    socket.on("close", () => this.destroy());
    // Our settings: header table 4096 (the default), no push, our frame size and stream window; then the
    // connection window raised to ours.
    const settings = Buffer.alloc(18);
    settings.writeUInt16BE(0x2, 0); // ENABLE_PUSH
    settings.writeUInt32BE(0, 2);
    settings.writeUInt16BE(0x4, 6); // INITIAL_WINDOW_SIZE
    settings.writeUInt32BE(STREAM_WINDOW, 8);
    settings.writeUInt16BE(0x5, 12); // MAX_FRAME_SIZE
    settings.writeUInt32BE(MAX_FRAME, 14);
    this.write(frameHeader(18, FRAME.SETTINGS, 0, 0), settings);
    this.windowUpdate(0, CONNECTION_WINDOW - DEFAULT_WINDOW);
  }

  /** Frames written in one turn of the event loop go out in one write. */
  private write(...parts: Buffer[]): void {
    if (this.destroyed) return;
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        if (!this.socket.destroyed) this.socket.uncork();
      });
    }
    for (const p of parts) this.socket.write(p);
  }

  private windowUpdate(streamId: number, increment: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32BE(increment, 0);
    this.write(frameHeader(4, FRAME.WINDOW_UPDATE, 0, streamId), b);
  }

  private receive(chunk: Buffer): void {
    // A frame arriving in many chunks is joined once, when whole (not once per chunk).
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < this.needed && this.prefaceSeen) return;
    let buf = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    try {
      if (!this.prefaceSeen) {
        const n = Math.min(buf.length, PREFACE.length);
        if (!buf.subarray(0, n).equals(PREFACE.subarray(0, n)))
          throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "no HTTP/2 preface");
        if (buf.length < PREFACE.length) {
          this.keep(buf, PREFACE.length);
          return;
        }
        this.prefaceSeen = true;
        buf = buf.subarray(PREFACE.length);
      }
      let pos = 0;
      this.needed = 9;
      while (buf.length - pos >= 9) {
        const length = buf.readUIntBE(pos, 3);
        if (length > MAX_FRAME)
          throw new ProtocolError(H2_ERROR.FRAME_SIZE_ERROR, "frame larger than announced");
        if (buf.length - pos < 9 + length) {
          this.needed = 9 + length;
          break;
        }
        const type = buf[pos + 3]!;
        const flags = buf[pos + 4]!;
        const streamId = buf.readUInt32BE(pos + 5) & 0x7fffffff;
        const payload = buf.subarray(pos + 9, pos + 9 + length);
        pos += 9 + length;
        this.frame(type, flags, streamId, payload);
        if (this.destroyed) return;
      }
      if (pos < buf.length) this.keep(Buffer.from(buf.subarray(pos)), this.needed); // a copy: the chunk is not kept whole
    } catch (err) {
      const code =
        err instanceof ProtocolError
          ? err.code
          : err instanceof CompressionError
            ? H2_ERROR.COMPRESSION_ERROR
            : H2_ERROR.INTERNAL_ERROR;
      // GOAWAY with the error's code goes out before the connection closes.
      this.goAway(code);
      this.destroy(false);
      const sock = this.socket;
      process.nextTick(() => sock.end());
    }
  }

  private keep(rest: Buffer, needed: number): void {
    this.pending = [rest];
    this.pendingBytes = rest.length;
    this.needed = needed;
  }

  private frame(type: number, flags: number, streamId: number, payload: Buffer): void {
    if (this.continuing && type !== FRAME.CONTINUATION) {
      throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "a header block was interrupted");
    }
    switch (type) {
      case FRAME.DATA:
        this.data(flags, streamId, payload);
        return;
      case FRAME.HEADERS: {
        if (streamId === 0 || streamId % 2 === 0)
          throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "HEADERS on a bad stream id");
        let start = 0;
        let end = payload.length;
        if (flags & FLAG.PADDED) {
          const pad = payload[0] ?? 0;
          start = 1;
          end -= pad;
        }
        if (flags & FLAG.PRIORITY) start += 5;
        if (start > end) throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "bad padding");
        const fragment = payload.subarray(start, end);
        if (flags & FLAG.END_HEADERS) this.headers(streamId, flags, fragment);
        else
          this.continuing = { streamId, flags, fragments: [Buffer.from(fragment)], bytes: fragment.length };
        return;
      }
      case FRAME.CONTINUATION: {
        const c = this.continuing;
        if (!c || c.streamId !== streamId)
          throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "unexpected CONTINUATION");
        c.fragments.push(Buffer.from(payload));
        c.bytes += payload.length;
        if (c.bytes > MAX_HEADER_BLOCK)
          throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "header block larger than accepted");
        if (flags & FLAG.END_HEADERS) {
          this.continuing = undefined;
          this.headers(streamId, c.flags, Buffer.concat(c.fragments));
        }
        return;
      }
      case FRAME.PRIORITY:
        return;
      case FRAME.RST_STREAM: {
        const s = this.streams.get(streamId);
        if (s) {
          s.done = true;
          s.pending = undefined;
          this.streams.delete(streamId);
          s.onAbort?.();
        }
        this.maybeClose();
        return;
      }
      case FRAME.SETTINGS:
        if (streamId !== 0) throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "SETTINGS on a stream");
        if (flags & FLAG.ACK) return;
        if (payload.length % 6) throw new ProtocolError(H2_ERROR.FRAME_SIZE_ERROR, "SETTINGS of a bad size");
        for (let i = 0; i < payload.length; i += 6) {
          const id = payload.readUInt16BE(i);
          const value = payload.readUInt32BE(i + 2);
          if (id === 0x4) {
            if (value > MAX_WINDOW) throw new ProtocolError(H2_ERROR.FLOW_CONTROL_ERROR, "window too large");
            const delta = value - this.peerInitialWindow;
            this.peerInitialWindow = value;
            for (const s of this.streams.values()) s.sendWindow += delta;
          } else if (id === 0x5) {
            if (value < 16_384 || value > 16_777_215)
              throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "bad frame size");
            this.peerMaxFrame = value;
          }
        }
        this.write(frameHeader(0, FRAME.SETTINGS, FLAG.ACK, 0));
        this.flushAll();
        return;
      case FRAME.PING:
        if (payload.length !== 8) throw new ProtocolError(H2_ERROR.FRAME_SIZE_ERROR, "PING of a bad size");
        if (!(flags & FLAG.ACK)) this.write(frameHeader(8, FRAME.PING, FLAG.ACK, 0), Buffer.from(payload));
        return;
      case FRAME.GOAWAY:
        this.goingAway = true;
        this.maybeClose();
        return;
      case FRAME.WINDOW_UPDATE: {
        if (payload.length !== 4)
          throw new ProtocolError(H2_ERROR.FRAME_SIZE_ERROR, "WINDOW_UPDATE of a bad size");
        const inc = payload.readUInt32BE(0) & 0x7fffffff;
        if (streamId === 0) {
          this.sendWindow += inc;
          this.flushAll();
        } else {
          const s = this.streams.get(streamId);
          if (s) {
            s.sendWindow += inc;
            this.flush(s);
          }
        }
        return;
      }
      case FRAME.PUSH_PROMISE:
        throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "a client cannot push");
      default:
        return; // unknown frame types are ignored
    }
  }

  private headers(streamId: number, flags: number, block: Buffer): void {
    const list = this.decoder.decode(block); // always, to keep the table in step
    const existing = this.streams.get(streamId);
    if (existing) {
      // Trailers from the client: the end of its request.
      if (flags & FLAG.END_STREAM) this.endRequest(existing);
      return;
    }
    if (streamId <= this.lastStreamId) return; // a closed stream's headers: ignored
    this.lastStreamId = streamId;
    if (this.goingAway) {
      this.reset(streamId, H2_ERROR.REFUSED_STREAM);
      return;
    }
    const headers: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, v] of list) headers[k] = v;
    const s = new Stream(streamId, headers, this);
    this.streams.set(streamId, s);
    this.onStream(s);
    if (flags & FLAG.END_STREAM) this.endRequest(s);
  }

  private data(flags: number, streamId: number, payload: Buffer): void {
    let start = 0;
    let end = payload.length;
    if (flags & FLAG.PADDED) {
      start = 1;
      end -= payload[0] ?? 0;
      if (start > end) throw new ProtocolError(H2_ERROR.PROTOCOL_ERROR, "bad padding");
    }
    // Flow control counts the whole payload, padding included.
    this.recvUnacked += payload.length;
    if (this.recvUnacked >= CONNECTION_WINDOW / 2) {
      this.windowUpdate(0, this.recvUnacked);
      this.recvUnacked = 0;
    }
    const s = this.streams.get(streamId);
    if (!s || s.ended) return; // a stream we are done with: its data is dropped (the connection window is kept)
    if (end > start) s.onData?.(payload.subarray(start, end));
    if (flags & FLAG.END_STREAM) this.endRequest(s);
    else {
      s.recvUnacked += payload.length;
      if (s.recvUnacked >= STREAM_WINDOW / 2 && !s.done) {
        this.windowUpdate(streamId, s.recvUnacked);
        s.recvUnacked = 0;
      }
    }
  }

  private endRequest(s: Stream): void {
    if (s.ended) return;
    s.ended = true;
    s.onEnd?.();
    if (s.done) this.forget(s);
  }

  answer(s: Stream, a: Parameters<H2Stream["respond"]>[0]): void {
    const body = a.body && a.body.length ? a.body : undefined;
    const trailers = a.trailers ? blockOf(undefined, a.trailers) : undefined;
    const head = blockOf(a.status, a.headers);
    this.headerFrames(s.id, head, !body && !trailers);
    if (body) {
      s.pending = { buf: body, off: 0, end: !trailers, trailers };
      this.flush(s);
    } else if (trailers) this.headerFrames(s.id, trailers, true);
    if (!s.pending) this.sent(s);
  }

  /** A header block as HEADERS (+ CONTINUATIONs), each at most the peer's frame size. */
  private headerFrames(streamId: number, block: Buffer, endStream: boolean): void {
    const max = this.peerMaxFrame;
    let off = 0;
    let first = true;
    do {
      const part = block.subarray(off, off + max);
      off += part.length;
      const last = off >= block.length;
      const type = first ? FRAME.HEADERS : FRAME.CONTINUATION;
      const flags = (last ? FLAG.END_HEADERS : 0) | (first && endStream ? FLAG.END_STREAM : 0);
      this.write(frameHeader(part.length, type, flags, streamId), part);
      first = false;
    } while (off < block.length);
  }

  /** Sends what the windows allow of a stream's pending body; its trailers once the body is out. */
  private flush(s: Stream): void {
    const p = s.pending;
    if (!p || s.done) return;
    while (p.off < p.buf.length) {
      const n = Math.min(p.buf.length - p.off, this.sendWindow, s.sendWindow, this.peerMaxFrame);
      if (n <= 0) return; // wait for WINDOW_UPDATE
      const chunk = p.buf.subarray(p.off, p.off + n);
      p.off += n;
      this.sendWindow -= n;
      s.sendWindow -= n;
      const last = p.off >= p.buf.length;
      this.write(frameHeader(n, FRAME.DATA, last && p.end ? FLAG.END_STREAM : 0, s.id), chunk);
    }
    if (p.trailers) this.headerFrames(s.id, p.trailers, true);
    s.pending = undefined;
    this.sent(s);
  }

  private flushAll(): void {
    for (const s of this.streams.values()) if (s.pending) this.flush(s);
  }

  /** The answer is out: a request still arriving is refused from here on. */
  private sent(s: Stream): void {
    s.done = true;
    if (!s.ended) {
      s.ended = true;
      this.reset(s.id, H2_ERROR.NO_ERROR);
    }
    this.forget(s);
  }

  private forget(s: Stream): void {
    if (s.done && s.ended) this.streams.delete(s.id);
    this.maybeClose();
  }

  private reset(streamId: number, code: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32BE(code, 0);
    this.write(frameHeader(4, FRAME.RST_STREAM, 0, streamId), b);
  }

  goAway(code: number): void {
    if (this.destroyed) return;
    const b = Buffer.allocUnsafe(8);
    b.writeUInt32BE(this.lastStreamId, 0);
    b.writeUInt32BE(code, 4);
    this.write(frameHeader(8, FRAME.GOAWAY, 0, 0), b);
  }

  /** Graceful close: GOAWAY now, the socket once the calls in flight have answered. */
  close(): void {
    if (this.destroyed) return;
    if (!this.goingAway) this.goAway(H2_ERROR.NO_ERROR);
    this.goingAway = true;
    this.maybeClose();
  }

  private maybeClose(): void {
    if (this.goingAway && this.streams.size === 0 && !this.destroyed) {
      this.destroyed = true;
      const sock = this.socket;
      process.nextTick(() => sock.end());
      this.onClose();
    }
  }

  /** Drops the connection and its calls (`hard`: the socket too; else the caller ends it after a last write). */
  destroy(hard = true): void {
    if (this.destroyed && (this.socket.destroyed || !hard)) return;
    const wasDestroyed = this.destroyed;
    this.destroyed = true;
    for (const s of this.streams.values()) {
      s.done = true;
      s.onAbort?.();
    }
    this.streams.clear();
    if (hard) this.socket.destroy();
    if (!wasDestroyed) this.onClose();
  }
}

export interface H2Server {
  port: number;
  /** Stops accepting connections; resolves once every connection's calls in flight have answered and it closed. */
  close(): Promise<void>;
}

/** Serves HTTP/2 on `host:port` (0: a free port); `onStream` gets each request. */
export function serveH2(onStream: (s: H2Stream) => void, host = "127.0.0.1", port = 0): Promise<H2Server> {
  const connections = new Set<Connection>();
  let closing = false;
  let allClosed: (() => void) | undefined;
  const server = net.createServer((socket) => {
    const c = new Connection(socket, onStream, () => {
      connections.delete(c);
      if (closing && connections.size === 0) allClosed?.();
    });
    connections.add(c);
    if (closing) c.close();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      server.on("error", () => undefined);
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : 0,
        close: () =>
          new Promise<void>((done) => {
            closing = true;
            let pending = 2;
            const one = () => --pending === 0 && done();
            allClosed = one;
            server.close(() => one());
            if (connections.size === 0) one();
            else for (const c of [...connections]) c.close();
          }),
      });
    });
  });
}
