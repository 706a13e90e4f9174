// Ip-allow / Ip-disallow values and robot addresses: seeds/003 §3.2.4 (its three examples),
// RFC 4291 §2.2 (IPv6 text forms), RFC 5952 (canonical IPv6 text), CIDR prefixes (DESIGN §4).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  formatIp,
  formatIpPattern,
  type IpAddress,
  type IpPattern,
  ipMatches,
  parseIp,
  parseIpPattern,
} from "../../../../../src/protocol/robots/regp/values/ip.js";
import { expectError, expectOk } from "./expect.js";

const RUNS = 500;

const v4 = (...bytes: number[]): IpAddress => ({ family: 4, bytes });
const v6 = (...bytes: number[]): IpAddress => ({ family: 6, bytes });
const zeros = (n: number) => new Array<number>(n).fill(0);

describe("parseIp: concrete robot addresses", () => {
  const CASES: readonly [source: string, text: string, expected: IpAddress][] = [
    ["seeds/003 §3.2.4 Example 2", "222.69.212.14", v4(222, 69, 212, 14)],
    ["RFC 791 §3.2 range", "0.0.0.0", v4(0, 0, 0, 0)],
    ["RFC 791 §3.2 range", "255.255.255.255", v4(255, 255, 255, 255)],
    ["surrounding space", " 10.0.0.1 ", v4(10, 0, 0, 1)],
    ["RFC 4291 §2.2 loopback", "::1", v6(...zeros(15), 1)],
    ["RFC 4291 §2.2 unspecified", "::", v6(...zeros(16))],
    [
      "RFC 4291 §2.2 form 1",
      "2001:DB8:0:0:8:800:200C:417A",
      v6(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 8, 8, 0, 0x20, 0x0c, 0x41, 0x7a),
    ],
    [
      "RFC 4291 §2.2 form 2",
      "2001:DB8::8:800:200C:417A",
      v6(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 8, 8, 0, 0x20, 0x0c, 0x41, 0x7a),
    ],
    ["RFC 4291 §2.2 form 2", "FF01::101", v6(0xff, 0x01, ...zeros(12), 0x01, 0x01)],
    ["RFC 4291 §2.2 form 3", "::13.1.68.3", v6(...zeros(12), 13, 1, 68, 3)],
    ["RFC 4291 §2.5.5.2 IPv4-mapped", "::ffff:1.2.3.4", v6(...zeros(10), 0xff, 0xff, 1, 2, 3, 4)],
    [
      "RFC 4291 §2.2 form 3, no ::",
      "0:0:0:0:0:FFFF:129.144.52.38",
      v6(...zeros(10), 0xff, 0xff, 129, 144, 52, 38),
    ],
    ["RFC 3986 §3.2.2 brackets", "[2001:db8::1]", v6(0x20, 0x01, 0x0d, 0xb8, ...zeros(11), 1)],
    [
      'RFC 4291 §2.2 "::" for one group',
      "1:2:3:4:5:6:7::",
      v6(0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0),
    ],
  ];
  for (const [source, text, expected] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(expectOk(parseIp(text)), expected);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    ["empty", "", ["empty value"]],
    ["three octets", "1.2.3", ["got 3", '"1.2.3"']],
    ["five octets", "1.2.3.4.5", ["got 5", '"1.2.3.4.5"']],
    ["octet above 255", "1.2.3.256", ["256", "octet 4"]],
    ["leading zero (octal to inet_aton)", "01.2.3.4", ['"01"', "leading zero"]],
    ["a wildcard is not an address", "1.2.3.*", ['"*"', "octet 4"]],
    ["letters", "a.b.c.d", ['"a"', "octet 1"]],
    ["empty octet", "1..3.4", ["octet 2", "got nothing"]],
    ['two "::"', "1::2::3", ['"::"', '"1::2::3"']],
    ["nine groups", "1:2:3:4:5:6:7:8:9", ["got 9", '"1:2:3:4:5:6:7:8:9"']],
    ["seven groups without ::", "1:2:3:4:5:6:7", ["got 7", '"::"']],
    ['"::" standing for nothing', "1:2:3:4:5:6:7:8::", ['"::"', "8 groups"]],
    ["five hex digits", "12345::", ['"12345"']],
    ["zone index", "fe80::1%eth0", ["zone index", '"fe80::1%eth0"']],
    ["not hex", "g::1", ['"g"']],
    ["leading single colon", ":1:2:3:4:5:6:7", ["empty value", '":1:2:3:4:5:6:7"']],
    ["dotted part not last", "::1.2.3.4:5", ['"1.2.3.4"', "only at the end"]],
    ["bad IPv4 tail", "::ffff:1.2.3.999", ["999", '"::ffff:1.2.3.999"']],
    ["IPv4 in brackets", "[1.2.3.4]", ['"[1.2.3.4]"']],
    ["unbalanced bracket", "[::1", ['"[::1"', '"]"']],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text)}`, () => {
      expectError(parseIp(text), ...mentions);
    });
  }
});

describe("parseIpPattern: Ip-allow / Ip-disallow values", () => {
  const CASES: readonly [source: string, text: string, expected: IpPattern][] = [
    ["seeds/003 §3.2.4 Example 3 (any address)", "*", { kind: "any" }],
    ["seeds/003 §3.2.4 Example 1", "222.69.212.*", { kind: "octets", octets: [222, 69, 212, "*"] }],
    [
      "seeds/003 §3.2.4 Example 2, as meant",
      "222.69.*.*",
      { kind: "octets", octets: [222, 69, "*", "*"] },
    ],
    [
      "seeds/003 §3.2.4 Example 2",
      "222.69.212.15",
      { kind: "address", address: v4(222, 69, 212, 15) },
    ],
    [
      'seeds/003 §3.2.4 "each number can be replaced"',
      "*.69.*.14",
      { kind: "octets", octets: ["*", 69, "*", 14] },
    ],
    ["four wildcards", "*.*.*.*", { kind: "octets", octets: ["*", "*", "*", "*"] }],
    ["CIDR, IPv4", "10.0.0.0/8", { kind: "cidr", address: v4(10, 0, 0, 0), prefix: 8 }],
    [
      "CIDR, host bits kept as written",
      "10.1.2.3/8",
      { kind: "cidr", address: v4(10, 1, 2, 3), prefix: 8 },
    ],
    ["CIDR, everything", "0.0.0.0/0", { kind: "cidr", address: v4(0, 0, 0, 0), prefix: 0 }],
    [
      "CIDR, IPv6 (RFC 4291 §2.3)",
      "2001:db8::/32",
      { kind: "cidr", address: v6(0x20, 0x01, 0x0d, 0xb8, ...zeros(12)), prefix: 32 },
    ],
    [
      "CIDR, bracketed IPv6",
      "[2001:db8::]/32",
      { kind: "cidr", address: v6(0x20, 0x01, 0x0d, 0xb8, ...zeros(12)), prefix: 32 },
    ],
    ["IPv6 address", "::1", { kind: "address", address: v6(...zeros(15), 1) }],
  ];
  for (const [source, text, expected] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(expectOk(parseIpPattern(text)), expected);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    // The paper's typesetting turned `222.69.*.*` into `222.69..**`: refused, with the fix named.
    [
      'seeds/003 §3.2.4 Example 2 as printed, "222.69..**"',
      "222.69..**",
      ['"222.69..**"', '".."', '"*"'],
    ],
    [
      'seeds/003 §3.2.4 Example 1 as printed, "222.69.212.**"',
      "222.69.212.**",
      ['"**"', "octet 4"],
    ],
    ["three octets", "222.69.*", ["got 3", '"222.69.*"']],
    ["empty", "", ["empty value"]],
    ["IPv4 prefix too long", "10.0.0.0/33", ['"33"', "0-32"]],
    ["IPv6 prefix too long", "2001:db8::/129", ['"129"', "0-128"]],
    ["missing prefix", "10.0.0.0/", ["empty value"]],
    ["negative prefix", "10.0.0.0/-1", ['"-1"']],
    ["wildcard before a prefix", "10.*.0.0/8", ['"10.*.0.0"', "wildcard"]],
    ["wildcard in IPv6", "2001:db8::*", ['"*"']],
    ["octet too large", "222.69.300.*", ["300", "octet 3"]],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text)}`, () => {
      expectError(parseIpPattern(text), ...mentions);
    });
  }
});

