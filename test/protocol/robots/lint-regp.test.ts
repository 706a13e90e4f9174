// heed lint on REGP files (robots.txt 3.0, seeds/003 §3 and its Appendix), rule by rule. Each
// case names the clause it checks. Files start with a header of three lines (HEAD), so the
// first line of a body is line 4.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import {
  type DialectChoice,
  type LintFinding,
  lintRobots,
  type Severity,
} from "../../../src/index.js";
import { covers } from "../../../src/protocol/robots/lint/regp.js";
import { parseIpPattern } from "../../../src/protocol/robots/regp/values/ip.js";

const FIXTURES = new URL("../../../../test/fixtures/regp/", import.meta.url);
const HEAD = "Robot-version: 3.0\nLast-modified: 30 Oct 2014 04:31:17 UT\n\n";

type Expected = readonly [code: string, line: number | null, severity: Severity];

interface Case {
  /** The clause of seeds/003 (or DESIGN) the case checks. */
  readonly clause: string;
  readonly name: string;
  /** The body after HEAD, unless `whole` gives the whole file. */
  readonly body?: string;
  readonly whole?: string;
  readonly dialect?: DialectChoice;
  /** Every finding with one of these codes, in order; other codes are not checked. */
  readonly expect: readonly Expected[];
  /** Codes that must not appear at all. */
  readonly absent?: readonly string[];
  /** A piece the message of the first expected finding must contain. */
  readonly says?: string;
}

