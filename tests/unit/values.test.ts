/**
 * The value helpers behind the name, zone-domain and CIDR advisories (api/common.ts, api/dns-zone.ts): what they
 * find is reported at preview, not refused (docs/validation.md).
 */
import {
  canonicalCidr,
  cidrHostBitsSet,
  isDomain,
  nameProblem,
  parseCidr,
  visibleText,
} from "../../api/common";
import { zoneDomainOddity } from "../../api/dns-zone";

const hostBits = (s: string) => {
  const c = parseCidr(s);
  if (!c) throw new Error(`not a CIDR: ${s}`);
  return cidrHostBitsSet(c);
};

describe("canonical CIDR ranges", () => {
  test.each([
    "0.0.0.0/0",
    "10.0.0.0/8",
    "10.1.2.3/32",
    "192.168.4.0/22",
    "::/0",
    "fd00::/8",
    "fd00:1::/64",
    "fd00:1:0::/64",
    "2001:db8::1:0/112",
    "::ffff:10.0.0.0/104",
    "::1/128",
  ])("%s is canonical", (s) => expect(hostBits(s)).toBeUndefined());

  test.each([
    ["10.0.0.0/0", "0.0.0.0/0"],
    ["10.0.0.1/8", "10.0.0.0/8"],
    ["192.168.5.0/22", "192.168.4.0/22"],
    ["255.255.255.255/31", "255.255.255.254/31"],
    ["fd00::1/64", "fd00::/64"],
    ["fd00:1:2:3:4:5:6:7/48", "fd00:1:2::/48"],
    ["2001:db8::1:0/96", "2001:db8::/96"],
    ["::ffff:10.0.0.1/104", "::ffff:a00:0/104"],
    ["1:0:0:1:0:0:0:1/64", "1:0:0:1::/64"],
  ])("%s has host bits set; the range is %s", (s, network) => {
    expect(hostBits(s)).toBe(network);
    expect(canonicalCidr(s)).toBe(network);
  });

  test("canonicalCidr leaves canonical ranges and other text as they are", () => {
    for (const s of ["10.0.0.0/8", "fd00:1::/64", "not a range", "10.0.0.1"])
      expect(canonicalCidr(s)).toBe(s);
  });
});

describe("names", () => {
  test.each(["web servers", "Böse Gruppe", "خوادم", "サーバー", "a", "👩‍💻 devs", "x-y_z.1"])(
    "%j is a name",
    (s) => expect(nameProblem(s)).toBeUndefined(),
  );
  test.each([
    [" All", /white space/],
    ["All\u00a0", /white space/],
    ["a\u0000b", /U\+0000 at position 1/],
    ["a\u001bb", /U\+001B/],
    ["a\u007fb", /U\+007F/],
    ["a\u0085b", /U\+0085/],
    ["a\u202eb", /U\+202E/],
    ["\u2067x", /U\+2067 at position 0/],
    ["a\u200bb", /U\+200B/],
    ["a\ufeffb", /U\+FEFF/],
    ["line\u2028sep", /U\+2028/],
  ])("%j is reported", (s, why) => expect(nameProblem(s)).toMatch(why));
});

describe("zone domains", () => {
  test.each(["internal.example", "corp.internal.", "1.example", "a.b.c.d.example", "xn--bcher-kva.example"])(
    "%s is an ordinary zone domain",
    (s) => expect(zoneDomainOddity(s)).toBeUndefined(),
  );
  test.each([
    ["1", /one label/],
    ["NaN", /one label/],
    ["localhost", /one label/],
    ["1.2", /numeric/],
    ["10.example.1", /numeric/],
  ])("%j is reported", (s, why) => expect(zoneDomainOddity(s)).toMatch(why));
});

describe("domain names", () => {
  test.each(["example.com", "*.example.com", "intranet", "example.org."])("%s is a domain", (s) =>
    expect(isDomain(s, true)).toBe(true),
  );
  test("internationalized names are domains where the service takes them as written", () => {
    for (const s of ["bücher.example", "*.サーバー.example", "παράδειγμα.δοκιμή"]) {
      expect(isDomain(s, true, true)).toBe(true);
      expect(isDomain(s, true)).toBe(false);
    }
  });
  test.each(["", "a b.example", "bad_label.example", "10.0.0.1", "-x.example", "x-.example"])(
    "%j is not a domain, in any script",
    (s) => expect(isDomain(s, true, true)).toBe(false),
  );
});

describe("visible text", () => {
  test("controls, bidi and invisible characters print escaped; line feeds, tabs and scripts as they are", () => {
    expect(visibleText("a\u001b[2Jb")).toBe("a\\u001b[2Jb");
    expect(visibleText("admins\u202e")).toBe("admins\\u202e");
    expect(visibleText("\ufeffx\u200by")).toBe("\\ufeffx\\u200by");
    expect(visibleText("line\nnext\tcol Böse サーバー")).toBe("line\nnext\tcol Böse サーバー");
  });
  test("inside a string literal the escaped text means the same", () => {
    for (const s of ["a\u202eb", "x\u2066y\u2069", "\u0085z", "e\u001bf"]) {
      expect(JSON.parse(visibleText(JSON.stringify(s)))).toBe(s);
      const written = visibleText(JSON.stringify(s));
      expect([...written].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) < 0x7f)).toBe(true);
    }
  });
});
