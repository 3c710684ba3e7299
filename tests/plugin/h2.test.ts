/**
 * plugin/h2.ts, the plugin's own HTTP/2 server, below what tests/plugin/grpc.test.ts checks through gRPC clients:
 * HPACK decoding against RFC 7541's examples and every octet through Huffman (nghttp2 encodes, we decode), and
 * frames a client may send that gRPC clients seldom do (PING, CONTINUATION, padding, a bad preface, a header
 * block the table cannot decode), over a raw socket.
 */
import * as http2 from "node:http2";
import * as net from "node:net";
import {
  encodeHeaders,
  HpackDecoder,
  huffmanDecode,
  serveH2,
  type H2Server,
  type H2Stream,
} from "../../plugin/h2";

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex");

describe("HPACK", () => {
  test("RFC 7541 C.4: requests with Huffman strings and the dynamic table, in order", () => {
    const d = new HpackDecoder();
    expect(d.decode(hex("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff"))).toEqual([
      [":method", "GET"],
      [":scheme", "http"],
      [":path", "/"],
      [":authority", "www.example.com"],
    ]);
    expect(d.decode(hex("8286 84be 5886 a8eb 1064 9cbf"))).toEqual([
      [":method", "GET"],
      [":scheme", "http"],
      [":path", "/"],
      [":authority", "www.example.com"],
      ["cache-control", "no-cache"],
    ]);
    expect(d.decode(hex("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"))).toEqual([
      [":method", "GET"],
      [":scheme", "https"],
      [":path", "/index.html"],
      [":authority", "www.example.com"],
      ["custom-key", "custom-value"],
    ]);
  });

  test("RFC 7541 C.3: the same without Huffman", () => {
    const d = new HpackDecoder();
    expect(d.decode(hex("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d"))).toEqual([
      [":method", "GET"],
      [":scheme", "http"],
      [":path", "/"],
      [":authority", "www.example.com"],
    ]);
    expect(d.decode(hex("8286 84be 5808 6e6f 2d63 6163 6865"))).toContainEqual(["cache-control", "no-cache"]);
  });

  test("a table size update evicts; an index past the table, bad padding and EOS are errors", () => {
    const d = new HpackDecoder();
    d.decode(hex("4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf")); // custom-key: custom-value, indexed
    expect(d.decode(hex("be"))).toEqual([["custom-key", "custom-value"]]);
    d.decode(hex("20")); // size 0: the table empties
    expect(() => d.decode(hex("be"))).toThrow(/no header table entry 62/);
    expect(() => new HpackDecoder(4096).decode(hex("3fe21f"))).toThrow(/above the announced limit/); // 4097
    expect(() => huffmanDecode(hex("f1e3c2e5f23a6ba0ab90f4fe"), 0, 12)).toThrow(/padding/); // a 0 in the padding
    expect(() => huffmanDecode(hex("ffffffff"), 0, 4)).toThrow(/EOS|padding/);
    expect(() => new HpackDecoder().decode(hex("41"))).toThrow(/truncated/);
  });

  test("every octet a header value may hold, Huffman-coded by nghttp2, decodes to itself", async () => {
    // A raw server records the client's HEADERS payloads; nghttp2 uses Huffman wherever it is shorter.
    const values: string[] = [];
    for (let b = 0x20; b < 0x100; b++)
      if (b !== 0x7f) values.push(String.fromCharCode(b).repeat(3) + "aeiou0123");
    values.push("\t" + "a".repeat(20));
    const blocks: Buffer[] = [];
    const server = net.createServer((sock) => {
      let buf = Buffer.alloc(0);
      sock.write(Buffer.from("000000040000000000", "hex")); // empty SETTINGS
      sock.on("data", (c: Buffer) => {
        buf = Buffer.concat([buf, c]);
        if (buf.subarray(0, 24).toString("latin1").startsWith("PRI")) buf = buf.subarray(24);
        while (buf.length >= 9 && buf.length >= 9 + buf.readUIntBE(0, 3)) {
          const len = buf.readUIntBE(0, 3);
          if (buf[3] === 1) blocks.push(Buffer.from(buf.subarray(9, 9 + len)));
          buf = buf.subarray(9 + len);
        }
      });
      sock.on("error", () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    const client = http2.connect(`http://127.0.0.1:${port}`);
    client.on("error", () => undefined);
    for (const [i, v] of values.entries()) {
      const req = client.request({
        ":path": `/p${i}`,
        "x-value": Buffer.from(v, "latin1").toString("latin1"),
      });
      req.on("error", () => undefined);
    }
    const deadline = Date.now() + 10_000;
    while (blocks.length < values.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    client.destroy();
    server.close();
    const d = new HpackDecoder();
    const seen = blocks.map((b) => Object.fromEntries(d.decode(b)) as Record<string, string>);
    expect(seen.map((h) => h["x-value"])).toEqual(values);
    expect(seen.map((h) => h[":path"])).toEqual(values.map((_, i) => `/p${i}`));
  });

  test("response headers are literals any decoder reads back", () => {
    const block = encodeHeaders(200, [
      ["content-type", "application/grpc"],
      ["grpc-message", "x".repeat(300)],
    ]);
    expect(new HpackDecoder().decode(block)).toEqual([
      [":status", "200"],
      ["content-type", "application/grpc"],
      ["grpc-message", "x".repeat(300)],
    ]);
    expect(new HpackDecoder().decode(encodeHeaders(415, []))).toEqual([[":status", "415"]]);
  });
});

describe("frames over a raw socket", () => {
  let server: H2Server;
  const streams: H2Stream[] = [];
  beforeAll(async () => {
    server = await serveH2((s) => {
      streams.push(s);
      const body: Buffer[] = [];
      s.onData = (c) => body.push(c);
      s.onEnd = () =>
        s.respond({
          status: 200,
          headers: [["x-path", s.headers[":path"] ?? ""]],
          body: Buffer.concat([Buffer.from("echo:"), ...body]),
          trailers: [["x-done", "1"]],
        });
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const frame = (type: number, flags: number, id: number, payload: Buffer) => {
    const h = Buffer.alloc(9);
    h.writeUIntBE(payload.length, 0, 3);
    h[3] = type;
    h[4] = flags;
    h.writeUInt32BE(id, 5);
    return Buffer.concat([h, payload]);
  };
  const literal = (name: string, value: string) =>
    Buffer.concat([
      Buffer.from([0, name.length]),
      Buffer.from(name),
      Buffer.from([value.length]),
      Buffer.from(value),
    ]);

  /** Sends `bytes` after the preface; collects frames until the socket closes or `until` holds. */
  async function exchange(
    bytes: Buffer,
    until: (frames: { type: number; flags: number; id: number; payload: Buffer }[]) => boolean,
  ) {
    const sock = net.connect(server.port, "127.0.0.1");
    const frames: { type: number; flags: number; id: number; payload: Buffer }[] = [];
    let buf = Buffer.alloc(0);
    await new Promise<void>((resolve) => {
      sock.on("data", (c: Buffer) => {
        buf = Buffer.concat([buf, c]);
        while (buf.length >= 9 && buf.length >= 9 + buf.readUIntBE(0, 3)) {
          const len = buf.readUIntBE(0, 3);
          frames.push({
            type: buf[3]!,
            flags: buf[4]!,
            id: buf.readUInt32BE(5),
            payload: Buffer.from(buf.subarray(9, 9 + len)),
          });
          buf = buf.subarray(9 + len);
        }
        if (until(frames)) resolve();
      });
      sock.on("close", () => resolve());
      sock.on("error", () => resolve());
      sock.write(
        Buffer.concat([
          Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1"),
          frame(4, 0, 0, Buffer.alloc(0)),
          bytes,
        ]),
      );
    });
    sock.destroy();
    return frames;
  }

  test("PING is answered with the same payload; SETTINGS are acknowledged", async () => {
    const frames = await exchange(frame(6, 0, 0, Buffer.from("12345678")), (f) =>
      f.some((x) => x.type === 6),
    );
    expect(frames.find((f) => f.type === 4 && f.flags === 1)).toBeDefined();
    const pong = frames.find((f) => f.type === 6)!;
    expect([pong.flags, pong.payload.toString()]).toEqual([1, "12345678"]);
  });

  test("a header block split over CONTINUATION frames, and padded DATA, make one request", async () => {
    const block = Buffer.concat([
      Buffer.from([0x83, 0x86]),
      literal(":path", "/split/path"),
      literal("te", "trailers"),
    ]);
    const padded = Buffer.concat([Buffer.from([3]), Buffer.from("body"), Buffer.alloc(3)]);
    const frames = await exchange(
      Buffer.concat([
        frame(1, 0, 1, block.subarray(0, 3)), // HEADERS without END_HEADERS
        frame(9, 0, 1, block.subarray(3, 10)),
        frame(9, 4, 1, block.subarray(10)), // END_HEADERS
        frame(0, 0x8 | 0x1, 1, padded), // PADDED, END_STREAM
      ]),
      (f) => f.some((x) => x.type === 1 && x.flags & 1),
    );
    const d = new HpackDecoder();
    const headerFrames = frames.filter((f) => f.type === 1 && f.id === 1);
    expect(d.decode(headerFrames[0]!.payload)).toEqual([
      [":status", "200"],
      ["x-path", "/split/path"],
    ]);
    expect(Buffer.concat(frames.filter((f) => f.type === 0).map((f) => f.payload)).toString()).toBe(
      "echo:body",
    );
    expect(d.decode(headerFrames[1]!.payload)).toEqual([["x-done", "1"]]);
  });

  test("a request arriving a byte at a time is one request", async () => {
    const block = Buffer.concat([Buffer.from([0x83, 0x86]), literal(":path", "/bytes")]);
    const bytes = Buffer.concat([
      Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1"),
      frame(4, 0, 0, Buffer.alloc(0)),
      frame(1, 4, 1, block),
      frame(0, 1, 1, Buffer.from("slow")),
    ]);
    const sock = net.connect(server.port, "127.0.0.1");
    let got = Buffer.alloc(0);
    sock.on("data", (c: Buffer) => (got = Buffer.concat([got, c])));
    await new Promise<void>((r) => sock.once("connect", () => r()));
    for (const b of bytes) {
      sock.write(Buffer.from([b]));
      await new Promise((r) => setImmediate(r));
    }
    const deadline = Date.now() + 5_000;
    while (!got.includes(Buffer.from("echo:slow")) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    sock.destroy();
    expect(got.includes(Buffer.from("echo:slow"))).toBe(true);
  });

  test("a header block over 256 KB in CONTINUATION frames closes the connection (PROTOCOL_ERROR)", async () => {
    const parts = [frame(1, 0, 1, Buffer.from([0x83]))];
    for (let i = 0; i < 20; i++) parts.push(frame(9, 0, 1, Buffer.alloc(16_000, 0x40)));
    const frames = await exchange(Buffer.concat(parts), (f) => f.some((x) => x.type === 7));
    expect(frames.find((f) => f.type === 7)?.payload.readUInt32BE(4)).toBe(1);
  });

  test("a bad preface, an undecodable header block and an interrupted one close the connection with GOAWAY", async () => {
    const code = (frames: { type: number; payload: Buffer }[]) =>
      frames.find((f) => f.type === 7)?.payload.readUInt32BE(4);
    const sock = net.connect(server.port, "127.0.0.1");
    const got: Buffer[] = [];
    await new Promise<void>((resolve) => {
      sock.on("data", (c: Buffer) => got.push(c));
      sock.on("close", () => resolve());
      sock.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    });
    expect(Buffer.concat(got).includes(Buffer.from([0, 0, 8, 7]))).toBe(true); // a GOAWAY frame header

    expect(code(await exchange(frame(1, 4 | 1, 1, hex("ff00")), (f) => f.some((x) => x.type === 7)))).toBe(9);
    expect(
      code(
        await exchange(
          Buffer.concat([frame(1, 0, 1, Buffer.from([0x83])), frame(6, 0, 0, Buffer.alloc(8))]),
          (f) => f.some((x) => x.type === 7),
        ),
      ),
    ).toBe(1);
  });
});
