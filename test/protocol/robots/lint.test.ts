// heed lint, rule by rule. Each case says where its truth comes from: seeds/004 (Koster 1996),
// RFC 9309, seeds/003 (REGP), DESIGN §3, or the issue that specified `heed lint`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FICT_ORG } from "../../fixtures/fict-org.js";
import {
  type DialectChoice,
  type LintFinding,
  lintFetchVerdict,
  lintPolicy,
  lintRobots,
  MAX_LINE_LENGTH,
  MAX_ROBOTS_BYTES,
  parseRobots,
  robotsFetchVerdict,
  type Severity,
} from "../../../src/index.js";

type Expected = readonly [code: string, line: number | null, severity: Severity];

interface Case {
  readonly name: string;
  readonly input: string | Uint8Array;
  readonly dialect?: DialectChoice;
  /** Every finding with one of these codes, in order; codes not named here are not checked. */
  readonly expect: readonly Expected[];
  /** Codes that must not appear at all. */
  readonly absent?: readonly string[];
  /** A piece each message of the first expected code must contain. */
  readonly says?: string;
}

const CASES: readonly Case[] = [
  // RFC 9309 §2.1: rules before the first User-agent line belong to no group.
  {
    name: "rules before any User-agent are ignored",
    input: "Disallow: /a\nCrawl-delay: 5\nUser-agent: *\nDisallow: /b\n",
    expect: [
      ["rule-outside-group", 1, "warning"],
      ["rule-outside-group", 2, "warning"],
    ],
  },
  // RFC 9309 §2.2: a path starts with "/" (or "*"); the issue asks for the likely meaning.
  {
    name: "a path without its leading slash",
    input: "User-agent: *\nDisallow: private/\n",
    expect: [["bad-path", 2, "warning"]],
    says: 'did you mean "/private/"?',
  },
  {
    name: "a full URL as a path",
    input: "User-agent: *\nDisallow: https://example.com/private/?a=1\n",
    expect: [["bad-path", 2, "warning"]],
    says: 'did you mean "/private/?a=1"?',
  },
  {
    name: "a URL without its scheme as a path",
    input: "User-agent: *\nDisallow: //www.example.com/x/\n",
    expect: [["bad-path", 2, "warning"]],
    says: '"/x/"',
  },
  {
    name: "a path starting with * is fine under RFC 9309",
    input: "User-agent: *\nDisallow: *.gif$\n",
    expect: [],
    absent: ["bad-path", "wildcard-in-koster"],
  },
  // Keys: keys.ts accepts known misspellings; others are measured against the known keys.
  {
    name: "a misspelling the tokenizer reads",
    input: "User-agent: *\nDissallow: /x\n",
    expect: [["misspelt-key", 2, "warning"]],
    says: '"Disallow"',
  },
  {
    name: "a misspelt User-agent",
    input: "Useragent: *\nDisallow: /x\n",
    expect: [["misspelt-key", 1, "warning"]],
    says: '"User-agent"',
  },
  {
    name: "an unknown key one typo from Disallow",
    input: "User-agent: *\nDisallov: /x\n",
    expect: [["unknown-key", 2, "warning"]],
    says: 'did you mean "Disallow"?',
  },
  {
    name: "an unknown key with swapped letters",
    input: "User-agent: *\nCrawl-dealy: 3\n",
    expect: [["unknown-key", 2, "warning"]],
    says: '"Crawl-delay"',
  },
  {
    name: "an unknown key far from every known key is an extension",
    input: "User-agent: *\nX-Favourite-Colour: blue\n",
    expect: [["extension-key", 2, "info"]],
    absent: ["unknown-key"],
  },
  {
    name: "widely used non-standard keys",
    input: "User-agent: *\nDisallow: /x\nHost: example.com\nClean-param: ref\nNoindex: /y\n",
    expect: [
      ["nonstandard-key", 3, "info"],
      ["nonstandard-key", 4, "info"],
      ["nonstandard-key", 5, "info"],
    ],
  },
  {
    name: "a REGP key outside REGP",
    input: "User-agent: *\nIp-allow: 192.0.2.1\n",
    expect: [["regp-key", 2, "info"]],
  },
  // seeds/003: REGP keys are known under REGP; typos of them are caught.
  {
    name: "REGP keys under REGP",
    input:
      "Robot-version: 3.0\nUser-agent: *\nIp-allow: 192.0.2.1\nTime-forbidden: 01:00-02:00\nIp-dissalow: 198.51.100.1\n",
    expect: [["unknown-key", 5, "warning"]],
    absent: ["regp-key", "extension-key"],
    says: '"Ip-disallow"',
  },
  {
    name: "REGP brace blocks are structure, not errors",
    input:
      "Robot-version: 3.0\nUser-agent: *\nDisallow: /p/\n{\nAllow: /\nCrawl-delay: 1\n}\n{ Allow: /img/\n",
    expect: [],
    absent: ["invalid-line", "unknown-key", "shadowed-rule", "redundant-rule"],
  },
  // seeds/004 §3.2.2: the first match wins, so an earlier prefix hides a later line.
  {
    name: "Koster: a later Allow under Disallow: / never decides",
    input: "User-agent: *\nDisallow: /\nAllow: /public/\n",
    dialect: "koster1996",
    expect: [["shadowed-rule", 3, "warning"]],
    says: "line 2",
  },
  {
    name: "RFC 9309: the same file is fine (the longest match wins)",
    input: "User-agent: *\nDisallow: /\nAllow: /public/\n",
    dialect: "rfc9309",
    expect: [],
    absent: ["shadowed-rule", "redundant-rule"],
  },
  {
    name: "Koster: a later Disallow under a shorter one is redundant",
    input: "User-agent: *\nDisallow: /a\nDisallow: /a/b\n",
    dialect: "koster1996",
    expect: [["redundant-rule", 3, "info"]],
  },
  {
    name: "Koster: percent-encoding does not hide a prefix (seeds/004 §3.2.2 table)",
    input: "User-agent: *\nDisallow: /~joe\nAllow: /%7Ejoe/public\n",
    dialect: "koster1996",
    expect: [["shadowed-rule", 3, "warning"]],
  },
  // RFC 9309 §2.2.2: equal patterns; a duplicate never decides.
  {
    name: "an exact duplicate rule",
    input: "User-agent: *\nDisallow: /dup\nDisallow: /dup\n",
    expect: [["duplicate-rule", 3, "warning"]],
  },
  // RFC 9309 §2.2.2: on a tie Allow wins, so the Disallow never decides, wherever it stands.
  {
    name: "Allow and Disallow with the same pattern",
    input: "User-agent: *\nDisallow: /x\nAllow: /x\n",
    dialect: "rfc9309",
    expect: [["conflicting-rules", 2, "warning"]],
    says: "Allow wins a tie",
  },
  {
    name: "Koster: with the same pattern the first line wins",
    input: "User-agent: *\nDisallow: /x\nAllow: /x\n",
    dialect: "koster1996",
    expect: [["conflicting-rules", 3, "warning"]],
  },
  {
    name: "RFC 9309: /a* matches what /a matches and is longer",
    input: "User-agent: *\nAllow: /a\nDisallow: /a*\n",
    dialect: "rfc9309",
    expect: [["conflicting-rules", 2, "warning"]],
  },
  {
    name: "RFC 9309: an anchored pattern is not the same as a prefix",
    input: "User-agent: *\nAllow: /a$\nDisallow: /a\n",
    dialect: "rfc9309",
    expect: [],
    absent: ["conflicting-rules", "shadowed-rule", "redundant-rule", "duplicate-rule"],
  },
  // RFC 9309 §2.2.1: a rule hidden in one merged set but live in another still decides.
  {
    name: "RFC 9309: a rule live for one of its robots is kept",
    input: "User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: a\nAllow: /x\n",
    dialect: "rfc9309",
    expect: [["duplicate-group", 5, "warning"]],
    absent: ["conflicting-rules"],
  },
  {
    name: "RFC 9309: a rule hidden for every robot of its group is reported",
    input: "User-agent: a\nDisallow: /x\n\nUser-agent: a\nAllow: /x\n",
    dialect: "rfc9309",
    expect: [["conflicting-rules", 2, "warning"]],
  },
  // seeds/003 §3.2.5: the last match wins.
  {
    name: "REGP: an earlier line under a later Allow: / never decides",
    input: "Robot-version: 3.0\nUser-agent: *\nDisallow: /b\nAllow: /\n",
    expect: [["shadowed-rule", 3, "warning"]],
    says: "line 4",
  },
  // Duplicate groups: RFC 9309 §2.2.1 merges them; seeds/004 §3.2.1 obeys the first.
  {
    name: "RFC 9309: the same User-agent in two groups",
    input: "User-agent: bot\nDisallow: /a\n\nUser-agent: BOT\nDisallow: /b\n",
    dialect: "rfc9309",
    expect: [["duplicate-group", 4, "warning"]],
    says: "merges",
  },
  {
    name: "Koster: the same User-agent in two groups",
    input: "User-agent: bot\nDisallow: /a\n\nUser-agent: bot\nDisallow: /b\n",
    dialect: "koster1996",
    expect: [["duplicate-group", 4, "warning"]],
    says: "only the first record counts",
  },
  {
    name: "Koster: a second * record is dead",
    input: "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
    dialect: "koster1996",
    expect: [["duplicate-group", 4, "warning"]],
  },
  {
    name: "Koster: an earlier value containing a later one takes all its robots",
    input: "User-agent: Googlebot-News\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n",
    dialect: "koster1996",
    expect: [["shadowed-group", 4, "warning"]],
    says: "line 1",
  },
  {
    name: "RFC 9309: tokens are compared whole, nothing is shadowed",
    input: "User-agent: Googlebot-News\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n",
    dialect: "rfc9309",
    expect: [],
    absent: ["shadowed-group", "duplicate-group"],
  },
  {
    name: "REGP: a * group first takes every robot",
    input: "Robot-version: 3.0\nUser-agent: *\nDisallow: /a\n\nUser-agent: bot\nDisallow: /b\n",
    expect: [["shadowed-group", 5, "warning"]],
  },
  {
    name: "the same User-agent twice in one group",
    input: "User-agent: bot\nUser-agent: Bot\nDisallow: /\n",
    expect: [["duplicate-agent", 2, "info"]],
    absent: ["duplicate-group"],
  },
  // The parser's own diagnostics, at lint's severities.
  {
    name: "a line without a colon",
    input: "User-agent: *\nDisallow /x\n",
    expect: [["missing-colon", 2, "warning"]],
  },
  {
    name: "a line that is not key: value",
    input: "User-agent: *\nDisallow: /x\nhello world\n",
    expect: [["invalid-line", 3, "warning"]],
  },
  {
    name: "a line longer than the limit",
    input: `User-agent: *\nDisallow: /${"a".repeat(MAX_LINE_LENGTH)}\n`,
    expect: [["line-too-long", 2, "error"]],
  },
  // RFC 9309 §2.5: at least 500 KiB are read; the rest is cut.
  {
    name: "a file over the size limit",
    input: `User-agent: *\n${"Disallow: /abcdefghijklmnopqrstuvwxyz\n".repeat(Math.ceil(MAX_ROBOTS_BYTES / 36) + 10)}`,
    expect: [["size-limit", null, "error"]],
  },
  // RFC 9309 §2.3: the file is UTF-8.
  {
    name: "bytes that are not UTF-8",
    input: new Uint8Array([...new TextEncoder().encode("User-agent: *\nDisallow: /a"), 0xff, 0x0a]),
    expect: [["invalid-utf8", null, "warning"]],
  },
  {
    name: "a byte order mark",
    input: new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("User-agent: *\n")]),
    expect: [["bom", null, "info"]],
  },
  {
    name: "a UTF-16 file",
    input: new Uint8Array([0xff, 0xfe, 0x55, 0, 0x73, 0, 0x3a, 0, 0x0a, 0]),
    expect: [["utf-16", null, "error"]],
    absent: ["invalid-utf8", "invalid-line"],
  },
  {
    name: "an HTML page served as robots.txt",
    input:
      '<!DOCTYPE html>\n<html lang="en">\n<head><title>Not found</title></head>\n<body>Sorry: no such page</body>\n</html>\n',
    expect: [["html-page", 1, "error"]],
    absent: ["invalid-line", "extension-key", "unknown-key", "no-groups"],
    says: "HTML page",
  },
  // DESIGN §3: MJ12bot is matched whole by heed, cut to MJ by Google.
  {
    name: "a User-agent that is not a product token",
    input: "User-agent: MJ12bot\nDisallow: /\n",
    dialect: "rfc9309",
    expect: [["agent-not-product-token", 1, "warning"]],
    says: '"MJ"',
  },
  {
    name: "a User-agent written as a header is read as its token",
    input: "User-agent: Googlebot/2.1\nUser-agent: Bing_bot-x\nDisallow: /\n",
    dialect: "rfc9309",
    expect: [],
    absent: ["agent-not-product-token"],
  },
  {
    name: "a User-agent without a value",
    input: "User-agent:\nDisallow: /\n",
    expect: [["empty-agent", 1, "warning"]],
  },
  {
    name: "a Crawl-delay that is not a number",
    input: "User-agent: *\nCrawl-delay: soon\nDisallow: /\n",
    expect: [["bad-crawl-delay", 2, "warning"]],
  },
  // RFC 9309 §2.2.3: "$" is special at the end only.
  {
    name: "a $ inside a pattern",
    input: "User-agent: *\nDisallow: /a$b\nDisallow: /c$\n",
    expect: [["dollar-mid-pattern", 2, "warning"]],
  },
  // seeds/004 §3.2.2: every octet is compared; there are no wildcards.
  {
    name: "wildcards under Koster 1996",
    input: "User-agent: *\nDisallow: /*.gif\nDisallow: /a$\nDisallow: /plain\n",
    dialect: "koster1996",
    expect: [
      ["wildcard-in-koster", 2, "warning"],
      ["wildcard-in-koster", 3, "warning"],
    ],
  },
  {
    name: "an empty file",
    input: "",
    expect: [["empty-file", null, "info"]],
  },
  {
    name: "a file of comments",
    input: "# nothing here\n\n",
    expect: [["empty-file", null, "info"]],
    absent: ["no-groups"],
  },
  {
    name: "a file without groups",
    input: "Sitemap: https://example.com/sitemap.xml\n",
    expect: [["no-groups", null, "info"]],
  },
  {
    name: "a group without rules",
    input: "User-agent: *\nDisallow: /a\n\nUser-agent: bot\nCrawl-delay: 2\n",
    expect: [["empty-group", 4, "info"]],
    says: "do not fall back",
  },
  {
    name: "an empty Disallow is a rule (it allows all)",
    input: "User-agent: bot\nDisallow:\n",
    expect: [],
    absent: ["empty-group"],
  },
  // seeds/004 §3.3: a record ends at a blank line.
  {
    name: "a blank line between User-agent and its rules",
    input: "User-agent: *\n\n\nDisallow: /\n",
    expect: [["blank-line-in-group", 2, "info"]],
  },
  {
    name: "a blank line between groups is not inside one",
    input: "User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n",
    expect: [],
    absent: ["blank-line-in-group"],
  },
  // DESIGN §3: Robot-version 1.0 robots ignore Allow.
  {
    name: "Allow under Robot-version 1.0",
    input: "Robot-version: 1.0\nUser-agent: *\nAllow: /a\nDisallow: /\n",
    expect: [["allow-ignored", 3, "warning"]],
    absent: ["shadowed-rule"],
  },
  {
    name: "Allow under Robot-version 2.0 is fine",
    input: "Robot-version: 2.0\nUser-agent: *\nAllow: /a\nDisallow: /\n",
    expect: [],
    absent: ["allow-ignored"],
  },
  {
    name: "an unknown Robot-version",
    input: "Robot-version: 9.1\nUser-agent: *\nDisallow: /\n",
    expect: [["unknown-robot-version", 1, "warning"]],
  },
  {
    name: "a Robot-version after the first group",
    input: "User-agent: *\nDisallow: /\nRobot-version: 2.0\n",
    expect: [["late-robot-version", 3, "warning"]],
  },
  // seeds/004 §3.2.2: /robots.txt is always allowed.
  {
    name: "a rule about /robots.txt",
    input: "User-agent: *\nDisallow: /robots.txt\n",
    expect: [["robots-txt-rule", 2, "info"]],
  },
  // RFC 9309 §2.2.4: a sitemap is a fully qualified URL.
  {
    name: "a relative Sitemap",
    input: "User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n",
    expect: [["bad-sitemap", 3, "warning"]],
  },
];

