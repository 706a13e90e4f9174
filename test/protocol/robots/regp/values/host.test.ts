// Mirror-site and Host values: seeds/003 §3.2.11 and §3.2.13 (`www.example.com`, "a host using the
// conventions of RFC1738"), RFC 1738 §3.1 (host[:port]; a toplabel begins with a letter),
// RFC 1123 §2.1 and RFC 1035 §2.3.4 (labels, lengths), RFC 3986 §3.2.2 (bracketed IPv6).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  formatHost,
  type HostName,
  parseHost,
} from "../../../../../src/protocol/robots/regp/values/host.js";
import { formatIp } from "../../../../../src/protocol/robots/regp/values/ip.js";
import { expectError, expectOk } from "./expect.js";

const RUNS = 500;

const host = (
  h: string,
  kind: HostName["kind"] = "dns",
  port: number | null = null,
  scheme: HostName["scheme"] = null,
): HostName => ({
  scheme,
  kind,
  host: h,
  port,
});

describe("parseHost", () => {
  const CASES: readonly [source: string, text: string, expected: HostName][] = [
    ["seeds/003 §3.2.11 and §3.2.13 example", "www.example.com", host("www.example.com")],
    [
      "DNS names are case-insensitive (RFC 1035 §2.3.3)",
      "WWW.Example.COM",
      host("www.example.com"),
    ],
    ["RFC 1738 §3.1 :port", "www.example.com:8080", host("www.example.com", "dns", 8080)],
    [
      "a scheme in front is kept",
      "http://www.example.com",
      host("www.example.com", "dns", null, "http"),
    ],
    [
      "https and a trailing /",
      "https://www.example.com/",
      host("www.example.com", "dns", null, "https"),
    ],
    [
      "upper-case scheme",
      "HTTPS://www.example.com:443",
      host("www.example.com", "dns", 443, "https"),
    ],
    ["a trailing / without a scheme", "www.example.com/", host("www.example.com")],
    ["RFC 1738 §3.1 IPv4 host", "192.0.2.1", host("192.0.2.1", "ipv4")],
    ["IPv4 with a port", "192.0.2.1:80", host("192.0.2.1", "ipv4", 80)],
    [
      "RFC 3986 §3.2.2 bracketed IPv6, written canonically",
      "[2001:DB8:0::1]",
      host("2001:db8::1", "ipv6"),
    ],
    ["bracketed IPv6 with a port", "[::1]:8080", host("::1", "ipv6", 8080)],
    ["an absolute name's final dot", "example.com.", host("example.com")],
    ["one label", "localhost", host("localhost")],
    ["punycode IDN", "xn--fiqs8s.cn", host("xn--fiqs8s.cn")],
    ["digits and - inside labels", "a-1.b2.example", host("a-1.b2.example")],
    ["a 63-character label", `${"a".repeat(63)}.com`, host(`${"a".repeat(63)}.com`)],
    ["port 65535", "example.com:65535", host("example.com", "dns", 65535)],
  ];
  for (const [source, text, expected] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(expectOk(parseHost(text)), expected);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    ["empty", "", ["empty value"]],
    ["another scheme", "ftp://example.com", ['"ftp"']],
    ["a path", "www.example.com/path", ['"/path"']],
    ["a path after a URL", "https://www.example.com/a", ['"/a"']],
    ["a query", "www.example.com?x", ['"?x"']],
    ["user information", "user@example.com", ['"user@example.com"', "user"]],
    ["port 0", "example.com:0", ['"0"', "1-65535"]],
    ["port 65536", "example.com:65536", ['"65536"']],
    ["an empty port", "example.com:", ["empty value"]],
    ["a port that is not a number", "example.com:http", ['"http"']],
    ["no host before the port", ":80", ["got nothing"]],
    ["IPv6 without brackets", "2001:db8::1", ['"2001:db8::1"', "brackets"]],
    ["an unclosed bracket", "[2001:db8::1", ['"]"']],
    ["text after the bracket", "[::1]x", ['"x"']],
    ["IPv4 in brackets", "[192.0.2.1]", ['"[192.0.2.1]"']],
    ["a label starting with -", "-bad.example.com", ['"-bad"']],
    ["a label ending with -", "bad-.example.com", ['"bad-"']],
    ["an empty label", "a..example.com", ["empty one", '"a..example.com"']],
    ["a 64-character label", `${"a".repeat(64)}.com`, ["64", "63"]],
    ["a name over 253 characters", `${"a.".repeat(127)}com`, ["257", "253"]],
    ["a space", "ex ample.com", ['" "']],
    ["a non-ASCII name", "例子.cn", ['"例"', "punycode"]],
    ["an underscore", "under_score.example.com", ['"_"', '"under_score"']],
    ["a bad IPv4 address", "192.0.2.999", ["999"]],
    ["an all-numeric name with three labels", "1.2.3", ['"1.2.3"']],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text.slice(0, 40))}`, () => {
      expectError(parseHost(text), ...mentions);
    });
  }
});

describe("formatHost", () => {
  const CASES: readonly [text: string, formatted: string][] = [
    ["www.example.com", "www.example.com"],
    ["HTTPS://WWW.Example.com:8443/", "https://www.example.com:8443"],
    ["[2001:DB8:0:0:0:0:0:1]:443", "[2001:db8::1]:443"],
    ["192.0.2.1", "192.0.2.1"],
  ];
  for (const [text, formatted] of CASES) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(formatted)}`, () => {
      assert.equal(formatHost(expectOk(parseHost(text))), formatted);
    });
  }

  const byte = fc.integer({ min: 0, max: 255 });
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
  const topLabel = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/);
  const name: fc.Arbitrary<Pick<HostName, "kind" | "host">> = fc.oneof(
    fc
      .tuple(fc.array(label, { maxLength: 3 }), topLabel)
      .map(([ls, top]) => ({ kind: "dns" as const, host: [...ls, top].join(".") })),
    fc
      .array(byte, { minLength: 4, maxLength: 4 })
      .map((bytes) => ({ kind: "ipv4" as const, host: formatIp({ family: 4, bytes }) })),
    fc
      .array(fc.oneof(fc.constant(0), byte), { minLength: 16, maxLength: 16 })
      .map((bytes) => ({ kind: "ipv6" as const, host: formatIp({ family: 6, bytes }) })),
  );
  const hostName: fc.Arbitrary<HostName> = fc
    .record({
      scheme: fc.constantFrom<HostName["scheme"]>(null, "http", "https"),
      name,
      port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: null }),
    })
    .map(({ scheme, name: n, port }) => ({ scheme, kind: n.kind, host: n.host, port }));

  it("property: parseHost(formatHost(h)) equals h", () => {
    fc.assert(
      fc.property(hostName, (h) => {
        assert.deepEqual(expectOk(parseHost(formatHost(h))), h);
      }),
      { numRuns: RUNS },
    );
  });
});