describe("ipMatches", () => {
  const CASES: readonly [source: string, pattern: string, address: string, matches: boolean][] = [
    ["seeds/003 §3.2.4 Example 3", "*", "1.2.3.4", true],
    ["seeds/003 §3.2.4 Example 3", "*", "2001:db8::1", true],
    ["seeds/003 §3.2.4 Example 1", "222.69.212.*", "222.69.212.14", true],
    ["seeds/003 §3.2.4 Example 1", "222.69.212.*", "222.69.213.14", false],
    ["seeds/003 §3.2.4 Example 2", "222.69.*.*", "222.69.1.2", true],
    ["seeds/003 §3.2.4 Example 2", "222.69.*.*", "222.70.1.2", false],
    ["IPv4-mapped robot, wildcard pattern", "222.69.212.*", "::ffff:222.69.212.14", true],
    ["IPv6 robot, IPv4 pattern", "222.69.212.*", "2001:db8::1", false],
    ["exact address", "222.69.212.14", "222.69.212.14", true],
    ["exact address", "222.69.212.14", "222.69.212.15", false],
    ["exact address, IPv4-mapped robot", "222.69.212.14", "::ffff:222.69.212.14", true],
    ["CIDR /8", "10.0.0.0/8", "10.255.1.1", true],
    ["CIDR /8", "10.0.0.0/8", "11.0.0.1", false],
    ["CIDR /8, IPv4-mapped robot", "10.0.0.0/8", "::ffff:10.1.1.1", true],
    ["CIDR, host bits ignored", "10.1.2.3/8", "10.9.9.9", true],
    ["CIDR /23 inside", "192.168.0.0/23", "192.168.1.255", true],
    ["CIDR /23 outside", "192.168.0.0/23", "192.168.2.0", false],
    ["CIDR /0, IPv4", "0.0.0.0/0", "8.8.8.8", true],
    ["CIDR /0, IPv4 pattern and an IPv6 robot", "0.0.0.0/0", "2001:db8::1", false],
    ["CIDR IPv6", "2001:db8::/32", "2001:db8:ffff::1", true],
    ["CIDR IPv6", "2001:db8::/32", "2001:db9::1", false],
    ["CIDR IPv6 and an IPv4 robot", "2001:db8::/32", "1.2.3.4", false],
    ["RFC 4291 §2.5.5.2 mapped prefix and an IPv4 robot", "::ffff:0:0/96", "1.2.3.4", true],
    ["IPv6 spelt two ways", "::1", "0:0:0:0:0:0:0:1", true],
  ];
  for (const [source, pattern, address, matches] of CASES) {
    it(`${source}: ${pattern} ${matches ? "matches" : "does not match"} ${address}`, () => {
      assert.equal(
        ipMatches(expectOk(parseIpPattern(pattern)), expectOk(parseIp(address))),
        matches,
      );
    });
  }

  // seeds/003 §3.2.4: last match wins, and a first `Ip-disallow` that is not `*` implies an
  // `Ip-allow: *` before it. The evaluation belongs to the dialect; this pins that the values
  // support it for the paper's Example 2.
  const EXAMPLE_2: readonly [allow: boolean, pattern: string][] = [
    [true, "*"], // implied
    [false, "222.69.*.*"],
    [true, "222.69.212.14"],
    [true, "222.69.212.15"],
  ];
  const lastMatch = (address: string) => {
    let allowed = true;
    for (const [allow, pattern] of EXAMPLE_2) {
      if (ipMatches(expectOk(parseIpPattern(pattern)), expectOk(parseIp(address)))) allowed = allow;
    }
    return allowed;
  };
  for (const [address, allowed] of [
    ["222.69.212.14", true],
    ["222.69.212.15", true],
    ["222.69.212.16", false],
    ["222.69.1.1", false],
    ["10.0.0.1", true],
  ] as const) {
    it(`seeds/003 §3.2.4 Example 2 as a group: ${address} is ${allowed ? "allowed" : "refused"}`, () => {
      assert.equal(lastMatch(address), allowed);
    });
  }
});