function pick(findings: readonly LintFinding[], codes: ReadonlySet<string>): Expected[] {
  return findings.filter((f) => codes.has(f.code)).map((f) => [f.code, f.line, f.severity]);
}

describe("heed lint rules", () => {
  for (const c of CASES) {
    it(c.name, () => {
      const report = lintRobots(c.input, c.dialect === undefined ? {} : { dialect: c.dialect });
      const codes = new Set(c.expect.map(([code]) => code));
      assert.deepEqual(pick(report.findings, codes), c.expect);
      for (const code of c.absent ?? []) {
        assert.equal(
          report.findings.find((f) => f.code === code),
          undefined,
          `unexpected ${code}`,
        );
      }
      if (c.says !== undefined) {
        const first = report.findings.find((f) => f.code === c.expect[0]?.[0]);
        assert.ok(first?.message.includes(c.says), `${first?.message} should say ${c.says}`);
      }
      for (const f of report.findings) {
        assert.match(f.code, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        assert.ok(!/[\r\n]/.test(f.message), "one line");
      }
    });
  }
});

// seeds/004 §4: the draft's own example is a well-formed file.
describe("heed lint on clean files", () => {
  for (const dialect of ["koster1996", "rfc9309"] as const) {
    it(`seeds/004 §4 fict.org has no findings under ${dialect}`, () => {
      const report = lintRobots(FICT_ORG, { dialect });
      assert.deepEqual(report.findings, []);
      assert.equal(report.dialect, dialect);
    });
  }
});

describe("heed lint report", () => {
  const input =
    "Disallow: /early\nUser-agent: *\nDisallow: private\n<!DOCTYPE html>\nDisallow: /x\nDisallow: /x\n";
  const report = lintRobots(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(input)]));

  it("sorts by line, file-wide findings first", () => {
    const lines = report.findings.map((f) => f.line ?? 0);
    assert.deepEqual(
      lines,
      [...lines].sort((a, b) => a - b),
    );
    assert.equal(report.findings[0]?.line, null);
  });

  it("counts each severity", () => {
    const count = (s: Severity) => report.findings.filter((f) => f.severity === s).length;
    assert.deepEqual(
      [report.errors, report.warnings, report.infos],
      [count("error"), count("warning"), count("info")],
    );
    assert.equal(report.errors, 1);
  });

  it("keeps one finding per line and code: the parser's bad-path is replaced, not repeated", () => {
    const policy = parseRobots("User-agent: *\nDisallow: private/\n");
    assert.ok(policy.diagnostics.some((d) => d.code === "bad-path"));
    const findings = lintPolicy(policy).findings.filter((f) => f.code === "bad-path");
    assert.equal(findings.length, 1);
    assert.match(findings[0]?.message ?? "", /did you mean/);
  });

  it("includes every parser diagnostic", () => {
    const text = "Disallow: /x\nUser-agent: *\nDisallow nocolon\nCrawl-delay: x\nfoo\n";
    const policy = parseRobots(text);
    const findings = lintPolicy(policy).findings;
    for (const d of policy.diagnostics) {
      assert.ok(
        findings.some((f) => f.code === d.code && f.line === d.line),
        `${d.code} at ${d.line}`,
      );
    }
  });
});

