// The layout of a REGP file (seeds/003 §3.2 and Table 2, the Appendix grammar, DESIGN §4):
// header, sequences separated by blank lines, the global section, brace blocks (nested,
// parallel, unbalanced, too deep), comments, IP-only sequences, block targets, bad values.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Diagnostic } from "../../../../src/protocol/robots/diagnostic.js";
import {
  parseRobots,
  RobotsPolicy,
  readRobotsText,
} from "../../../../src/protocol/robots/index.js";
import {
  type Directive,
  layOut,
  MAX_BRACE_DEPTH,
  type RegpLayout,
} from "../../../../src/protocol/robots/regp/layout.js";

const HEADER = "Robot-version: 3.0\n\n";

function lay(text: string): RegpLayout {
  return layOut(readRobotsText(text, { commentStyle: "double-hash" }).lines);
}

const values = (ds: readonly Directive[]) => ds.map((d) => `${d.key}: ${d.value}`);

function lineOf(text: string, line: string): number {
  const at = text.split("\n").findIndex((l) => l.trim() === line);
  assert.ok(at >= 0, `no line ${JSON.stringify(line)}`);
  return at + 1;
}

function codes(diagnostics: readonly Diagnostic[]): [string, number | null][] {
  return diagnostics.map((d) => [d.code, d.line]);
}

const delay = (
  text: string,
  path: string,
  robot: Parameters<ReturnType<typeof parseRobots>["check"]>[1],
) => parseRobots(text).check(path, robot).plan?.delaySeconds;

describe("REGP layout: header, sequences, global section", () => {
  const TEXT = `Robot-version: 3.0
Last-modified: 30 Oct 2014 04:31:17 UT

User-agent: a
Disallow: /a

User-agent: b
User-agent: c
Allow: /b
Crawl-delay: 2

Sitemap: http://www.example.com/s.xml
Language: en
`;
  const layout = lay(TEXT);
  it("the two header lines are the header", () => {
    assert.deepEqual(values(layout.header), [
      "robot-version: 3.0",
      "last-modified: 30 Oct 2014 04:31:17 UT",
    ]);
  });
  it("blank lines separate the command sequences", () => {
    assert.equal(layout.sequences.length, 2);
    const [first, second] = layout.sequences;
    assert.deepEqual(values(first?.target.agents ?? []), ["user-agent: a"]);
    assert.deepEqual(values(first?.content.rules ?? []), ["disallow: /a"]);
    assert.equal(first?.line, 4);
    assert.deepEqual(values(second?.target.agents ?? []), ["user-agent: b", "user-agent: c"]);
    assert.deepEqual(values(second?.content.rules ?? []), ["allow: /b"]);
    assert.deepEqual(values(second?.content.directives ?? []), ["crawl-delay: 2"]);
    assert.equal(second?.impliedAgent, false);
  });
  it("the last section, with no User-agent or Ip line, is the global section", () => {
    assert.deepEqual(values(layout.global.directives), [
      "sitemap: http://www.example.com/s.xml",
      "language: en",
    ]);
    assert.deepEqual(layout.global.rules, []);
  });
  it("a well-formed file has no diagnostics", () => {
    assert.deepEqual(layout.diagnostics, []);
    assert.deepEqual(parseRobots(TEXT).diagnostics, []);
  });
  it("CRLF line ends give the same layout", () => {
    const crlf = lay(TEXT.replace(/\n/g, "\r\n"));
    assert.equal(crlf.sequences.length, 2);
    assert.deepEqual(values(crlf.global.directives), values(layout.global.directives));
  });
  it("a global section anywhere applies to every robot, named or not", () => {
    const text = `${HEADER}Crawl-delay: 1\nDisallow: /secret\n\nUser-agent: a\nAllow: /\n`;
    const l = lay(text);
    assert.equal(l.sequences.length, 1);
    assert.deepEqual(values(l.global.directives), ["crawl-delay: 1"]);
    assert.deepEqual(values(l.global.rules), ["disallow: /secret"]);
    const policy = parseRobots(text);
    for (const agent of ["a", "zzz"]) {
      assert.equal(policy.check("/x", agent).plan?.delaySeconds, 1, agent);
      const d = policy.check("/secret/x", agent);
      assert.equal(d.allowed, false, agent);
      assert.equal(d.rule, "Disallow: /secret", agent);
    }
  });
});