describe("formatIp and formatIpPattern", () => {
  const CASES: readonly [source: string, text: string, formatted: string][] = [
    ["RFC 5952 §4.1 no leading zeros", "2001:0db8::0001", "2001:db8::1"],
    [
      "RFC 5952 §4.2.2 one zero group is not shortened",
      "2001:db8:0:1:1:1:1:1",
      "2001:db8:0:1:1:1:1:1",
    ],
    ["RFC 5952 §4.2.3 the longest run", "2001:0:0:1:0:0:0:1", "2001:0:0:1::1"],
    ["RFC 5952 §4.2.3 the first of equal runs", "2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["RFC 5952 §4.3 lower case", "2001:DB8::ABCD", "2001:db8::abcd"],
    ["RFC 5952 §5 mapped address dotted", "::FFFF:192.0.2.1", "::ffff:192.0.2.1"],
    ["all zeros", "0:0:0:0:0:0:0:0", "::"],
    ["IPv4", "192.0.2.1", "192.0.2.1"],
  ];
  for (const [source, text, formatted] of CASES) {
    it(`${source}: ${text} → ${formatted}`, () => {
      assert.equal(formatIp(expectOk(parseIp(text))), formatted);
    });
  }

  for (const text of [
    "*",
    "222.69.212.*",
    "*.69.*.14",
    "222.69.212.14",
    "10.1.2.3/8",
    "2001:db8::/32",
    "::ffff:10.0.0.0/104",
  ]) {
    it(`writes ${text} back as written`, () => {
      assert.equal(formatIpPattern(expectOk(parseIpPattern(text))), text);
    });
  }

  const byte = fc.integer({ min: 0, max: 255 });
  // Zeros often, so that "::" runs of every length occur.
  const v6byte = fc.oneof(fc.constant(0), byte);
  const address: fc.Arbitrary<IpAddress> = fc.oneof(
    fc.array(byte, { minLength: 4, maxLength: 4 }).map((bytes) => ({ family: 4 as const, bytes })),
    fc
      .array(v6byte, { minLength: 16, maxLength: 16 })
      .map((bytes) => ({ family: 6 as const, bytes })),
    fc
      .array(byte, { minLength: 4, maxLength: 4 })
      .map((b) => ({ family: 6 as const, bytes: [...zeros(10), 0xff, 0xff, ...b] })),
  );
  const pattern: fc.Arbitrary<IpPattern> = fc.oneof(
    fc.constant({ kind: "any" as const }),
    fc
      .array(fc.oneof(byte, fc.constant("*" as const)), { minLength: 4, maxLength: 4 })
      .filter((o) => o.includes("*"))
      .map((octets) => ({ kind: "octets" as const, octets })),
    address.map((a) => ({ kind: "address" as const, address: a })),
    address.chain((a) =>
      fc
        .integer({ min: 0, max: a.family === 4 ? 32 : 128 })
        .map((prefix) => ({ kind: "cidr" as const, address: a, prefix })),
    ),
  );

  it("property: parseIpPattern(formatIpPattern(p)) equals p", () => {
    fc.assert(
      fc.property(pattern, (p) => {
        assert.deepEqual(expectOk(parseIpPattern(formatIpPattern(p))), p);
      }),
      { numRuns: RUNS },
    );
  });

  it("property: parseIp(formatIp(a)) equals a, and an address pattern matches its own address", () => {
    fc.assert(
      fc.property(address, (a) => {
        assert.deepEqual(expectOk(parseIp(formatIp(a))), a);
        assert.equal(ipMatches({ kind: "address", address: a }, a), true);
        assert.equal(
          ipMatches({ kind: "cidr", address: a, prefix: a.family === 4 ? 32 : 128 }, a),
          true,
        );
      }),
      { numRuns: RUNS },
    );
  });
});
