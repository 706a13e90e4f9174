// A hostile REGP file, parsed by the fast scan (its line table, scopes compiled at the first
// question), must answer as a policy built from the line reader's full reading answers, and
// as seeds/003 says: unclosed and deeply nested braces, IP lines with odd ranges, a Visit-time
// across midnight, a file cut at 500 KiB inside a brace block or inside a multi-byte
// character, thousands of sequences and Ip lines.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  parseRobots,
  type Robot,
  RobotsPolicy,
  readRobotsText,
} from "../../../../src/protocol/robots/index.js";
import { MAX_ROBOTS_BYTES } from "../../../../src/protocol/robots/limits.js";
import { MAX_BRACE_DEPTH } from "../../../../src/protocol/robots/regp/layout.js";

const HEADER = "Robot-version: 3.0\n\n";
const encode = (text: string) => new TextEncoder().encode(text);

/** The scanned policy and the one built from a full reading, asked the same questions. */
function assertSameAnswers(
  file: string | Uint8Array,
  urls: readonly string[],
  robots: readonly (string | Robot)[],
): RobotsPolicy {
  const scanned = parseRobots(file);
  const read = new RobotsPolicy(readRobotsText(file));
  assert.equal(scanned.dialect, "regp");
  for (const robot of robots) {
    for (const url of urls) {
      const label = `${url} ${JSON.stringify(robot)}`;
      assert.deepEqual(scanned.check(url, robot), read.check(url, robot), label);
    }
  }
  assert.deepEqual(scanned.diagnostics, read.diagnostics);
  assert.deepEqual(scanned.sitemaps, read.sitemaps);
  assert.deepEqual(scanned.extensions, read.extensions);
  assert.equal(scanned.lastModified, read.lastModified);
  assert.equal(scanned.truncated, read.truncated);
  return scanned;
}