describe("REGP layout: brace blocks", () => {
  const NESTED = `${HEADER}User-agent: *
Disallow: /x
{
User-agent: a
Crawl-delay: 1
{
Allow: /deep/
Crawl-delay: 2
}
}
{
Allow: /p/
Crawl-delay: 3
}
`;
  it("nested and parallel blocks are laid out with their depth and target", () => {
    const [sequence] = lay(NESTED).sequences;
    const blocks = sequence?.content.blocks ?? [];
    assert.equal(blocks.length, 2);
    const [outer, parallel] = blocks;
    assert.equal(outer?.depth, 1);
    assert.equal(outer?.line, 5);
    assert.deepEqual(values(outer?.target.agents ?? []), ["user-agent: a"]);
    assert.deepEqual(values(outer?.content.directives ?? []), ["crawl-delay: 1"]);
    const inner = outer?.content.blocks[0];
    assert.equal(inner?.depth, 2);
    assert.deepEqual(values(inner?.target.paths ?? []), ["allow: /deep/"]);
    assert.deepEqual(values(inner?.content.directives ?? []), ["crawl-delay: 2"]);
    assert.equal(parallel?.depth, 1);
    assert.deepEqual(values(parallel?.target.paths ?? []), ["allow: /p/"]);
    assert.deepEqual(values(sequence?.content.rules ?? []), ["disallow: /x"]);
    assert.deepEqual(lay(NESTED).diagnostics, []);
  });
  it("nested blocks narrow further; parallel blocks apply side by side", () => {
    assert.equal(delay(NESTED, "/deep/1", "a"), 2);
    assert.equal(delay(NESTED, "/other", "a"), 1);
    assert.equal(delay(NESTED, "/deep/1", "b"), 0, "the inner block is inside a's block");
    assert.equal(delay(NESTED, "/p/1", "b"), 3);
    assert.equal(delay(NESTED, "/p/1", "a"), 3, "the later covering block is the more specific");
  });
  it("`{ Allow: /x` on one line: the brace and the target line both count", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /private\n{ Allow: /x\nCrawl-delay: 4\n}\n`;
    const [sequence] = lay(text).sequences;
    const block = sequence?.content.blocks[0];
    assert.deepEqual(values(block?.target.paths ?? []), ["allow: /x"]);
    assert.equal(block?.line, lineOf(text, "{ Allow: /x"));
    assert.equal(block?.target.paths[0]?.line, lineOf(text, "{ Allow: /x"));
    assert.deepEqual(lay(text).diagnostics, []);
    assert.equal(delay(text, "/x/1", "bot"), 4);
    assert.equal(delay(text, "/y", "bot"), 0);
  });
  it("`} ## comment` closes a block", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /p\n{\nAllow: /x\nCrawl-delay: 4\n} ## end of block\nCrawl-delay: 1\n`;
    assert.deepEqual(lay(text).diagnostics, []);
    assert.equal(delay(text, "/x", "bot"), 4);
    assert.equal(delay(text, "/y", "bot"), 1);
  });
  it("a block's value wins over the sequence's, even when the sequence line comes after it", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /p\n{\nAllow: /x\nCrawl-delay: 4\n}\nCrawl-delay: 1\n`;
    assert.equal(delay(text, "/x/1", "bot"), 4);
    assert.equal(delay(text, "/y", "bot"), 1);
  });
  it("a block with User-agent lines narrows to the robots it names (containment)", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /p\nCrawl-delay: 2\n{\nUser-agent: fast\nCrawl-delay: 0.1\n}\n`;
    assert.deepEqual(values(lay(text).sequences[0]?.content.blocks[0]?.target.agents ?? []), [
      "user-agent: fast",
    ]);
    assert.equal(delay(text, "/x", "fastbot"), 0.1);
    assert.equal(delay(text, "/x", "FastCrawler"), 0.1);
    assert.equal(delay(text, "/x", "slowbot"), 2);
  });
  it("a block with Ip lines narrows to the robots at those addresses, and refuses none", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /private\n{\nIp-allow: 10.0.0.*\nCrawl-delay: 3\n}\n`;
    const block = lay(text).sequences[0]?.content.blocks[0];
    assert.deepEqual(values(block?.target.ips ?? []), ["ip-allow: 10.0.0.*"]);
    assert.equal(lay(text).sequences[0]?.target.ips.length, 0);
    const policy = parseRobots(text);
    const inside = policy.check("/a", { agent: "bot", ip: "10.0.0.5" });
    assert.equal(inside.plan?.delaySeconds, 3);
    const outside = policy.check("/a", { agent: "bot", ip: "10.0.1.5" });
    assert.equal(outside.allowed, true, "a block's Ip lines do not close the site");
    assert.equal(outside.plan?.delaySeconds, 0);
    // Unknown address: meets only `*` lines, so the implicit Ip-disallow: * leaves it out.
    assert.equal(policy.check("/a", "bot").plan?.delaySeconds, 0);
  });
  it("a block with a Disallow line covers every path but that one (implicit Allow: /)", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /private\n{\nDisallow: /cheap/\nCrawl-delay: 9\n}\n`;
    assert.deepEqual(values(lay(text).sequences[0]?.content.blocks[0]?.target.paths ?? []), [
      "disallow: /cheap/",
    ]);
    const policy = parseRobots(text);
    assert.equal(policy.check("/news/1", "bot").plan?.delaySeconds, 9);
    const cheap = policy.check("/cheap/1", "bot");
    assert.equal(cheap.plan?.delaySeconds, 0);
    assert.equal(cheap.allowed, true, "a block's Disallow narrows; it refuses nothing");
    assert.deepEqual(values(lay(text).sequences[0]?.content.rules ?? []), ["disallow: /private"]);
  });
  it("a block's Allow grants nothing the sequence refuses", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /news/\n{\nAllow: /news/hot/\nCrawl-delay: 2\n}\n`;
    const d = parseRobots(text).check("/news/hot/1", "bot");
    assert.equal(d.allowed, false);
    assert.equal(d.rule, "Disallow: /news/");
  });
  it("target lines after a block's other commands still narrow it", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /p\n{\nCrawl-delay: 6\nAllow: /late/\n}\n`;
    const block = lay(text).sequences[0]?.content.blocks[0];
    assert.deepEqual(values(block?.target.paths ?? []), ["allow: /late/"]);
    assert.deepEqual(values(block?.content.directives ?? []), ["crawl-delay: 6"]);
    assert.equal(delay(text, "/late/x", "bot"), 6);
    assert.equal(delay(text, "/early/x", "bot"), 0);
  });
  it("blocks in the global section apply to every robot they cover", () => {
    const text = `${HEADER}User-agent: a\nDisallow: /p\n\nSitemap: http://e.com/s.xml\n{\nUser-agent: slow\nCrawl-delay: 7\n}\n`;
    assert.equal(lay(text).global.blocks.length, 1);
    assert.equal(delay(text, "/x", "slowbot"), 7);
    assert.equal(delay(text, "/x", "a"), 0);
  });
});

