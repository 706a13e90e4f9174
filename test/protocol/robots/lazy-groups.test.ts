// parseRobots reads a group's rules when they are first asked for (groups.ts, scan.ts), and
// finds the header's Robot-version in the same pass (VersionSniff in line-reader.ts). Whatever
// order groups are asked in, each reads the rules the line reader finds for it, numbered as in
// the file; the version is the one sniffRobotVersion finds in the whole text. Then files made
// to break both: odd line ends, NUL, BOMs, huge groups, a cut inside a line or a character,
// thousands of User-agent lines.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { buildGroups, type Group } from "../../../src/protocol/robots/groups.js";
import {
  MAX_AGENTS_PER_GROUP,
  MAX_LINE_LENGTH,
  MAX_ROBOTS_BYTES,
} from "../../../src/protocol/robots/limits.js";
import {
  decode,
  readRobotsText,
  sniffRobotVersion,
} from "../../../src/protocol/robots/line-reader.js";
import { parseRobots } from "../../../src/protocol/robots/policy.js";

const rulesOf = (group: Group): unknown[] =>
  group.rules.map((r) => [r.allow, r.source, r.line, r.text]);

/** Each group's rules as the line reader and buildGroups read them, in file order. */
function readInFull(input: string | Uint8Array): unknown[][] {
  const lines = readRobotsText(input, { commentStyle: "hash" }).lines;
  return buildGroups(lines, { wildcards: true, ignoreCase: false }).groups.map(rulesOf);
}

/** Each group's rules from parseRobots, its groups asked for in the order `order` gives. */
function readLazily(input: string | Uint8Array, order: (n: number) => number[]): unknown[][] {
  const groups = parseRobots(input, { dialect: "rfc9309" }).groups;
  const rules: unknown[][] = new Array<unknown[]>(groups.length);
  for (const i of order(groups.length)) rules[i] = rulesOf(groups[i] as Group);
  return rules;
}

const backwards = (n: number): number[] => Array.from({ length: n }, (_, i) => n - 1 - i);
const oddsFirst = (n: number): number[] => {
  const all = Array.from({ length: n }, (_, i) => i);
  return [...all.filter((i) => i % 2 === 1), ...all.filter((i) => i % 2 === 0)];
};

function assertSameRules(input: string | Uint8Array, label: string): void {
  const full = readInFull(input);
  assert.deepEqual(readLazily(input, backwards), full, `${label}, last group first`);
  assert.deepEqual(readLazily(input, oddsFirst), full, `${label}, odd groups first`);
}

describe("groups read their rules when asked for", () => {
  const PIECES = [
    "User-agent: a\n",
    "User-agent: *\n",
    "useragent: b\n",
    "Allow: /a\n",
    "Disallow: /b\n",
    "Disallow: \n",
    "Disallow: nope\n",
    "Dissallow: /c\n",
    "Disallow /d\n",
    "Allow: /e # c\n",
    "Sitemap: /s\n",
    "Crawl-delay: 2\n",
    "Host: h\n",
    "# comment\n",
    "\n",
    "\r\n",
    "\r",
    "\u2028",
    "\0",
    "\ufeff",
    " ",
    "Disallow: /x",
  ];
  it("in any order, the rules the line reader finds for each group (random files)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }), (pieces) => {
        const text = pieces.join("");
        assertSameRules(text, JSON.stringify(text));
      }),
      { numRuns: 1500 },
    );
  });

  it("merged groups asked out of order still decide by file order (RFC 9309 §2.2.1)", () => {
    // Two `a` groups merged, with an equal rule in each: the earlier line is the one named.
    const text =
      "User-agent: a\nDisallow: /x\n\nUser-agent: *\nAllow: /\n\nUser-agent: a\nDisallow: /x\nAllow: /x/y\n";
    const fresh = parseRobots(text);
    const early = fresh.check("/x/z", "a");
    const policy = parseRobots(text);
    // The last group reads its rules first, then `*`'s, then the first group's.
    assert.equal(policy.groups[2]?.rules.length, 2);
    assert.equal(policy.check("/x/z", "other").allowed, true);
    const late = policy.check("/x/z", "a");
    assert.deepEqual(late, early);
    assert.equal(late.line, 2);
    assert.equal(policy.check("/x/y", "a").line, 9);
  });

  it("a file with no rule asked about keeps no rule table", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /a\nDisallow: /b\n");
    const group = policy.groups[0] as Group;
    assert.equal(group.table.size, 0);
    assert.equal(group.to - group.from, 2);
    assert.equal(group.table.size, 2);
  });
});