const CASES: readonly Case[] = [
  // --- Structure: brace lines (Table 2, Appendix `innerrule`) ---
  {
    clause: "§3.2 Table 2",
    name: "brace lines are structure, not invalid lines or parts of keys",
    body: "User-agent: *\nDisallow: /p/\n{\nAllow: /p/open/\nCrawl-delay: 1\n}\n{ Allow: /img/\nCrawl-delay: 2\n}\n",
    expect: [],
    absent: ["invalid-line", "unknown-key", "extension-key", "unbalanced-brace"],
  },
  {
    clause: "§3.2",
    name: "a block's User-agent narrows the block; it is not a second group",
    body: "User-agent: infoseeker\nUser-agent: wiseRobot\nAllow: /info\n{\nUser-agent: infoseeker\nAllow: /info/hot\nCrawl-delay: 5\n}\n",
    expect: [],
    absent: ["duplicate-group", "shadowed-group", "duplicate-agent", "empty-group"],
  },
  {
    clause: "§3.2 (brace lines appear in pairs)",
    name: "a { never closed",
    body: "User-agent: *\nDisallow: /a\n{\nAllow: /a/b\nCrawl-delay: 3\n",
    expect: [["unbalanced-brace", 6, "error"]],
  },
  {
    clause: "§3.2 (brace lines appear in pairs)",
    name: "a } that closes no {",
    body: "User-agent: *\nDisallow: /a\n}\n",
    expect: [["unbalanced-brace", 6, "error"]],
  },
  {
    clause: "§3.2 (nested blocks); DESIGN §4",
    name: "blocks nested too deep",
    body: `User-agent: *\nDisallow: /a\n${"{\n".repeat(17)}Crawl-delay: 1\n${"}\n".repeat(17)}`,
    expect: [["brace-depth", 22, "error"]],
  },
  {
    clause: "§3.2 (brace lines within a command content segment; Appendix globalrecord)",
    name: "a block in the global section",
    body: "User-agent: *\nDisallow: /a\n\nSitemap: http://example.com/s.xml\n{\nAllow: /x\nCrawl-delay: 1\n}\n",
    expect: [["block-outside-sequence", 8, "warning"]],
  },
  {
    clause: "§3.2 (the commands in brace lines describe the commands in detail)",
    name: "a block with nothing but its target",
    body: "User-agent: *\nDisallow: /a\n{\nUser-agent: bot\nAllow: /b\n}\n",
    expect: [["empty-block", 6, "info"]],
  },
  // --- The header (§3.2.1, §3.2.2, Appendix `head`) ---
  {
    clause: "§3.2.1, §3.2.2",
    name: "the paper's header, then a blank line, is in place",
    body: "User-agent: *\nDisallow: /a\n",
    expect: [],
    absent: ["header-out-of-place", "missing-blank-line", "misplaced-command", "duplicate-header"],
  },
  {
    clause: "Appendix (robotstxt = *blankcomment head …)",
    name: "comment lines before the header are allowed",
    whole:
      "## robots.txt of example.com\n\nRobot-version: 3.0\nLast-modified: 30 Oct 2014 04:31:17 UT\n\nUser-agent: *\nDisallow: /a\n",
    expect: [],
    absent: ["header-out-of-place"],
  },
  {
    clause: '§3.2.1 ("written in the first line")',
    name: "Last-modified before Robot-version",
    whole:
      "Last-modified: 30 Oct 2014 04:31:17 UT\nRobot-version: 3.0\n\nUser-agent: *\nDisallow: /a\n",
    expect: [
      ["header-out-of-place", 1, "warning"],
      ["header-out-of-place", 2, "warning"],
    ],
  },
  {
    clause: '§3.2.2 ("written in the second line"), Appendix head',
    name: "a blank line between Robot-version and Last-modified",
    whole:
      "Robot-version: 3.0\n\nLast-modified: 30 Oct 2014 04:31:17 UT\n\nUser-agent: *\nDisallow: /a\n",
    expect: [["header-out-of-place", 3, "warning"]],
    says: "line after Robot-version at line 1",
  },
  {
    clause: "§3.2.2, Appendix head",
    name: "Last-modified standing alone after the sequences",
    whole:
      "Robot-version: 3.0\n\nUser-agent: *\nDisallow: /a\n\nLast-modified: 30 Oct 2014 04:31:17 UT\n",
    expect: [["header-out-of-place", 6, "warning"]],
  },
  {
    clause: "§3.2 (the protocol header)",
    name: "a header line inside a sequence",
    body: "User-agent: *\nDisallow: /a\nLast-modified: 1 Nov 2014 00:00 UT\n",
    expect: [["header-out-of-place", 6, "warning"]],
  },
  {
    clause: "§3.2 (the header consists of two command lines)",
    name: "Robot-version twice",
    whole: "Robot-version: 3.0\nRobot-version: 3.0\n\nUser-agent: *\nDisallow: /a\n",
    expect: [["duplicate-header", 2, "warning"]],
    says: "line 1",
  },
  {
    clause:
      '§3.2.1 ("Each robots.txt supporting our protocol should begin with Robot-version: 3.0")',
    name: "no Robot-version, read as REGP on request",
    whole: "User-agent: *\nDisallow: /a\n",
    dialect: "regp",
    expect: [["missing-robot-version", null, "warning"]],
  },
  {
    clause: "§3.2 (sections separated by a blank line), Appendix head 1*commentblank record",
    name: "the first sequence right under the header",
    whole: "Robot-version: 3.0\nUser-agent: *\nDisallow: /a\n",
    expect: [["missing-blank-line", 2, "warning"]],
  },
  {
    clause: "§3.2.6 (Crawl-delay in the command content segments)",
    name: "Crawl-delay in the header",
    whole:
      "Robot-version: 3.0\nLast-modified: 30 Oct 2014 04:31:17 UT\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /a\n",
    expect: [["misplaced-command", 3, "warning"]],
    says: "global command for every robot",
  },
  {
    clause: "§3.2.7 (Request-rate in the command content segments)",
    name: "Request-rate in the header, then a sequence without a blank line",
    whole: "Robot-version: 3.0\nRequest-rate: 500/h\nUser-agent: *\nDisallow: /a\n",
    expect: [
      ["misplaced-command", 2, "warning"],
      ["missing-blank-line", 3, "warning"],
    ],
  },
  {
    clause: "§3.2.2 (RFC 822 date-time)",
    name: "Last-modified without a zone is read as UT",
    whole:
      "Robot-version: 3.0\nLast-modified: 30 Oct 2014 04:31:17\n\nUser-agent: *\nDisallow: /a\n",
    expect: [["last-modified-no-zone", 2, "info"]],
    says: "read as UT",
  },
  {
    clause: "§3.2.2 Examples 1-3",
    name: "the paper's three Last-modified forms",
    whole:
      "Robot-version: 3.0\nLast-modified: Thu, 30 Oct 2014 04:31 UT\n\nUser-agent: *\nDisallow: /a\n\nUser-agent: b\nLast-modified: 30 Oct 2014 12:31 +0800\n",
    expect: [["header-out-of-place", 8, "warning"]],
    absent: ["last-modified-no-zone", "bad-value"],
  },
  {
    clause: "§3.2.2 (RFC 822 date-time)",
    name: "an unreadable Last-modified says why",
    whole:
      "Robot-version: 3.0\nLast-modified: 30 Octember 2014 04:31 UT\n\nUser-agent: *\nDisallow: /a\n",
    expect: [["bad-value", 2, "warning"]],
    says: "month name",
  },
  // --- Values a field parser cannot read ---
  {
    clause: "§3.2.6 (an integer or a decimal, in seconds)",
    name: "a Crawl-delay that is not a number says why",
    body: "User-agent: *\nCrawl-delay: soon\nDisallow: /a\n",
    expect: [["bad-value", 5, "warning"]],
    says: "expected a number of seconds",
  },
  {
    clause: "§3.2.7 (n/[k](s|m|h))",
    name: "a Request-rate without its unit",
    body: "User-agent: *\nRequest-rate: 500\nDisallow: /a\n",
    expect: [["bad-value", 5, "warning"]],
  },
  {
    clause: "§3.2.5 (paths begin with /)",
    name: "a path without its slash gets a suggestion, not a second finding",
    body: "User-agent: *\nDisallow: private/\n",
    expect: [["bad-path", 5, "warning"]],
    absent: ["bad-value"],
    says: '"/private/"',
  },
  {
    clause: "§3.2.5 (rpath), Appendix",
    name: "a full URL as a path is read as its path",
    body: "User-agent: *\nDisallow: http://example.com/private/\n",
    expect: [["url-as-path", 5, "info"]],
    absent: ["bad-path", "bad-value"],
    says: '"/private/"',
  },
  {
    clause: '§3.2.5 ("/robots.txt is always allowed access and should not appear")',
    name: "a rule about /robots.txt",
    body: "User-agent: *\nDisallow: /robots.txt\n",
    expect: [["robots-txt-rule", 5, "info"]],
    says: "docs/regp.md#paths",
  },
  // --- Ip-allow and Ip-disallow (§3.2.4) ---
  {
    clause: "§3.2.4 (four decimal numbers 0-255, or *)",
    name: "an Ip line with a bad address says why",
    body: "User-agent: *\nIp-disallow: 222.69.300.1\nDisallow: /a\n",
    expect: [["bad-ip", 5, "warning"]],
    absent: ["bad-value"],
    says: "0-255",
  },
  {
    clause: "§3.2.4 (an IP-only segment implies User-agent: *)",
    name: "a bad Ip line alone opens the sequence to every robot",
    body: "Ip-disallow: 10.0.0.x\nDisallow: /\n",
    expect: [["bad-ip", 4, "warning"]],
    says: "every robot",
  },
  {
    clause: "§3.2.4 Example 2",
    name: "the paper's IP token group is fine",
    body: "User-agent: *\nIp-disallow: 222.69.*.*\nIp-allow: 222.69.212.14\nIp-allow: 222.69.212.15\nDisallow: /a\n",
    expect: [],
    absent: ["bad-ip", "shadowed-ip", "redundant-ip"],
  },
  {
    clause: "§3.2.4 (the last matching line is the perfect match)",
    name: "an Ip-allow under a later Ip-disallow: *",
    body: "User-agent: *\nIp-allow: 222.69.212.14\nIp-disallow: *\nDisallow: /a\n",
    expect: [["shadowed-ip", 5, "warning"]],
    says: "line 6",
  },
  {
    clause: "§3.2.4 (last match); DESIGN §4 (CIDR)",
    name: "a later prefix or wildcard covering an earlier address",
    body: "User-agent: *\nIp-disallow: 10.1.2.3\nIp-allow: 10.1.0.0/16\nIp-disallow: 192.0.2.7\nIp-disallow: 192.0.*.*\nDisallow: /a\n",
    expect: [
      ["shadowed-ip", 5, "warning"],
      ["redundant-ip", 7, "info"],
    ],
  },
  {
    clause: "§3.2.4 (last match)",
    name: "a wider line before a narrower one is fine",
    body: "User-agent: *\nIp-disallow: *\nIp-allow: 10.0.0.0/8\nIp-disallow: 10.0.0.1\nDisallow: /a\n",
    expect: [],
    absent: ["shadowed-ip", "redundant-ip"],
  },
  // --- Path groups: the last match wins (§3.2.5) ---
  {
    clause: "§3.2.5 Example 3 (Table 8)",
    name: "the paper's path group is fine",
    body: "User-agent: *\nDisallow: /news/\nDisallow: /info\nAllow: /info/open\n",
    expect: [],
    absent: ["shadowed-rule", "redundant-rule", "duplicate-rule", "conflicting-rules"],
  },
  {
    clause: "§3.2.5 (the last matching line is the perfect match)",
    name: "a narrower Allow under a later, wider Disallow",
    body: "User-agent: *\nAllow: /info/open\nDisallow: /info\n",
    expect: [["shadowed-rule", 5, "warning"]],
    says: "line 6",
  },
  {
    clause: "§3.2.5 (last match; * matches any sequence)",
    name: "every rule before a Disallow: *",
    body: "User-agent: *\nAllow: /a\nDisallow: /b\nDisallow: *\n",
    expect: [
      ["shadowed-rule", 5, "warning"],
      ["redundant-rule", 6, "info"],
    ],
  },
  {
    clause: "§3.2.5 (last match)",
    name: "the same rule twice, and the same path both ways",
    body: "User-agent: *\nDisallow: /a\nDisallow: /a\nAllow: /b\nDisallow: /b\n",
    expect: [
      ["duplicate-rule", 5, "warning"],
      ["conflicting-rules", 7, "warning"],
    ],
  },
  {
    clause: "§3.2.5 (values are case-insensitive)",
    name: "paths that differ only in case are the same path",
    body: "User-agent: *\nDisallow: /Data\nAllow: /data\n",
    expect: [["conflicting-rules", 5, "warning"]],
  },
  {
    clause: "§3.2 (Allow and Disallow in a block's target describe other paths); DESIGN §4",
    name: "a block's target paths follow the last match too",
    body: "User-agent: *\nDisallow: /a\n{\nAllow: /html/x\nAllow: /html/\nCrawl-delay: 1\n}\n",
    expect: [["redundant-rule", 7, "info"]],
    says: "block at line 6",
  },
  {
    clause: "§3.2 (the global command section); DESIGN §4",
    name: "global Allow and Disallow lines apply to every robot",
    body: "User-agent: *\nDisallow: /a\n\nDisallow: /b\nAllow: /b\n",
    expect: [
      ["global-rule", 7, "info"],
      ["conflicting-rules", 7, "warning"],
    ],
    says: "every robot",
  },
  // --- Which sequence a robot takes (§3.2.3, §3.2.4) ---
  {
    clause: "§3.2.3 (top to bottom until a target segment matches; * matches any crawler)",
    name: "a * sequence first takes every robot",
    body: "User-agent: *\nDisallow: /a\n\nUser-agent: bot\nDisallow: /b\n",
    expect: [["shadowed-group", 7, "warning"]],
    says: "no robot reaches this sequence",
  },
  {
    clause: "§3.2.3 Table 4 (the name token contains the value)",
    name: "an earlier value contained in a later one takes all its robots",
    body: "User-agent: seeker\nDisallow: /a\n\nUser-agent: infoseeker\nDisallow: /b\n",
    expect: [["shadowed-group", 7, "warning"]],
    says: 'line 4 "seeker"',
  },
  {
    clause: "§3.2.3 Table 4",
    name: "the longer value first is fine",
    body: "User-agent: infoseeker\nDisallow: /a\n\nUser-agent: seeker\nDisallow: /b\n",
    expect: [],
    absent: ["shadowed-group", "duplicate-group"],
  },
  {
    clause: "§3.2.3 Table 5 (several User-agent lines)",
    name: "one line of a sequence shadowed, the sequence still reached",
    body: "User-agent: robot\nDisallow: /a\n\nUser-agent: wiserobot\nUser-agent: infoseeker\nDisallow: /b\n",
    expect: [["shadowed-group", 7, "warning"]],
    absent: ["empty-sequence"],
  },
  {
    clause: "§3.2.3",
    name: "the same value in two sequences, and twice in one",
    body: "User-agent: bot\nUser-agent: BOT\nDisallow: /a\n\nUser-agent: Bot\nDisallow: /b\n",
    expect: [
      ["duplicate-agent", 5, "info"],
      ["duplicate-group", 8, "warning"],
    ],
  },
  {
    clause: "§3.2.4 (Ip lines without User-agent: User-agent: * implied)",
    name: "an IP-only sequence first takes every robot",
    body: "Ip-disallow: 192.0.2.1\nDisallow: /a\n\nUser-agent: bot\nDisallow: /b\n",
    expect: [["shadowed-group", 7, "warning"]],
  },
  {
    clause: "§3.2.4",
    name: "an IP-only sequence after a * sequence is never reached",
    body: "User-agent: *\nDisallow: /a\n\nIp-disallow: 192.0.2.1\nDisallow: /b\n",
    expect: [["shadowed-group", 7, "warning"]],
  },
  {
    clause: "§3.2.3 (name tokens: letters, digits, underscores)",
    name: "User-agent values no name token contains",
    body: "User-agent: Mozilla/5.0 (compatible)\nUser-agent: web.crawler\nUser-agent: Info_seeker\nUser-agent: wise-robot\nDisallow: /a\n",
    expect: [
      ["agent-not-name-token", 4, "warning"],
      ["agent-not-name-token", 5, "warning"],
    ],
  },
  {
    clause: "§3.2 (a command sequence: target segment and content segment)",
    name: "a sequence with no commands",
    body: "User-agent: a\n\nUser-agent: b\nDisallow: /b\n",
    expect: [["empty-sequence", 4, "info"]],
  },
  {
    clause: "§3.2 (sequences separated by blank lines)",
    name: "two sequences without a blank line between them",
    body: "User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\n",
    expect: [["missing-blank-line", 6, "warning"]],
  },
  // --- Visit-time and Time-forbidden (§3.2.8) ---
  {
    clause: "§3.2.8 Example 2 (a zone on both ends); §3.2 sample (a zone on one end)",
    name: "spans with a zone",
    body: "User-agent: *\nDisallow: /a\nVisit-time: 01:00 +0800-06:00 +0800\nVisit-time: 1:00-16:00 UT\n",
    expect: [],
    absent: ["time-no-zone", "visit-time-never-opens", "bad-value"],
  },
  {
    clause: "§3.2.8 (time expressions follow RFC 822, which names the zone)",
    name: "a span without a zone is read as UT",
    body: "User-agent: *\nDisallow: /a\nVisit-time: 01:00-06:00\n",
    expect: [["time-no-zone", 6, "warning"]],
    says: "UT",
  },
  {
    clause: "§3.2.8 (a dated span ends after it starts)",
    name: "a dated span that ends before it starts",
    body: "User-agent: *\nDisallow: /a\nTime-forbidden: 2 Nov 2014 00:00 UT-30 Oct 2014 00:00 UT\n",
    expect: [["bad-value", 6, "warning"]],
    says: "ends after it starts",
  },
  {
    clause: "§3.2.8 (Visit-time allowed, Time-forbidden forbidden)",
    name: "a Visit-time inside a daily Time-forbidden of the same sequence never opens",
    body: "User-agent: *\nVisit-time: 01:00-02:00 UT\nTime-forbidden: 00:00-03:00 UT\nDisallow: /a\n",
    expect: [["visit-time-never-opens", 5, "warning"]],
    says: "line 6",
  },
  {
    clause: "§3.2.8 (an end earlier than the start runs into the next day)",
    name: "a Visit-time over midnight inside a wider Time-forbidden over midnight",
    body: "User-agent: *\nDisallow: /a\nVisit-time: 22:00 +0800-06:00 +0800\nTime-forbidden: 21:00 +0800-07:00 +0800\n",
    expect: [["visit-time-never-opens", 6, "warning"]],
  },
  {
    clause: "§3.2.8; §3.2 (global commands apply to every crawler)",
    name: "a global Time-forbidden closes a sequence's Visit-time",
    body: "User-agent: *\nDisallow: /a\nVisit-time: 01:00-02:00 UT\n\nTime-forbidden: 00:00-12:00 UT\n",
    expect: [["visit-time-never-opens", 6, "warning"]],
    says: "line 8",
  },
  {
    clause: "§3.2.8",
    name: "a Visit-time partly forbidden still opens",
    body: "User-agent: *\nDisallow: /a\nVisit-time: 01:00-05:00 UT\nTime-forbidden: 00:00-03:00 UT\n",
    expect: [],
    absent: ["visit-time-never-opens"],
  },
  {
    clause: "§3.2 (a block's commands hold only for what its target covers)",
    name: "a Time-forbidden in a block does not close the sequence's Visit-time",
    body: "User-agent: *\nDisallow: /a\nVisit-time: 01:00-02:00 UT\n{\nAllow: /b\nTime-forbidden: 00:00-03:00 UT\n}\n",
    expect: [],
    absent: ["visit-time-never-opens"],
  },
  {
    clause: "§3.2.8 Example 1; §3.2.2 (Last-modified)",
    name: "a dated Visit-time over before the file's Last-modified never opens",
    body: "User-agent: *\nDisallow: /a\nVisit-time: 1 Oct 2014 00:00 UT-2 Oct 2014 00:00 UT\n",
    expect: [["visit-time-never-opens", 6, "warning"]],
    says: "Last-modified at line 2",
  },
  {
    clause: "§3.2.8 Example 1; §3.2.2",
    name: "the paper's Time-forbidden, written before it starts, is fine",
    body: "User-agent: *\nDisallow: /a\nTime-forbidden: 30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT\n",
    expect: [],
    absent: ["expired-span", "time-no-zone", "bad-value"],
  },
  {
    clause: "§3.2.8 Example 1; §3.2.2",
    name: "a Time-forbidden over before the file's Last-modified",
    whole:
      "Robot-version: 3.0\nLast-modified: 30 Nov 2014 00:00 UT\n\nUser-agent: *\nDisallow: /a\nTime-forbidden: 30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT\n",
    expect: [["expired-span", 6, "info"]],
  },
  {
    clause: "§3.2.8 (daily spans); DESIGN §4",
    name: "a daily Time-forbidden that ends where it starts forbids all day",
    body: "User-agent: *\nDisallow: /a\nTime-forbidden: 00:00-00:00 UT\n",
    expect: [["always-forbidden", 6, "warning"]],
  },
  // --- Comments (Table 2: "##" only) ---
  {
    clause: "§3.2 Table 2, Appendix comment (## starts a comment)",
    name: "a lone # read as a comment is part of the value",
    body: "User-agent: *\nDisallow: /a # old\nDisallow: # nothing\n",
    expect: [
      ["hash-comment", 5, "warning"],
      ["hash-comment", 6, "warning"],
    ],
    absent: ["bad-value", "bad-path"],
    says: '"/a # old"',
  },
  {
    clause: "§3.2 Table 2",
    name: "a lone # after a User-agent",
    body: "User-agent: bot # the old one\nDisallow: /a\n",
    expect: [["hash-comment", 4, "warning"]],
    absent: ["agent-not-name-token"],
  },
  {
    clause: '§3.2 ("#" is often used as a character in URLs)',
    name: "a # inside a path and ## comments are fine",
    body: "User-agent: *\nDisallow: /page#x ## the old page\n## a comment line\nAllow: /page#y\n",
    expect: [],
    absent: ["hash-comment", "bad-value", "invalid-line"],
  },
  // --- Fields (Table 3, Appendix extension) ---
  {
    clause: "Table 3",
    name: "every Table 3 field is known",
    body: "User-agent: *\nDisallow: /a\nAllow: /a/b\nCrawl-delay: 5\nIp-delay: 2\nRequest-rate: 500/h\nIp-rate: 100/m\nVisit-time: 01:00-06:00 UT\nTime-forbidden: 30 Oct 2014 00:00 UT-2 Nov 2014 23:59 UT\nLanguage: en-us,en\nEncoding: gzip,deflate\nCharset: gb2312,utf-8\nCookie: visitor=crawler\nMirror-site: www.example.com\nSitemap: http://www.example.com/sitemap.xml\nHost: www.example.com\nIndex-page: /news/\nChange-always: /a\nChange-hourly: /b\nChange-daily: /c\nChange-weekly: /d\nChange-monthly: /e\nChange-yearly: /f\nChange-never: /g\n",
    expect: [],
    absent: ["unknown-key", "extension-key", "nonstandard-key", "regp-key", "bad-value"],
  },
  {
    clause: "Table 3",
    name: "a misspelt field gets a Table 3 suggestion",
    body: "User-agent: *\nDisallow: /a\nIp-dealy: 2\n",
    expect: [["unknown-key", 6, "warning"]],
    says: '"Ip-delay"',
  },
  {
    clause: "Appendix (extension = token : value)",
    name: "a field far from every Table 3 name is an extension",
    body: "User-agent: *\nDisallow: /a\nX-Contact: webmaster@example.com\n",
    expect: [["extension-key", 6, "info"]],
  },
  {
    clause: "§3.2 (the global command section)",
    name: "a file with only global guidance restricts no path",
    body: "Sitemap: http://www.example.com/sitemap.xml\n",
    expect: [["no-groups", null, "info"]],
  },
  // --- Checks of the classic dialects that are wrong for REGP ---
  {
    clause: "§3.2 (blank lines divide sections)",
    name: "classic group checks do not run",
    body: "User-agent: a\nCrawl-delay: 2\n\nUser-agent: *\nDisallow: /\n",
    expect: [],
    absent: ["empty-group", "blank-line-in-group", "rule-outside-group", "late-robot-version"],
  },
];