// DESIGN §3, fetching robots.txt: the status decides for the whole site.
describe("heed lint fetch answers", () => {
  const cases: readonly [number, string | null, Severity | null][] = [
    [200, null, null],
    [404, "no-robots-txt", "info"],
    [410, "no-robots-txt", "info"],
    [401, "site-disallowed", "warning"],
    [403, "site-disallowed", "warning"],
    [500, "unreachable", "error"],
    [503, "unreachable", "error"],
  ];
  for (const [status, code, severity] of cases) {
    it(`${status} gives ${code ?? "no finding"}`, () => {
      const verdict = robotsFetchVerdict({ status });
      const finding = lintFetchVerdict(verdict);
      assert.deepEqual(
        finding === null ? null : [finding.code, finding.line, finding.severity],
        code === null ? null : [code, null, severity],
      );
      if (code !== null) {
        const report = lintRobots("", { verdict });
        assert.deepEqual(
          report.findings.map((f) => f.code),
          [code],
        );
      }
    });
  }
});

describe("heed lint on large files", () => {
  it("checks 20,000 rules in one group in linear time", { timeout: 10_000 }, () => {
    const rules = Array.from({ length: 20_000 }, (_, i) => `Disallow: /d${i}/x`).join("\n");
    const report = lintRobots(`User-agent: *\nDisallow: /d1\n${rules}\n`, {
      dialect: "koster1996",
    });
    // /d1 hides /d1/x, /d10/x … /d19999/x: 1 + 10 + 100 + 1000 + 10000 lines.
    assert.equal(report.findings.filter((f) => f.code === "redundant-rule").length, 11_111);
  });

  it("compares thousands of User-agent lines without quadratic time", { timeout: 10_000 }, () => {
    const groups = Array.from({ length: 5_000 }, (_, i) => `User-agent: bot${i}x\nDisallow: /`);
    const report = lintRobots(groups.join("\n\n"), { dialect: "koster1996" });
    assert.equal(report.errors, 0);
  });
});