describe("REGP layout: unbalanced and too deep braces", () => {
  it("a } that closes no { is an error (unbalanced-brace); the section goes on", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /x\n}\nCrawl-delay: 2\n`;
    const policy = parseRobots(text);
    assert.deepEqual(codes(policy.diagnostics.filter((d) => d.code === "unbalanced-brace")), [
      ["unbalanced-brace", lineOf(text, "}")],
    ]);
    assert.equal(policy.diagnostics.find((d) => d.code === "unbalanced-brace")?.severity, "error");
    assert.equal(policy.check("/y", "bot").plan?.delaySeconds, 2);
  });
  it("a } at the top level, between sections, is an error too", () => {
    const text = `${HEADER}}\n\nUser-agent: *\nDisallow: /x\n`;
    assert.deepEqual(codes(lay(text).diagnostics), [["unbalanced-brace", 3]]);
  });
  it("a { never closed before the end of the file is an error on its line", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /x\n{\nAllow: /a\nCrawl-delay: 5\n`;
    const l = lay(text);
    assert.deepEqual(codes(l.diagnostics), [["unbalanced-brace", lineOf(text, "{")]]);
    assert.equal(l.sequences[0]?.content.blocks.length, 1, "the block is still read");
    assert.equal(delay(text, "/a/1", "bot"), 5);
  });
  it("a blank line ends the section inside braces: the { is unclosed, the later } closes nothing", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /x\n{\nAllow: /a\n\nCrawl-delay: 5\n}\n`;
    const l = lay(text);
    assert.deepEqual(codes(l.diagnostics), [
      ["unbalanced-brace", lineOf(text, "{")],
      ["unbalanced-brace", lineOf(text, "}")],
    ]);
    // What follows the blank line is a section of its own with no target: the global section.
    assert.deepEqual(values(l.global.directives), ["crawl-delay: 5"]);
    assert.equal(l.sequences.length, 1);
  });
  it(`blocks nest ${MAX_BRACE_DEPTH} deep; a deeper one is reported (brace-depth) and ignored`, () => {
    let text = `${HEADER}User-agent: *\nDisallow: /x\n`;
    for (let depth = 1; depth <= MAX_BRACE_DEPTH + 1; depth++) text += `{\nCrawl-delay: ${depth}\n`;
    text += "}\n".repeat(MAX_BRACE_DEPTH + 1);
    const policy = parseRobots(text);
    const deepLine = 4 + 2 * MAX_BRACE_DEPTH + 1;
    assert.equal(text.split("\n")[deepLine - 1], "{");
    assert.deepEqual(codes(policy.diagnostics), [["brace-depth", deepLine]]);
    assert.equal(policy.diagnostics[0]?.severity, "error");
    assert.equal(policy.check("/y", "bot").plan?.delaySeconds, MAX_BRACE_DEPTH);
  });
  it("10,000 nested { lines, closed: no crash, one brace-depth error, the deep value ignored", () => {
    const N = 10_000;
    const text = `${HEADER}User-agent: *\nDisallow: /x\n${"{\n".repeat(N)}Crawl-delay: 9\n${"}\n".repeat(N)}Crawl-delay: 1\n`;
    const policy = parseRobots(text);
    assert.deepEqual(
      policy.diagnostics.map((d) => d.code),
      ["brace-depth"],
    );
    assert.equal(policy.check("/y", "bot").plan?.delaySeconds, 1);
    assert.equal(policy.check("/x", "bot").allowed, false);
  });
  it("10,000 nested { lines, never closed: no crash, errors reported", () => {
    const N = 10_000;
    const text = `${HEADER}User-agent: *\nDisallow: /x\n${"{\n".repeat(N)}Crawl-delay: 9\n`;
    const policy = parseRobots(text);
    const found = new Set(policy.diagnostics.map((d) => d.code));
    assert.ok(found.has("brace-depth"));
    assert.ok(found.has("unbalanced-brace"));
    assert.ok(policy.diagnostics.length <= MAX_BRACE_DEPTH + 2, `${policy.diagnostics.length}`);
    assert.equal(policy.check("/x", "bot").allowed, false);
    assert.equal(policy.check("/y", "bot").plan?.delaySeconds, 0);
  });
  it("10,000 } lines and 10,000 parallel blocks: no crash", () => {
    const closers = `${HEADER}User-agent: *\nDisallow: /x\n${"}\n".repeat(10_000)}`;
    assert.equal(
      parseRobots(closers).diagnostics.filter((d) => d.code === "unbalanced-brace").length,
      10_000,
    );
    const parallel = `${HEADER}User-agent: *\nDisallow: /x\n${"{\nAllow: /a\nCrawl-delay: 2\n}\n".repeat(10_000)}`;
    const policy = parseRobots(parallel);
    assert.deepEqual(policy.diagnostics, []);
    assert.equal(policy.check("/a", "bot").plan?.delaySeconds, 2);
  });
});

describe("REGP layout: oddities reported", () => {
  it("a User-agent line right after a sequence's content starts a new sequence (missing-blank-line)", () => {
    const text = `${HEADER}User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\n`;
    const l = lay(text);
    assert.deepEqual(codes(l.diagnostics), [["missing-blank-line", lineOf(text, "User-agent: b")]]);
    assert.equal(l.diagnostics[0]?.severity, "warning");
    assert.equal(l.sequences.length, 2);
    const policy = parseRobots(text);
    assert.equal(policy.check("/b", "b").allowed, false);
    assert.equal(policy.check("/a", "b").allowed, true);
    assert.equal(policy.check("/a", "a").allowed, false);
  });
  it("an Ip line right after a sequence's content starts a new sequence too", () => {
    const text = `${HEADER}User-agent: a\nDisallow: /a\nIp-disallow: 10.*.*.*\nDisallow: /b\n`;
    const l = lay(text);
    assert.deepEqual(codes(l.diagnostics), [
      ["missing-blank-line", lineOf(text, "Ip-disallow: 10.*.*.*")],
    ]);
    assert.equal(l.sequences.length, 2);
    assert.equal(l.sequences[1]?.impliedAgent, true);
  });
  it("a header line inside a sequence is out of place (header-out-of-place)", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /a\nLast-modified: 30 Oct 2014 04:31:17 UT\n`;
    assert.deepEqual(codes(lay(text).diagnostics), [
      ["header-out-of-place", lineOf(text, "Last-modified: 30 Oct 2014 04:31:17 UT")],
    ]);
  });
  it("a header line standing alone after the sequences is out of place too (Appendix: head comes first)", () => {
    const text = `${HEADER}User-agent: *\nDisallow: /a\n\nLast-modified: 30 Oct 2014 04:31:17 UT\n`;
    assert.deepEqual(codes(lay(text).diagnostics), [
      ["header-out-of-place", lineOf(text, "Last-modified: 30 Oct 2014 04:31:17 UT")],
    ]);
  });
});