describe("the Robot-version found as the scan goes is sniffRobotVersion's", () => {
  const PIECES = [
    "Robot-version: 2.0",
    "robot version: 1.0",
    "ROBOT_VERSION:3.0",
    "robotversion :\t2.0 x",
    "Robot-version: 3.0",
    "robot  version: 3.0",
    "\v",
    "Robot-version:\u00a02.0",
    "User-agent: *",
    // Cut short and run on: the sniff knows `User-agent:` as written without its pattern.
    "User-agent",
    "User-agent:x",
    ":",
    "user agent: x",
    "useragents: y",
    "Allow: /",
    "ip-allow: 1.2.3.4",
    "IP-Disallow: 1.2.3.4",
    "Disallow /x",
    "Dissallow: /x",
    " ",
    "\t",
    "#",
    "\n",
    "\r\n",
    "\r",
    "\u2028",
    "\u2029",
    "\u0131",
  ];
  it("random headers", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }), (pieces) => {
        const text = pieces.join("");
        const want = sniffRobotVersion(decode(text, MAX_ROBOTS_BYTES).text);
        const policy = parseRobots(text);
        assert.equal(policy.robotVersion, want, JSON.stringify(text));
        assert.equal(parseRobots(text, { dialect: "koster1996" }).robotVersion, want);
      }),
      { numRuns: 3000 },
    );
  });

  it("a header that makes the file REGP leaves the scan to the REGP reading", () => {
    const policy = parseRobots("Robot-version: 3.0\nUser-agent: *\nDisallow: /A\n");
    assert.equal(policy.dialect, "regp");
    // seeds/003 §3.2.5: REGP values are case-insensitive.
    assert.equal(policy.check("/a", "bot").allowed, false);
  });

  it("a version after the header is not the file's", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /A\nRobot-version: 3.0\n");
    assert.equal(policy.robotVersion, null);
    assert.equal(policy.dialect, "rfc9309");
  });

  it("a line break the patterns see but the lines do not (U+2028) is sniffed as before", () => {
    const text = "# x\u2028User-agent: *\nRobot-version: 1.0\nDisallow: /a\n";
    assert.equal(parseRobots(text).robotVersion, sniffRobotVersion(text));
    assert.equal(parseRobots(text).robotVersion, null);
  });
});

describe("hostile files, read lazily", () => {
  it("odd line ends: CR alone, LF CR, CRLF, mixed, none at the end", () => {
    const text =
      "User-agent: a\rDisallow: /1\n\rAllow: /2\r\n\r\nUser-agent: b\r\nDisallow: /3\rDisallow: /4";
    assertSameRules(text, "line ends");
    const policy = parseRobots(text);
    assert.equal(policy.check("/4", "b").line, 8);
    assert.equal(policy.check("/1", "a").line, 2);
  });

  it("NUL bytes and BOMs at the start, inside lines and in the middle", () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode(
        "User-agent: *\nDisallow: /a\0b\n\0Disallow: /c\n\ufeffDisallow: /d\nAllow: /\ufeffe\n",
      ),
    ]);
    assertSameRules(bytes, "NUL and BOM");
    const policy = parseRobots(bytes);
    assert.equal(policy.check("/a%00b", "x").allowed, false);
    assert.equal(policy.check("/d", "x").line, 4);
  });

  it("one group of 25,000 rules (400 KB), asked after a small one", () => {
    const rules = Array.from({ length: 25_000 }, (_, i) => `Disallow: /p${i}\n`).join("");
    const text = `User-agent: small\nDisallow: /s\n\nUser-agent: *\n${rules}`;
    const policy = parseRobots(text);
    assert.equal(policy.check("/s", "small").line, 2);
    assert.equal(policy.check("/p24999", "big").line, 25_004);
    assert.equal(policy.groups[1]?.to, 25_001);
    assertSameRules(text, "huge group");
  });

  it("thousands of User-agent lines: those past the limit are dropped, rules still read", () => {
    const agents = Array.from({ length: 3_000 }, (_, i) => `User-agent: bot${i}\n`).join("");
    const text = `${agents}Disallow: /x\nUser-agent: *\nDisallow: /y\n`;
    const policy = parseRobots(text);
    assert.equal(policy.groups[0]?.agents.length, MAX_AGENTS_PER_GROUP);
    assert.equal(policy.check("/x", "bot5").line, 3_001);
    // A robot named only past the limit falls to `*`.
    assert.equal(policy.check("/x", "bot2999").allowed, true);
    assert.equal(policy.check("/y", "bot2999").line, 3_003);
    assertSameRules(text, "many agents");
  });

  it("a file over 500 KiB cut inside a line and inside a multi-byte character", () => {
    const head = "User-agent: *\nDisallow: /first\n";
    for (const fill of ["a", "é", "😀"]) {
      let body = head;
      let i = 0;
      while (new TextEncoder().encode(body).length < MAX_ROBOTS_BYTES + 100) {
        body += `Disallow: /${fill.repeat(40)}${i++}\n`;
      }
      const bytes = new TextEncoder().encode(body);
      // Cut one byte past the limit, inside a line, then ask: whole lines within the limit only.
      for (const cut of [bytes.subarray(0, MAX_ROBOTS_BYTES + 1), bytes]) {
        const policy = parseRobots(cut);
        assert.equal(policy.truncated, true);
        const group = policy.groups[0] as Group;
        const last = group.rules[group.rules.length - 1];
        assert.ok(last !== undefined && /^Disallow: \/\S+\d$/u.test(last.text), fill);
        assert.equal(policy.check("/first", "x").line, 2);
        assertSameRules(cut, `cut ${fill}`);
      }
    }
  });

  it("a rule line over the length limit inside a group read later", () => {
    const long = `Disallow: /${"z".repeat(MAX_LINE_LENGTH + 5)}`;
    const text = `User-agent: a\nAllow: /a\nUser-agent: b\n${long}\nAllow: /q\n`;
    assertSameRules(text, "long line");
    const policy = parseRobots(text);
    assert.equal(policy.check("/q", "b").line, 5);
    assert.equal(policy.check(`/${"z".repeat(MAX_LINE_LENGTH)}`, "b").line, 4);
  });
});