function pick(findings: readonly LintFinding[], codes: ReadonlySet<string>): Expected[] {
  return findings.filter((f) => codes.has(f.code)).map((f) => [f.code, f.line, f.severity]);
}

describe("heed lint on REGP files (seeds/003)", () => {
  for (const c of CASES) {
    it(`${c.clause}: ${c.name}`, () => {
      const text = c.whole ?? HEAD + (c.body ?? "");
      const report = lintRobots(text, c.dialect === undefined ? {} : { dialect: c.dialect });
      assert.equal(report.dialect, "regp");
      const codes = new Set(c.expect.map(([code]) => code));
      assert.deepEqual(pick(report.findings, codes), c.expect, JSON.stringify(report.findings));
      for (const code of c.absent ?? []) {
        const found = report.findings.find((f) => f.code === code);
        assert.equal(found, undefined, `unexpected ${code}: ${found?.message}`);
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

describe("the paper's REGP files lint clean", () => {
  for (const name of ["paper-sample.txt", "news-experiment.txt"]) {
    it(`${name} (seeds/003 ${name === "paper-sample.txt" ? "§3.2" : "§5"}): no errors, no warnings`, () => {
      const report = lintRobots(readFileSync(new URL(name, FIXTURES)));
      assert.equal(report.dialect, "regp");
      assert.deepEqual(
        report.findings.filter((f) => f.severity !== "info"),
        [],
      );
      assert.equal(report.errors + report.warnings, 0);
    });
  }

  it("the §3.2 sample has no findings at all: its block's User-agent: infoseeker is a target", () => {
    const report = lintRobots(readFileSync(new URL("paper-sample.txt", FIXTURES)));
    assert.deepEqual(report.findings, []);
  });
});

describe("IP patterns covering others (seeds/003 §3.2.4; DESIGN §4)", () => {
  const ip = (text: string) => {
    const parsed = parseIpPattern(text);
    assert.ok(parsed.ok, text);
    return parsed.value;
  };
  const ROWS: readonly [wide: string, narrow: string, covers: boolean][] = [
    ["*", "222.69.212.14", true],
    ["*", "2001:db8::/32", true],
    ["222.69.*.*", "222.69.212.14", true],
    ["222.69.*.*", "222.69.212.*", true],
    ["222.69.212.*", "222.69.*.*", false],
    ["222.*.212.14", "222.69.212.14", true],
    ["10.0.0.0/8", "10.1.2.3", true],
    ["10.0.0.0/8", "10.1.*.*", true],
    ["10.1.*.*", "10.0.0.0/8", false],
    ["10.128.0.0/9", "10.200.0.0/16", true],
    ["10.128.0.0/9", "10.100.0.0/16", false],
    ["2001:db8::/32", "2001:db8::1", true],
    ["2001:db8::1", "2001:db8::/32", false],
    ["222.69.212.14", "222.69.212.14", true],
    ["222.69.212.14", "*", false],
    // Different families are never compared: a cover may be missed, never invented.
    ["::ffff:0:0/96", "192.0.2.1", false],
  ];
  for (const [wide, narrow, expected] of ROWS) {
    it(`${wide} ${expected ? "covers" : "does not cover"} ${narrow}`, () => {
      assert.equal(covers(ip(wide), ip(narrow)), expected);
    });
  }
});

describe("heed lint on large REGP files", () => {
  it("checks 20,000 Ip lines of one group quickly", { timeout: 10_000 }, () => {
    const ips = Array.from({ length: 20_000 }, (_, i) => `Ip-allow: 10.${i >> 8}.${i & 255}.1`);
    const text = `${HEAD}User-agent: *\n${ips.join("\n")}\nIp-allow: *\nDisallow: /a\n`;
    const report = lintRobots(text);
    assert.equal(report.findings.filter((f) => f.code === "redundant-ip").length, 20_000);
  });

  it("checks 5,000 sequences and 5,000 lone # lines quickly", { timeout: 10_000 }, () => {
    const sequences = Array.from(
      { length: 5_000 },
      (_, i) => `User-agent: bot${i}\nDisallow: /a # ${i}\n`,
    );
    const report = lintRobots(`${HEAD}${sequences.join("\n")}`);
    assert.equal(report.findings.filter((f) => f.code === "hash-comment").length, 5_000);
    assert.equal(report.findings.filter((f) => f.code === "bad-value").length, 0);
  });

  it("bounds the Visit-time check on a file of many time lines", { timeout: 10_000 }, () => {
    const lines = [
      ...Array.from({ length: 2_000 }, (_, i) => `Visit-time: 0${i % 10}:00-0${i % 10}:30 UT`),
      ...Array.from({ length: 2_000 }, (_, i) => `Time-forbidden: 0${i % 10}:10-0${i % 10}:20 UT`),
    ];
    const report = lintRobots(`${HEAD}User-agent: *\nDisallow: /a\n${lines.join("\n")}\n`);
    assert.equal(report.errors, 0);
  });
});