describe("REGP layout: comments (## only; a lone # is part of the value)", () => {
  const TEXT = `${HEADER}## a comment line
User-agent: *   ## a trailing comment
   ## an indented comment
Disallow: /page#x ## the comment goes, the # stays
Disallow: /a#b#c
Allow: /open##no space before the comment
`;
  const l = lay(TEXT);
  it("## comment lines are skipped, inside a sequence too", () => {
    assert.equal(l.sequences.length, 1);
    assert.deepEqual(l.diagnostics, []);
    assert.deepEqual(values(l.sequences[0]?.target.agents ?? []), ["user-agent: *"]);
  });
  it("a lone # is kept in the value; ## and what follows are removed", () => {
    assert.deepEqual(values(l.sequences[0]?.content.rules ?? []), [
      "disallow: /page#x",
      "disallow: /a#b#c",
      "allow: /open",
    ]);
    assert.equal(l.sequences[0]?.content.rules[0]?.text, "Disallow: /page#x");
  });
  it("the same file read with # comments (RFC 9309) loses the # part: REGP does not", () => {
    const rfc = readRobotsText(TEXT, { commentStyle: "hash" }).lines.find((x) =>
      x.text.startsWith("Disallow: /page"),
    );
    assert.equal(rfc?.value, "/page");
  });
  it("Disallow: /page#x refuses the URL /page#x and not /page or /page#y", () => {
    const policy = parseRobots(TEXT);
    const d = policy.check("/page#x", "bot");
    assert.equal(d.allowed, false, "the rule names a URL with a # (seeds/003 §3.2)");
    assert.equal(d.rule, "Disallow: /page#x");
    assert.equal(policy.check("/page", "bot").allowed, true);
    assert.equal(policy.check("/page#y", "bot").allowed, true);
  });
});

