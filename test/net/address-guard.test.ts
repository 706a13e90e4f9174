// The SSRF guard's address table: IANA IPv4 and IPv6 Special-Purpose Address Registries
// (RFC 6890), and the error classification of the page fetcher.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LookupAddress } from "node:dns";
import {
  checkAddress,
  guardLookup,
  parseIPv4,
  parseIPv6,
  type Resolver,
} from "../../src/net/address-guard.js";
import { classifyNetworkError } from "../../src/net/http-client.js";

describe("checkAddress", () => {
  const refused: readonly [string, string][] = [
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network"],
    ["10.1.2.3", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "link-local"], // cloud metadata endpoints
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.1", "documentation"],
    ["192.168.1.1", "private"],
    ["198.18.0.1", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["0:0:0:0:0:ffff:a9fe:a9fe", "IPv4-mapped link-local"],
    ["64:ff9b::7f00:1", "NAT64 loopback"],
    ["2002:c0a8:101::1", "6to4 private"],
    ["::127.0.0.1", "IPv4-compatible"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["localhost", "not an IP address"],
    ["", "not an IP address"],
    ["127.1", "not an IP address"],
  ];
  for (const [address, range] of refused) {
    it(`refuses ${address || "(empty)"}: ${range}`, () => {
      const verdict = checkAddress(address);
      assert.equal(verdict.allowed, false);
      assert.ok(!verdict.allowed && verdict.range.includes(range), JSON.stringify(verdict));
    });
  }
  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "100.63.255.255", // just below 100.64.0.0/10
    "100.128.0.0", // just above it
    "172.15.255.255",
    "172.32.0.0",
    "169.253.255.255",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808", // NAT64 of 8.8.8.8
    "2002:808:808::1", // 6to4 of 8.8.8.8
    "2001:4860::1",
  ];
  for (const address of allowed) {
    it(`allows ${address}`, () => {
      assert.deepEqual(checkAddress(address), { allowed: true });
    });
  }
});

describe("address parsing", () => {
  it("IPv4 is four decimal octets without leading zeros", () => {
    assert.equal(parseIPv4("1.2.3.4"), 0x01020304);
    assert.equal(parseIPv4("255.255.255.255"), 0xffffffff);
    for (const bad of ["1.2.3", "1.2.3.4.5", "01.2.3.4", "256.1.1.1", "0x7f.0.0.1", "1.2.3.-4"]) {
      assert.equal(parseIPv4(bad), null, bad);
    }
  });
  it("IPv6 expands ::, embedded dotted quads and drops the zone", () => {
    assert.deepEqual([...(parseIPv6("::1") ?? [])], [...new Array<number>(15).fill(0), 1]);
    assert.deepEqual(parseIPv6("::ffff:1.2.3.4"), parseIPv6("0:0:0:0:0:ffff:102:304"));
    assert.deepEqual(parseIPv6("fe80::1%eth0"), parseIPv6("fe80:0:0:0:0:0:0:1"));
    for (const bad of ["1::2::3", "1:2:3:4:5:6:7:8:9", "12345::", "::1.2.3", "g::1", "1:2"]) {
      assert.equal(parseIPv6(bad), null, bad);
    }
  });
});

describe("guardLookup: the address checked is the address connected to", () => {
  type Answer = { error: NodeJS.ErrnoException | null; address: unknown; family?: number };
  const ask = (resolve: Resolver, all: boolean) =>
    new Promise<Answer>((done) => {
      guardLookup(resolve)("site.example", { all }, (error, address, family) =>
        done({ error, address, ...(family === undefined ? {} : { family }) }),
      );
    });
  const fixed =
    (...addresses: string[]): Resolver =>
    (_host, _options, callback) =>
      callback(
        null,
        addresses.map((address): LookupAddress => ({
          address,
          family: address.includes(":") ? 6 : 4,
        })),
      );

  it("a public answer passes, in the shape net.connect asked for", async () => {
    assert.deepEqual(await ask(fixed("93.184.216.34"), false), {
      error: null,
      address: "93.184.216.34",
      family: 4,
    });
    const all = await ask(fixed("93.184.216.34", "2606:2800:220:1::"), true);
    assert.equal(all.error, null);
    assert.equal((all.address as LookupAddress[]).length, 2);
  });
  it("refused addresses are dropped from a mixed answer", async () => {
    const answer = await ask(fixed("127.0.0.1", "93.184.216.34", "::1"), true);
    assert.deepEqual(answer.address, [{ address: "93.184.216.34", family: 4 }]);
  });
  it("an answer with only refused addresses fails with HEED_BLOCKED_ADDRESS", async () => {
    const answer = await ask(fixed("10.0.0.7", "fd00::7"), true);
    assert.equal(answer.error?.code, "HEED_BLOCKED_ADDRESS");
    assert.match(answer.error?.message ?? "", /site\.example at 10\.0\.0\.7: private/);
  });
  it("DNS rebinding: every lookup is judged afresh, so a name that turns private is refused", async () => {
    let calls = 0;
    const rebinding: Resolver = (host, options, callback) =>
      fixed(calls++ === 0 ? "93.184.216.34" : "127.0.0.1")(host, options, callback);
    assert.equal((await ask(rebinding, false)).error, null);
    assert.equal((await ask(rebinding, false)).error?.code, "HEED_BLOCKED_ADDRESS");
  });
  it("a resolver error passes through", async () => {
    const failing: Resolver = (_host, _options, callback) =>
      callback(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }), []);
    assert.equal((await ask(failing, true)).error?.code, "ENOTFOUND");
  });
});

describe("classifyNetworkError", () => {
  const coded = (code: string) => Object.assign(new Error(code), { code });
  const cases: readonly [string, unknown, string][] = [
    ["the guard's refusal", coded("HEED_BLOCKED_ADDRESS"), "blocked"],
    ["undici connect timeout", coded("UND_ERR_CONNECT_TIMEOUT"), "timeout"],
    ["undici headers timeout", coded("UND_ERR_HEADERS_TIMEOUT"), "timeout"],
    ["undici body timeout", coded("UND_ERR_BODY_TIMEOUT"), "timeout"],
    ["connection refused", coded("ECONNREFUSED"), "refused"],
    ["unknown name", coded("ENOTFOUND"), "dns"],
    ["resolver down", coded("EAI_AGAIN"), "dns"],
    ["reset", coded("ECONNRESET"), "reset"],
    ["undici: other side closed", coded("UND_ERR_SOCKET"), "reset"],
    ["bad certificate", coded("DEPTH_ZERO_SELF_SIGNED_CERT"), "tls"],
    ["wrong name", coded("ERR_TLS_CERT_ALTNAME_INVALID"), "tls"],
    ["not TLS at all", coded("ERR_SSL_WRONG_VERSION_NUMBER"), "tls"],
    ["no route", coded("EHOSTUNREACH"), "other"],
    ["a plain error", new Error("odd"), "other"],
    ["not an error", "odd", "other"],
    ["found in cause", new Error("wrapped", { cause: coded("ECONNREFUSED") }), "refused"],
    [
      "found in AggregateError (happy eyeballs)",
      new AggregateError([coded("ECONNREFUSED"), coded("ECONNREFUSED")]),
      "refused",
    ],
  ];
  for (const [name, error, expected] of cases) {
    it(`${name} → ${expected}`, () => assert.equal(classifyNetworkError(error), expected));
  }
});
