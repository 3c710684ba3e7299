/** The value helpers behind the name, zone-domain and CIDR rules (api/common.ts, api/dns-zone.ts). */
import { cidrHostBitsSet, nameProblem, parseCidr } from "../../api/common";
import { zoneDomainProblem } from "../../api/dns-zone";

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
  ])("%s has host bits set; the range is %s", (s, network) => expect(hostBits(s)).toBe(network));
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
  ])("%j is refused", (s, why) => expect(nameProblem(s)).toMatch(why));
});

describe("zone domains", () => {
  test.each(["internal.example", "corp.internal.", "1.example", "a.b.c.d.example", "xn--bcher-kva.example"])(
    "%s is a zone domain",
    (s) => expect(zoneDomainProblem(s)).toBeUndefined(),
  );
  test.each([
    ["1", /two labels/],
    ["NaN", /two labels/],
    ["localhost", /two labels/],
    ["1.2", /numeric/],
    ["10.example.1", /numeric/],
    ["10.0.0.1", /domain name/],
    ["bad_label.example", /domain name/],
    ["", /domain name/],
  ])("%j is refused", (s, why) => expect(zoneDomainProblem(s)).toMatch(why));
});