describe("REGP layout: IP-only sequences", () => {
  it("a sequence with Ip lines and no User-agent has User-agent: * implied", () => {
    const text = `${HEADER}Ip-disallow: 10.*.*.*\nDisallow: /x\n\nUser-agent: bot\nDisallow: /\n`;
    const l = lay(text);
    assert.equal(l.sequences[0]?.impliedAgent, true);
    assert.deepEqual(l.sequences[0]?.target.agents, []);
    assert.deepEqual(values(l.sequences[0]?.target.ips ?? []), ["ip-disallow: 10.*.*.*"]);
    assert.equal(l.sequences[1]?.impliedAgent, false);
    // The implied `*` matches every robot first: bot never reaches its own sequence.
    const policy = parseRobots(text);
    const d = policy.check("/y", { agent: "bot", ip: "11.0.0.1" });
    assert.equal(d.allowed, true);
    assert.deepEqual(d.group?.agents, ["*"]);
    assert.equal(policy.check("/y", { agent: "bot", ip: "10.0.0.1" }).reason, "ip");
  });
  it("a sequence with both User-agent and Ip lines implies nothing", () => {
    const l = lay(`${HEADER}User-agent: a\nIp-allow: 1.2.3.4\nDisallow: /x\n`);
    assert.equal(l.sequences[0]?.impliedAgent, false);
    assert.equal(l.sequences[0]?.target.ips.length, 1);
  });
});