describe("a hostile REGP file read by the fast scan", () => {
  it("braces never closed, a `}` that closes nothing, a brace line with a command after it", () => {
    const file = `${HEADER}User-agent: a\nDisallow: /x\n{ Allow: /x/open\nCrawl-delay: 5\n{\nUser-agent: a\nVisit-time: 0800-0900\n}\n}\n}\nDisallow: /y\n{\nAllow: /y/z\n\nUser-agent: *\nDisallow: /\n{ Allow: /pub\n`;
    const p = assertSameAnswers(file, ["/x", "/x/open/a", "/y/z", "/pub/a", "/q"], ["a", "b"]);
    assert.equal(p.check("/x/open/a", "a").plan?.crawlDelay?.value, 5);
    // A block's Allow narrows the block; it is no rule of the sequence (seeds/003 §3.2).
    assert.equal(p.check("/pub/a", "b").allowed, false);
    assert.ok(p.diagnostics.some((d) => d.code === "unbalanced-brace"));
  });

  it("braces nested far past the limit, closed and not", () => {
    const deep = 10_000;
    const open = "{\nAllow: /deep\nCrawl-delay: 1\n".repeat(deep);
    const closed = `${HEADER}User-agent: a\nDisallow: /x\n${open}${"}\n".repeat(deep)}Crawl-delay: 9\n`;
    const p = assertSameAnswers(closed, ["/x", "/y", "/deep"], ["a"]);
    assert.equal(p.check("/y", "a").plan?.crawlDelay?.value, 9);
    assert.equal(p.check("/deep", "a").plan?.crawlDelay?.value, 1);
    assert.equal(p.diagnostics.filter((d) => d.code === "brace-depth").length, 1);
    const unclosed = `${HEADER}User-agent: a\nDisallow: /x\n${open}`;
    assertSameAnswers(unclosed, ["/x", "/y"], ["a"]);
    assert.ok(MAX_BRACE_DEPTH < deep);
  });

  it("IP lines with odd ranges: a range, octets and prefixes out of range, wildcards, mapped IPv6", () => {
    const file = `${HEADER}User-agent: a\nIp-allow: 10.0.0.9-10.0.0.1\nIp-allow: 300.1.1.1\nIp-allow: 10.0.0.0/33\nIp-allow: ::1-10.0.0.1\nIp-allow: 192.168.*.*\nIp-disallow: 192.168.7.*\nIp-allow: -\nIp-allow: ::ffff:10.0.0.0/104\nIp-disallow: 10.0.0.5\nDisallow: /x\n`;
    const robots: Robot[] = [
      "10.0.0.5",
      "10.0.0.3",
      "192.168.1.1",
      "192.168.7.7",
      "::1",
      "8.8.8.8",
    ].map((ip) => ({ agent: "a", ip }));
    const p = assertSameAnswers(file, ["/x", "/y"], [...robots, "a", "b"]);
    assert.equal(p.check("/y", { agent: "a", ip: "192.168.1.1" }).allowed, true);
    assert.equal(p.check("/y", { agent: "a", ip: "192.168.7.7" }).allowed, false);
    // The first line read is an Ip-allow of some addresses: others are refused (§3.2.4).
    assert.equal(p.check("/y", { agent: "a", ip: "8.8.8.8" }).reason, "ip");
  });

  it("a Visit-time across midnight, and a Time-forbidden inside it", () => {
    const file = `${HEADER}User-agent: *\nVisit-time: 22:00-06:00 UT\nTime-forbidden: 01:00-02:00 UT\nDisallow: /x\n`;
    const at = (h: number, m = 0) => Date.UTC(2026, 0, 10, h, m);
    const robots: Robot[] = [23, 0, 1, 3, 6, 12, 21].map((h) => ({ agent: "a", at: at(h, 30) }));
    const p = assertSameAnswers(file, ["/y", "/x"], robots);
    assert.equal(p.check("/y", { agent: "a", at: at(23, 30) }).allowed, true);
    assert.equal(p.check("/y", { agent: "a", at: at(3) }).allowed, true);
    assert.equal(p.check("/y", { agent: "a", at: at(1, 30) }).allowed, false);
    const noon = p.check("/y", { agent: "a", at: at(12) });
    assert.equal(noon.allowed, false);
    assert.equal(noon.next, at(22));
  });

  it("a file cut at 500 KiB inside a brace block", () => {
    const head = `${HEADER}User-agent: a\nDisallow: /x\n{\nAllow: /x/keep\n`;
    const filler = "Crawl-delay: 1\n".repeat(Math.ceil(MAX_ROBOTS_BYTES / 15));
    const file = encode(`${head}${filler}Allow: /x/late\n}\nDisallow: /z\n`);
    assert.ok(file.length > MAX_ROBOTS_BYTES);
    const p = assertSameAnswers(file, ["/x/keep", "/x/late", "/z"], ["a"]);
    assert.equal(p.truncated, true);
    assert.equal(p.check("/x/late", "a").allowed, false);
    assert.equal(p.check("/z", "a").allowed, true);
  });

  it("a file cut at 500 KiB inside a multi-byte character", () => {
    const head = `${HEADER}User-agent: a\nDisallow: /x\n`;
    // Each line is 3-byte characters: the limit falls inside one, whatever the head's length.
    const line = `Sitemap: /${"€".repeat(40)}\n`;
    const lines = Math.ceil(MAX_ROBOTS_BYTES / encode(line).length) + 1;
    const text = `${head}${line.repeat(lines)}Disallow: /late\n`;
    const bytes = encode(text);
    const p = assertSameAnswers(bytes, ["/x", "/late"], ["a"]);
    assert.equal(p.truncated, true);
    assert.ok(p.sitemaps.every((s) => s.url === `/${"€".repeat(40)}`));
  });

  it("thousands of sequences, Ip lines and blocks", () => {
    // Names that contain no other: a robot's token matches every value it contains (§3.2.3).
    const n = 3_000;
    const sequences = Array.from(
      { length: n },
      (_, i) =>
        `User-agent: bot${i}x\nIp-allow: 10.${i >> 8}.${i & 255}.0/24\nDisallow: /p${i}\n{ Allow: /p${i}/open\nCrawl-delay: ${i}\n}\n`,
    ).join("\n");
    const file = `${HEADER}${sequences}\nUser-agent: *\nDisallow: /all\n`;
    const robots: Robot[] = [0, 1, 1500, n - 1].map((i) => ({
      agent: `bot${i}x`,
      ip: `10.${i >> 8}.${i & 255}.7`,
    }));
    const p = assertSameAnswers(
      file,
      ["/p0", `/p${n - 1}`, `/p${n - 1}/open`, "/all"],
      [...robots, { agent: `bot${n - 1}x`, ip: "10.99.0.1" }, "other"],
    );
    const last = p.check(`/p${n - 1}/open`, robots[3] as Robot);
    // The sequence's Disallow refuses; the block its Allow narrows to sets the delay.
    assert.equal(last.allowed, false);
    assert.equal(last.plan?.crawlDelay?.value, n - 1);
    assert.equal(p.check(`/p${n - 1}/x`, robots[3] as Robot).plan?.crawlDelay, null);
  });
});
