// Fuzzing robots.txt in each dialect (RFC 9309, Koster 1996, REGP), its REGP values and the
// Mobile-agent-server record: no exception escapes the readers or the queries, and what comes
// out is bounded by what went in (groups, rules and findings by lines; a decision's line is a
// line of the file). Runs: kit.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  DIALECTS,
  lintRobots,
  parseMobileAgentServers,
  parseRobots,
  readRobotsText,
  readSimplifiedUrl,
} from "../../src/protocol/robots/index.js";
import { parseAcceptList } from "../../src/protocol/robots/regp/values/accept-list.js";
import { parseCookie } from "../../src/protocol/robots/regp/values/cookie.js";
import { parseSeconds } from "../../src/protocol/robots/regp/values/delay.js";
import { parseHost } from "../../src/protocol/robots/regp/values/host.js";
import { parseIp, parseIpPattern } from "../../src/protocol/robots/regp/values/ip.js";
import { parsePathValue, readPathValue } from "../../src/protocol/robots/regp/values/path-value.js";
import { parseRate } from "../../src/protocol/robots/regp/values/rate.js";
import { parseDateTime, parseTimeSpan } from "../../src/protocol/robots/regp/values/rfc822-time.js";
import { parseSitemapUrl } from "../../src/protocol/robots/regp/values/sitemap-url.js";
import { HANG_GUARD_MS, anyText, fuzz, lineCount, pieceOf, someUrl, textOf } from "./kit.js";

const KEYS = [
  "User-agent:",
  "user-agent :",
  "Useragent:",
  "Allow:",
  "Disallow:",
  "Disallow",
  "Crawl-delay:",
  "Sitemap:",
  "Host:",
  "Robot-version: 3.0",
  "Robot-version: 1.0",
  "Robot-version: 2.0",
  "Last-modified:",
  "Ip-allow:",
  "Ip-disallow:",
  "Ip-delay:",
  "Ip-rate:",
  "Request-rate:",
  "Visit-time:",
  "Time-forbidden:",
  "Language:",
  "Encoding:",
  "Charset:",
  "Cookie:",
  "Mirror-site:",
  "Index-page:",
  "Change-frequency:",
  "Change-time:",
  "Mobile-agent-server:",
  "Noindex:",
  "{",
  "}",
  "{ ",
  "#",
  "##",
];
const VALUES = [
  " *",
  " /",
  " /a",
  " /a*b$",
  " /%2F",
  " /%7e",
  " /$",
  " *$",
  " googlebot",
  " MJ12bot",
  " barbarbot*",
  " 10.0.0.*",
  " 192.168.0.0/16",
  " ::1",
  " 1.5",
  " 3/10s",
  " 1/5m",
  " 01:00 +0800-06:00 +0800",
  " 30 Oct 2014 04:31:17 UT",
  " en;q=0.5, *",
  " a=b; c=d",
  " http://mirror.example/",
  " /blog/ atp://127.0.0.1:27434",
  " / none",
  " <http://s.example/sm.xml> <type>data</type>",
  "",
];
const line = fc
  .tuple(pieceOf(KEYS, 6), pieceOf(VALUES, 12), fc.constantFrom("", " # c", " ## c"))
  .map(([k, v, c]) => k + v + c);
const robotsTxt = textOf(line);
const agent = fc.oneof(
  fc.constantFrom("googlebot", "barbarbot", "MJ", "heed", "*", "Fig Tree/0.1", ""),
  anyText(12),
);
const robot = fc.record({
  agent,
  ip: fc.oneof(fc.constantFrom("10.0.0.7", "::1", "::ffff:10.0.0.1", "x"), fc.ipV4(), fc.ipV6()),
  at: fc.integer({ min: 0, max: 4_102_444_800_000 }),
});

describe("fuzz: robots.txt", () => {
  for (const dialect of [...DIALECTS, "auto" as const]) {
    it(
      `${dialect}: parsed, queried and linted without an exception; output bounded by lines`,
      { timeout: HANG_GUARD_MS },
      () => {
        fuzz(
          fc.tuple(robotsTxt, fc.array(fc.tuple(someUrl, robot), { maxLength: 4 })),
          ([text, queries]) => {
            const lines = lineCount(text);
            const policy = parseRobots(text, { dialect, origin: "https://site.example" });
            for (const [url, who] of queries) {
              const decision = policy.check(url, who);
              assert.equal(typeof decision.allowed, "boolean");
              if (decision.line !== null) assert.ok(decision.line >= 1 && decision.line <= lines);
              policy.crawlDelay(who.agent);
            }
            const report = lintRobots(text, { dialect });
            assert.ok(
              report.findings.length <= 8 * lines + 16,
              `${report.findings.length} findings for ${lines} lines`,
            );
            parseMobileAgentServers(text).resolve(queries[0]?.[0] ?? "https://site.example/");
          },
        );
      },
    );
  }

  it(
    "bytes (not UTF-8, BOMs, NULs) are read without an exception",
    { timeout: HANG_GUARD_MS },
    () => {
      fuzz(fc.uint8Array({ maxLength: 2_000 }), (bytes) => {
        const text = readRobotsText(bytes);
        assert.ok(text.lines.length <= lineCount(new TextDecoder().decode(bytes)) + 1);
        parseRobots(bytes).check("https://site.example/x", "heed");
      });
    },
  );

  it(
    "REGP values: every value reader answers ok or an error, never throws",
    { timeout: HANG_GUARD_MS },
    () => {
      const value = fc.oneof(
        pieceOf(
          VALUES.map((v) => v.trim()),
          30,
        ),
        anyText(60),
      );
      fuzz(value, (v) => {
        for (const result of [
          parseSeconds(v),
          parseRate(v),
          parseHost(v),
          parseIp(v),
          parseIpPattern(v),
          parseCookie(v),
          parseAcceptList(v, "language"),
          parseAcceptList(v, "charset"),
          parsePathValue(v),
          readPathValue(v),
          parseDateTime(v),
          parseTimeSpan(v),
          parseSitemapUrl(v),
        ]) {
          assert.equal(typeof result, "object");
          assert.notEqual(result, null);
        }
        readSimplifiedUrl(v);
      });
    },
  );
});