describe("REGP layout: values that cannot be read (bad-value; the line is ignored)", () => {
  const TEXT = `${HEADER}User-agent: *
Crawl-delay: soon
Crawl-delay: 3
Ip-delay: -1
Request-rate: fast
Ip-rate: 5
Visit-time: whenever
Time-forbidden: tomorrow
Language: ???
Encoding: gz ip
Charset: utf 8
Cookie: =
Mirror-site: not a host!
Host: http://
Index-page: no-slash
Change-daily: no-slash
Allow: noslash
Disallow: /x

Sitemap: not a url
`;
  const policy = parseRobots(TEXT);
  const BAD: readonly [line: string, value: string][] = [
    ["Crawl-delay: soon", "soon"],
    ["Ip-delay: -1", "-1"],
    ["Request-rate: fast", "fast"],
    ["Ip-rate: 5", "5"],
    ["Visit-time: whenever", "whenever"],
    ["Time-forbidden: tomorrow", "tomorrow"],
    ["Language: ???", "???"],
    ["Encoding: gz ip", "gz ip"],
    ["Charset: utf 8", "utf 8"],
    ["Cookie: =", "="],
    ["Mirror-site: not a host!", "not a host!"],
    ["Host: http://", "http://"],
    ["Index-page: no-slash", "no-slash"],
    ["Change-daily: no-slash", "no-slash"],
    ["Allow: noslash", "noslash"],
    ["Sitemap: not a url", "not a url"],
  ];
  for (const [line, value] of BAD) {
    it(`${line} → bad-value on its line`, () => {
      const n = lineOf(TEXT, line);
      const found = policy.diagnostics.filter((d) => d.line === n);
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.equal(found[0]?.code, "bad-value");
      assert.equal(found[0]?.severity, "warning");
      assert.ok(found[0]?.message.includes(value), found[0]?.message);
      assert.match(found[0]?.message ?? "", /ignored/);
      assert.ok(!/[\r\n]/.test(found[0]?.message ?? ""));
    });
  }
  it("good lines are not reported", () => {
    for (const line of ["Crawl-delay: 3", "Disallow: /x"]) {
      assert.equal(policy.diagnostics.filter((d) => d.line === lineOf(TEXT, line)).length, 0);
    }
  });
  it("the bad lines count for nothing: only Crawl-delay: 3 and Disallow: /x hold", () => {
    const d = policy.check("/y", "bot");
    assert.equal(d.allowed, true);
    assert.equal(d.basis, "implicit-allow", "the ignored Allow: noslash does not start the group");
    const plan = d.plan;
    assert.deepEqual(plan?.crawlDelay, { value: 3, line: lineOf(TEXT, "Crawl-delay: 3") });
    assert.equal(plan?.delaySeconds, 3);
    assert.equal(plan?.ipDelay, null);
    assert.deepEqual(plan?.rates, []);
    assert.deepEqual(plan?.times, []);
    assert.deepEqual(plan?.requires, { language: null, encoding: null, charset: null });
    assert.equal(plan?.cookie, null);
    assert.equal(plan?.mirror, null);
    assert.equal(plan?.host, null);
    assert.equal(plan?.indexPage, null);
    assert.equal(plan?.change, null);
    assert.deepEqual(plan?.sitemaps, []);
    assert.equal(policy.check("/x", "bot").allowed, false);
    // Without a readable time window, a time refuses nothing.
    assert.equal(policy.check("/y", { agent: "bot", at: 0 }).allowed, true);
  });
  it("the paper's typeset Ip-disallow: 222.69..** is a bad value, and closes nothing", () => {
    const text = `${HEADER}Ip-disallow: 222.69..**\nDisallow: /x\n`;
    const p = parseRobots(text);
    assert.deepEqual(codes(p.diagnostics), [["bad-value", 3]]);
    assert.equal(p.check("/y", { agent: "bot", ip: "222.69.212.14" }).allowed, true);
  });
  it("Last-modified that is not a date: bad-value, lastModified null", () => {
    const p = parseRobots(
      "Robot-version: 3.0\nLast-modified: yesterday\n\nUser-agent: *\nDisallow: /x\n",
    );
    assert.deepEqual(codes(p.diagnostics), [["bad-value", 2]]);
    assert.equal(p.lastModified, null);
  });
});

