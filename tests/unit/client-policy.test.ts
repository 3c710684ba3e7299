/**
 * The retry policy as pure functions: which statuses and transport errors are retried for which method,
 * Retry-After parsing and the backoff formula.
 */
import { errors } from "undici";
import {
  backoffDelay,
  classifyTransportError,
  isRetryableFailure,
  isRetryableStatus,
  parseRetryAfter,
  type HttpMethod,
} from "../../client/retry";
import { serverMessageOf } from "../../client/errors";

const sysError = (code: string, message = `connect ${code} 127.0.0.1:1`) =>
  Object.assign(new Error(message), { code, syscall: "connect" });

const METHODS: HttpMethod[] = ["GET", "POST", "PUT", "DELETE"];

describe("isRetryableStatus", () => {
  test.each([
    [429, [true, true, true, true]],
    [502, [true, false, true, true]],
    [503, [true, false, true, true]],
    [504, [true, false, true, true]],
    [500, [false, false, false, false]],
    [404, [false, false, false, false]],
    [409, [false, false, false, false]],
  ])("%i for GET, POST, PUT, DELETE", (status, expected) => {
    expect(METHODS.map((m) => isRetryableStatus(m, status))).toEqual(expected);
  });
});

describe("classifyTransportError", () => {
  test.each([
    ["ECONNREFUSED", sysError("ECONNREFUSED")],
    ["ENOTFOUND", sysError("ENOTFOUND", "getaddrinfo ENOTFOUND privnet.invalid")],
    ["EAI_AGAIN", sysError("EAI_AGAIN", "getaddrinfo EAI_AGAIN privnet.example")],
    ["EHOSTUNREACH", sysError("EHOSTUNREACH")],
    ["UND_ERR_CONNECT_TIMEOUT", new errors.ConnectTimeoutError()],
    [
      "ECONNREFUSED",
      Object.assign(new AggregateError([sysError("ECONNREFUSED"), sysError("ECONNREFUSED")]), {
        code: "ECONNREFUSED",
      }),
    ],
    ["ECONNREFUSED", new TypeError("fetch failed", { cause: sysError("ECONNREFUSED") })],
  ])("not sent, so retried for every method: %s", (code, err) => {
    const f = classifyTransportError(err);
    expect(f).toMatchObject({ code, maybeSent: false, transient: true });
    expect(METHODS.map((m) => isRetryableFailure(m, f))).toEqual([true, true, true, true]);
  });

  test.each([
    ["UND_ERR_SOCKET", new errors.SocketError("other side closed")],
    ["UND_ERR_HEADERS_TIMEOUT", new errors.HeadersTimeoutError()],
    ["UND_ERR_BODY_TIMEOUT", new errors.BodyTimeoutError()],
    ["ECONNRESET", sysError("ECONNRESET", "read ECONNRESET")],
    ["EPIPE", sysError("EPIPE", "write EPIPE")],
    // One address refused, the other reset: the request may have gone out on the second.
    ["ECONNRESET", new AggregateError([sysError("ECONNREFUSED"), sysError("ECONNRESET")])],
  ])("may have been sent, so retried except for POST: %s", (code, err) => {
    const f = classifyTransportError(err);
    expect(f).toMatchObject({ code, maybeSent: true, transient: true });
    expect(METHODS.map((m) => isRetryableFailure(m, f))).toEqual([true, false, true, true]);
  });

  test("local errors are not retried and were not sent", () => {
    const f = classifyTransportError(new errors.InvalidArgumentError("invalid header"));
    expect(f).toMatchObject({ code: "UND_ERR_INVALID_ARG", maybeSent: false, transient: false });
    expect(METHODS.some((m) => isRetryableFailure(m, f))).toBe(false);
  });

  test("unknown errors: possibly sent, not retried", () => {
    const f = classifyTransportError(new Error("something odd"));
    expect(f).toEqual({ code: undefined, detail: "something odd", maybeSent: true, transient: false });
    expect(METHODS.some((m) => isRetryableFailure(m, f))).toBe(false);
  });

  test("an AggregateError with an empty message takes the detail of its first member", () => {
    const f = classifyTransportError(
      new AggregateError([sysError("ECONNREFUSED", "connect ECONNREFUSED ::1:8080")]),
    );
    expect(f.detail).toBe("connect ECONNREFUSED ::1:8080");
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2030, 0, 1);
  test.each([
    ["0", 0],
    ["5", 5000],
    [" 120 ", 120_000],
    [["2", "9"], 2000],
    [new Date(now + 3000).toUTCString(), 3000],
    [new Date(now - 3000).toUTCString(), 0],
    ["Wed, 21 Oct 2015 07:28:00 GMT", 0],
  ] as const)("%j -> %j ms", (value, ms) => {
    expect(parseRetryAfter(value as string | string[], now)).toBe(ms);
  });

  test.each([undefined, "", "soon", "1.5", "-1"])("%j -> undefined", (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe("backoffDelay", () => {
  test("ceiling doubles from the base up to the cap; random() picks within it", () => {
    const o = (r: number) => ({ baseDelayMs: 100, maxDelayMs: 1000, random: () => r });
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, o(1)))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, o(0.25)))).toEqual([25, 50, 100]);
    expect(backoffDelay(3, o(0))).toBe(0);
    // An out-of-range random source cannot exceed the ceiling or go negative.
    expect(backoffDelay(1, o(7))).toBe(100);
    expect(backoffDelay(1, o(-1))).toBe(0);
  });
});

describe("serverMessageOf", () => {
  test.each([
    [422, '{"message":"name: must not be empty","code":422}', "name: must not be empty"],
    [400, '{"message":"","code":400}', 'Bad Request: {"message":"","code":400}'],
    [400, "[1,2]", "Bad Request: [1,2]"],
    [503, "  \n ", "Service Unavailable (empty response body)"],
    [502, "<html><script>x()</script></html>", "Bad Gateway (no readable text in the response body)"],
    [599, "odd", "error: odd"],
  ])("%i %j", (status, body, expected) => {
    expect(serverMessageOf(status, body)).toBe(expected);
  });
});