describe("a parsed REGP policy keeps no reading of its lines", () => {
  const file = `${HEADER}User-agent: a ## the a robot\nDisallow: /x\n{\nAllow: /x/html/\nCrawl-delay: 2\n}\n\nDisallow: /tmp\n`;

  it("lays the file out again when asked, as a fresh reading lays it out", () => {
    const policy = parseRobots(file);
    assert.deepEqual(policy.regp?.layout, lay(file));
    assert.deepEqual(policy.text.lines, readRobotsText(file).lines);
  });

  it("answers, and names its lines, as a policy made from a reading it keeps", () => {
    const parsed = parseRobots(new TextEncoder().encode(file));
    const kept = new RobotsPolicy(readRobotsText(file));
    for (const url of ["/x", "/x/html/a", "/tmp/a", "/y"]) {
      assert.deepEqual(parsed.check(url, "a"), kept.check(url, "a"), url);
    }
    assert.equal(parsed.check("/y", "a").allowed, true);
    assert.equal(parsed.check("/x", "a").allowed, false);
    assert.deepEqual(parsed.diagnostics, kept.diagnostics);
  });

  it("makes its groups and diagnostics when asked, as a policy made from a reading has them", () => {
    const odd = `${HEADER}User-agent: a\nDisallow: http://www.example.com/x?p=1\nVisit-time: soon\nAllow: /x/*.html$\n`;
    const parsed = parseRobots(odd);
    const kept = new RobotsPolicy(readRobotsText(odd));
    const rules = (p: RobotsPolicy) =>
      p.groups.map((g) => g.rules.map((r) => [r.line, r.allow, r.text]));
    assert.deepEqual(rules(parsed), rules(kept));
    // The classic groups read the URL value as no path (lint reports it); REGP reads its path.
    assert.deepEqual(rules(parsed), [[[6, true, "Allow: /x/*.html$"]]]);
    assert.deepEqual(parsed.diagnostics, kept.diagnostics);
    assert.deepEqual(codes(parsed.diagnostics), [["bad-value", 5]]);
    assert.deepEqual(parsed.check("/x?p=1", "a"), kept.check("/x?p=1", "a"));
    assert.equal(parsed.check("/x?p=1", "a").line, 4);
    assert.equal(parsed.check("/x/A.HTML", "a").line, 6);
  });

  it("shares one compiled pattern between rules written the same way, across files", () => {
    const one = parseRobots(file).regp?.compiled.sequences[0]?.rules.at(0).pattern;
    const two = parseRobots(
      `${HEADER}User-agent: b\nDisallow: /x\n`,
    ).regp?.compiled.sequences[0]?.rules.at(0).pattern;
    assert.ok(one !== undefined);
    assert.equal(one, two);
  });
});
