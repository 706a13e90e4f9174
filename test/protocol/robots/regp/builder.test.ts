// The REGP writer and its typed document: seeds/003 §3.2 (layout, Table 2 line forms, Table 3
// fields) and the Appendix grammar. What buildRegp writes, readRegpDocument reads back as the
// same document (a fast-check round trip over generated documents), and the paper's two files,
// written with the convenience API, read back as the fixtures do.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ChangeFrequency } from "../../../../src/protocol/robots/plan.js";
import {
  allow,
  buildRegp,
  disallow,
  ipAllow,
  ipDisallow,
  RegpBuildError,
  type RegpBuildErrorCode,
  regp,
} from "../../../../src/protocol/robots/regp/builder.js";
import {
  type Block,
  type BlockSection,
  type IpRule,
  type PathRule,
  readRegpDocument,
  type RegpDocument,
  type Section,
  type Sequence,
  type Setting,
} from "../../../../src/protocol/robots/regp/document.js";
import { MAX_BRACE_DEPTH } from "../../../../src/protocol/robots/regp/layout.js";
import type { AcceptItem } from "../../../../src/protocol/robots/regp/values/accept-list.js";
import type { CookiePair } from "../../../../src/protocol/robots/regp/values/cookie.js";
import type { HostName } from "../../../../src/protocol/robots/regp/values/host.js";
import { formatIp, type IpPattern } from "../../../../src/protocol/robots/regp/values/ip.js";
import type { Rate } from "../../../../src/protocol/robots/regp/values/rate.js";
import {
  type CalendarDate,
  type DatedTimeExpression,
  daysInMonth,
  instantOf,
  type TimeExpression,
  type TimeSpan,
} from "../../../../src/protocol/robots/regp/values/rfc822-time.js";

const FIXTURES = new URL("../../../../../test/fixtures/regp/", import.meta.url);
const SAMPLE = readFileSync(new URL("paper-sample.txt", FIXTURES), "utf8");
const NEWS = readFileSync(new URL("news-experiment.txt", FIXTURES), "utf8");

const RUNS = 300;

/** Reads text that must read cleanly. */
function readClean(text: string): RegpDocument {
  const { document, diagnostics } = readRegpDocument(text);
  assert.deepEqual(diagnostics, [], `diagnostics for:\n${text}`);
  return document;
}

// ---- the paper's files ---------------------------------------------------------------------

// seeds/003 §3.2, the sample file, written by hand with the convenience API.
const sampleByHand = () =>
  regp({ lastModified: "30 Oct 2014 04:31:17 UT" })
    .sequence({ agents: ["WebCrawler"] }, (s) => s.disallow("/data").allow("/data/open"))
    .sequence({ agents: ["infoseeker", "wiseRobot"] }, (s) =>
      s
        .allow("/info")
        .allow("/news")
        .block({ agents: ["infoseeker"], paths: [allow("/info/hot")] }, (b) => b.crawlDelay(5)),
    )
    .global((g) =>
      g
        .sitemap("http://www.example.com/documents/example_sitemap.xml")
        .visitTime("1:00-16:00 UT")
        .language("zh-cn", "zh"),
    );

// seeds/003 §5, the news site's robots.txt, written with typed values.
const newsByHand = () =>
  regp({
    lastModified: {
      date: { year: 2015, month: 3, day: 19 },
      seconds: 12 * 3600,
      offsetMinutes: 8 * 60,
    },
  })
    .sequence({ agents: ["*"] }, (s) =>
      s
        .disallow("/login.do")
        .disallow("/reg.do")
        .disallow("/newsRelease.do")
        .requestRate({ requests: 120, per: 1, unit: "m" })
        .block({ paths: [allow("/newsitem.do?")] }, (b) => b.crawlDelay(5))
        .block({ paths: [allow("/html/")] }, (b) => b.crawlDelay(1)),
    )
    .global((g) =>
      g
        .sitemap("http://10.60.149.65:8089/test1/sitemap.xml")
        .cookie([{ name: "user", value: "robot" }])
        .language({ value: "zh-CN", q: 1 })
        .encoding("gzip", "deflate"),
    );

describe("buildRegp: the files of seeds/003", () => {
  it("§3.2 sample: the fixture reads without diagnostics", () => {
    readClean(SAMPLE);
  });

  it("§3.2 sample: written with the builder, reads back as the fixture reads", () => {
    assert.deepEqual(readClean(sampleByHand().toString()), readClean(SAMPLE));
  });

  it("§3.2 sample: the document is what the paper describes", () => {
    const doc = readClean(SAMPLE);
    assert.equal(doc.version, "3.0");
    assert.deepEqual(
      doc.sequences.map((s) => s.agents),
      [["WebCrawler"], ["infoseeker", "wiseRobot"]],
    );
    const block = doc.sequences[1]?.section.blocks[0];
    assert.deepEqual(block?.agents, ["infoseeker"]);
    assert.deepEqual(block?.paths, [{ allow: true, path: "/info/hot" }]);
    assert.deepEqual(block?.section.settings, [{ kind: "crawl-delay", seconds: 5 }]);
    assert.deepEqual(
      doc.global.settings.map((s) => s.kind),
      ["sitemap", "visit-time", "language"],
    );
  });

  it("§5 experiment: the fixture reads without diagnostics", () => {
    readClean(NEWS);
  });

  it("§5 experiment: written with the builder, reads back as the fixture reads", () => {
    assert.deepEqual(readClean(newsByHand().toString()), readClean(NEWS));
  });

  it("§5 experiment: the text is laid out as the paper prints it (header, blank, sequence, blank, global)", () => {
    assert.equal(
      newsByHand().toString(),
      [
        "Robot-version: 3.0",
        "Last-modified: 19 Mar 2015 12:00 +0800",
        "",
        "User-agent: *",
        "Disallow: /login.do",
        "Disallow: /reg.do",
        "Disallow: /newsRelease.do",
        "Request-rate: 120/m",
        "{",
        "  Allow: /newsitem.do?",
        "  Crawl-delay: 5",
        "}",
        "{",
        "  Allow: /html/",
        "  Crawl-delay: 1",
        "}",
        "",
        "Sitemap: http://10.60.149.65:8089/test1/sitemap.xml",
        "Cookie: user=robot",
        "Language: zh-CN",
        "Encoding: gzip, deflate",
        "",
      ].join("\n"),
    );
  });

  it("§5 experiment: reading the fixture and writing it again gives the same document", () => {
    const doc = readClean(NEWS);
    assert.deepEqual(readClean(buildRegp(doc)), doc);
  });

  it("§5 variants: Visit-time 21:00:00 +0800-08:00:00 +0800 and Language: fr", () => {
    const text = newsByHand()
      .global((g) => g.visitTime("21:00:00 +0800-08:00:00 +0800").language("fr"))
      .toString();
    const settings = readClean(text).global.settings;
    assert.deepEqual(settings.at(-2), {
      kind: "visit-time",
      span: {
        start: { date: null, seconds: 21 * 3600, offsetMinutes: 480 },
        end: { date: null, seconds: 8 * 3600, offsetMinutes: 480 },
      },
    });
    assert.deepEqual(settings.at(-1), { kind: "language", items: [{ value: "fr", q: 1 }] });
  });
});

// ---- layout details ------------------------------------------------------------------------

describe("buildRegp: layout (seeds/003 §3.2, Table 2)", () => {
  it("Robot-version is the first line and Last-modified the second (§3.2.1, §3.2.2)", () => {
    const lines = sampleByHand().toString().split("\n");
    assert.equal(lines[0], "Robot-version: 3.0");
    assert.equal(lines[1], "Last-modified: 30 Oct 2014 04:31:17 UT");
    assert.equal(lines[2], "");
  });

  it("a header comment is written as ## lines under the header (Appendix `head`), one per line", () => {
    const text = sampleByHand().toString({ comment: "written by heed\n\nfor the tests" });
    assert.deepEqual(text.split("\n").slice(0, 6), [
      "Robot-version: 3.0",
      "Last-modified: 30 Oct 2014 04:31:17 UT",
      "## written by heed",
      "##",
      "## for the tests",
      "",
    ]);
    assert.deepEqual(readClean(text), readClean(sampleByHand().toString()));
  });

  it("nested blocks are indented two spaces per depth; the global section comes last", () => {
    const text = regp()
      .global((g) => g.host("www.example.com"))
      .sequence({ agents: ["a"], ips: [ipDisallow("222.69.*.*"), ipAllow("222.69.212.14")] }, (s) =>
        s.block({ agents: ["b"] }, (b) =>
          b.block({ paths: [disallow("/x")] }, (c) => c.ipDelay(0.5)).charset("utf-8;q=0.7"),
        ),
      )
      .toString();
    assert.equal(
      text,
      [
        "Robot-version: 3.0",
        "",
        "User-agent: a",
        "Ip-disallow: 222.69.*.*",
        "Ip-allow: 222.69.212.14",
        "{",
        "  User-agent: b",
        "  Charset: utf-8;q=0.7",
        "  {",
        "    Disallow: /x",
        "    Ip-delay: 0.5",
        "  }",
        "}",
        "",
        "Host: www.example.com",
        "",
      ].join("\n"),
    );
  });

  it("a file with no sequences and an empty global section is the header alone", () => {
    assert.equal(regp().toString(), "Robot-version: 3.0\n");
    assert.deepEqual(readClean(regp().toString()), regp().toDocument());
  });

  it("a sequence with Ip lines only is written without User-agent (§3.2.4 implies `*`)", () => {
    const text = regp()
      .sequence({ ips: [ipDisallow("10.0.0.0/8")] }, (s) => s.disallow("/"))
      .toString();
    assert.equal(text, "Robot-version: 3.0\n\nIp-disallow: 10.0.0.0/8\nDisallow: /\n");
    assert.deepEqual(readClean(text).sequences[0]?.agents, []);
  });

  it("every Table 3 field is written under its own name", () => {
    const text = regp()
      .sequence({ agents: ["*"] }, (s) =>
        s
          .crawlDelay(5)
          .ipDelay(1)
          .requestRate("500/h")
          .ipRate("1/5s")
          .visitTime("01:00 +0800-06:00 +0800")
          .timeForbidden("30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT")
          .language("en-us,en")
          .encoding("gzip,deflate")
          .charset("gb2312,utf-8")
          .cookie("visitor=crawler")
          .mirrorSite("www.example.com")
          .sitemap("http://www.example.com/sitemap.xml")
          .host("www.example.com")
          .indexPage("/news/")
          .change("always", "/a")
          .change("hourly", "/news/newslist.html")
          .change("daily", "/news/hot/.html*")
          .change("weekly", "/w")
          .change("monthly", "/m")
          .change("yearly", "/y")
          .change("never", "/n")
          .extension("X-Note", "kept as written"),
      )
      .toString();
    const keys = text
      .split("\n")
      .slice(3, -1)
      .map((l) => l.slice(0, l.indexOf(":")));
    assert.deepEqual(keys, [
      "Crawl-delay",
      "Ip-delay",
      "Request-rate",
      "Ip-rate",
      "Visit-time",
      "Time-forbidden",
      "Language",
      "Encoding",
      "Charset",
      "Cookie",
      "Mirror-site",
      "Sitemap",
      "Host",
      "Index-page",
      "Change-always",
      "Change-hourly",
      "Change-daily",
      "Change-weekly",
      "Change-monthly",
      "Change-yearly",
      "Change-never",
      "X-Note",
    ]);
    const settings = readClean(text).sequences[0]?.section.settings ?? [];
    assert.equal(settings.length, keys.length);
    assert.deepEqual(settings.at(-1), {
      kind: "extension",
      key: "X-Note",
      value: "kept as written",
    });
  });
});

// ---- what the writer refuses ---------------------------------------------------------------

const BASE: RegpDocument = {
  version: "3.0",
  lastModified: null,
  sequences: [{ agents: ["*"], ips: [], section: { rules: [], settings: [], blocks: [] } }],
  global: { rules: [], settings: [], blocks: [] },
};

const withSequence = (sequence: Partial<Sequence>): RegpDocument => ({
  ...BASE,
  sequences: [{ agents: ["*"], ips: [], section: EMPTY_SECTION, ...sequence }],
});
const withRules = (...rules: PathRule[]) => withSequence({ section: { ...EMPTY_SECTION, rules } });
const withSettings = (...settings: Setting[]) =>
  withSequence({ section: { ...EMPTY_SECTION, settings } });
const EMPTY_SECTION: Section = { rules: [], settings: [], blocks: [] };

function nested(depth: number): Block {
  let block: Block = { agents: [], ips: [], paths: [], section: { settings: [], blocks: [] } };
  for (let d = 1; d < depth; d++) {
    block = { agents: [], ips: [], paths: [], section: { settings: [], blocks: [block] } };
  }
  return block;
}

describe("buildRegp refuses what the format cannot carry (a TypeError with a code)", () => {
  const CASES: readonly [
    why: string,
    doc: () => RegpDocument,
    code: RegpBuildErrorCode,
    mentions: readonly string[],
  ][] = [
    [
      "a path not starting with / or * (§3.2.5)",
      () => withRules(disallow("tmp")),
      "bad-value",
      ['"tmp"', '"/"'],
    ],
    ["an empty path", () => withRules(allow("")), "bad-value", ['""']],
    ["a path with a space", () => withRules(allow("/a b")), "bad-value", ["space"]],
    [
      "a path with ##, which would start a comment (§3.2)",
      () => withRules(allow("/a##b")),
      "unwritable-text",
      ['"##"'],
    ],
    [
      "a path with a line break",
      () => withRules(allow("/a\nDisallow: /")),
      "unwritable-text",
      ["line break"],
    ],
    [
      "a User-agent with whitespace",
      () => withSequence({ agents: ["web crawler"] }),
      "bad-value",
      ['"web crawler"'],
    ],
    ["an empty User-agent", () => withSequence({ agents: [""] }), "bad-value", ["User-agent"]],
    [
      "a User-agent with ##",
      () => withSequence({ agents: ["bot##x"] }),
      "unwritable-text",
      ['"##"'],
    ],
    [
      "a User-agent with a line break",
      () => withSequence({ agents: ["bot\r"] }),
      "unwritable-text",
      ["line break"],
    ],
    [
      "an empty sequence target",
      () => withSequence({ agents: [] }),
      "empty-target",
      ["User-agent", "Ip"],
    ],
    [
      "Robot-version 2.0 (§3.2.1: the 1997 rules)",
      () => ({ ...BASE, version: "2.0" }),
      "bad-version",
      ['"2.0"'],
    ],
    [
      "a version that is not digits.digits",
      () => ({ ...BASE, version: "3" }),
      "bad-version",
      ['"3"'],
    ],
    [
      "negative Crawl-delay",
      () => withSettings({ kind: "crawl-delay", seconds: -1 }),
      "bad-value",
      ["Crawl-delay", "-1"],
    ],
    [
      "NaN Ip-delay",
      () => withSettings({ kind: "ip-delay", seconds: Number.NaN }),
      "bad-value",
      ["Ip-delay"],
    ],
    [
      "a rate of 0 requests (§3.2.7)",
      () =>
        withSettings({
          kind: "request-rate",
          rate: { requests: 0, per: 1, unit: "m", seconds: 60 },
        }),
      "bad-value",
      ["Request-rate", '"0/m"'],
    ],
    [
      "a rate whose seconds disagree with per × unit",
      () =>
        withSettings({ kind: "ip-rate", rate: { requests: 1, per: 2, unit: "m", seconds: 60 } }),
      "bad-value",
      ["Ip-rate", "120"],
    ],
    [
      "a rate over a fractional window",
      () =>
        withSettings({
          kind: "request-rate",
          rate: { requests: 1, per: 1.5, unit: "s", seconds: 1.5 },
        }),
      "bad-value",
      ["whole number"],
    ],
    [
      "a dated span that ends before it starts (§3.2.8)",
      () =>
        withSettings({
          kind: "time-forbidden",
          span: {
            start: { date: { year: 2014, month: 11, day: 2 }, seconds: 0, offsetMinutes: 0 },
            end: { date: { year: 2014, month: 10, day: 30 }, seconds: 0, offsetMinutes: 0 },
          },
        }),
      "bad-value",
      ["Time-forbidden", "ends after it starts"],
    ],
    [
      "a span dated on one end only",
      () =>
        withSettings({
          kind: "visit-time",
          span: {
            start: { date: { year: 2014, month: 11, day: 2 }, seconds: 0, offsetMinutes: 0 },
            end: { date: null, seconds: 0, offsetMinutes: 0 },
          },
        }),
      "bad-value",
      ["Visit-time", "both ends"],
    ],
    [
      "an empty Language list",
      () => withSettings({ kind: "language", items: [] }),
      "bad-value",
      ["Language"],
    ],
    [
      "a Language item holding a comma (it would read as two)",
      () => withSettings({ kind: "language", items: [{ value: "en,fr", q: 1 }] }),
      "bad-value",
      ["Language", "2 item(s)"],
    ],
    [
      "an Encoding q-value with four decimals (RFC 2616 §3.9)",
      () => withSettings({ kind: "encoding", items: [{ value: "gzip", q: 0.1234 }] }),
      "bad-value",
      ["q-value"],
    ],
    [
      "a Cookie value holding ';' (it would read as two pairs)",
      () => withSettings({ kind: "cookie", pairs: [{ name: "a", value: "1; b=2" }] }),
      "bad-value",
      ["Cookie"],
    ],
    [
      "a Cookie value with ## (cookie-octets allow #)",
      () => withSettings({ kind: "cookie", pairs: [{ name: "a", value: "x##y" }] }),
      "unwritable-text",
      ['"##"'],
    ],
    [
      "a Host whose kind disagrees with its name",
      () =>
        withSettings({
          kind: "host",
          host: { scheme: null, kind: "dns", host: "192.0.2.1", port: null },
        }),
      "bad-value",
      ["Host", "ipv4"],
    ],
    [
      "a Mirror-site with a bad port",
      () =>
        withSettings({
          kind: "mirror-site",
          host: { scheme: null, kind: "dns", host: "example.com", port: 70000 },
        }),
      "bad-value",
      ["port"],
    ],
    [
      "a relative Sitemap URL",
      () => withSettings({ kind: "sitemap", url: "/sitemap.xml" }),
      "bad-value",
      ["relative"],
    ],
    [
      "a Sitemap URL in < >, which reads back without them",
      () => withSettings({ kind: "sitemap", url: "<http://example.com/s.xml>" }),
      "bad-value",
      ["< >"],
    ],
    [
      "an Index-page that is not a path",
      () => withSettings({ kind: "index-page", path: "news/" }),
      "bad-value",
      ["Index-page"],
    ],
    [
      "an IP pattern with an octet over 255",
      () =>
        withSequence({
          ips: [{ allow: false, pattern: { kind: "octets", octets: [300, "*", "*", "*"] } }],
        }),
      "bad-value",
      ["Ip-disallow", "300"],
    ],
    [
      "an extension key that is a Table 3 field",
      () => withSettings({ kind: "extension", key: "Disallow", value: "/" }),
      "reserved-key",
      ['"Disallow"', "REGP field"],
    ],
    [
      "an extension key that readers take for User-agent",
      () => withSettings({ kind: "extension", key: "useragent", value: "x" }),
      "reserved-key",
      ['"useragent"'],
    ],
    [
      "an extension key with a space",
      () => withSettings({ kind: "extension", key: "X Note", value: "x" }),
      "reserved-key",
      ["token"],
    ],
    [
      "an extension value with outer whitespace, which readers trim",
      () => withSettings({ kind: "extension", key: "X-Note", value: " x" }),
      "unwritable-text",
      ["whitespace"],
    ],
    [
      "a block holding rules of its own (they are its target, `paths`)",
      () =>
        withSequence({
          section: {
            ...EMPTY_SECTION,
            blocks: [
              {
                agents: [],
                ips: [],
                paths: [],
                section: { rules: [allow("/x")], settings: [], blocks: [] } as BlockSection,
              },
            ],
          },
        }),
      "bad-value",
      ["paths"],
    ],
    [
      `blocks nested deeper than ${MAX_BRACE_DEPTH}`,
      () => withSequence({ section: { ...EMPTY_SECTION, blocks: [nested(MAX_BRACE_DEPTH + 1)] } }),
      "too-deep",
      [String(MAX_BRACE_DEPTH)],
    ],
    [
      "a line longer than readers read",
      () => withRules(allow(`/${"a".repeat(17_000)}`)),
      "too-long",
      ["characters"],
    ],
  ];
  for (const [why, doc, code, mentions] of CASES) {
    it(why, () => {
      assert.throws(
        () => buildRegp(doc()),
        (error: unknown) => {
          assert.ok(error instanceof TypeError, "a TypeError");
          assert.ok(error instanceof RegpBuildError);
          assert.equal(error.code, code, error.message);
          assert.ok(!/[\r\n]/.test(error.message), `one line: ${JSON.stringify(error.message)}`);
          for (const m of mentions) {
            assert.ok(error.message.includes(m), `${JSON.stringify(error.message)} mentions ${m}`);
          }
          return true;
        },
      );
    });
  }

  it("the error says where the value is", () => {
    const doc = withSequence({
      section: {
        ...EMPTY_SECTION,
        blocks: [
          {
            ...nested(1),
            section: { settings: [{ kind: "crawl-delay", seconds: -2 }], blocks: [] },
          },
        ],
      },
    });
    assert.throws(() => buildRegp(doc), {
      name: "RegpBuildError",
      where: "sequences[0].section.blocks[0].section.settings[0]",
    });
  });

  it(`blocks ${MAX_BRACE_DEPTH} deep are still written and read`, () => {
    const doc = withSequence({ section: { ...EMPTY_SECTION, blocks: [nested(MAX_BRACE_DEPTH)] } });
    assert.deepEqual(readClean(buildRegp(doc)), doc);
  });

  it("a comment may hold anything but is split at line breaks", () => {
    const text = buildRegp(BASE, { comment: "a ## b\r\nc" });
    assert.deepEqual(text.split("\n").slice(1, 3), ["## a ## b", "## c"]);
  });
});

// ---- the convenience API -------------------------------------------------------------------

describe("regp(): the convenience API", () => {
  it("each call returns a new builder and leaves the old one as it was", () => {
    const start = regp();
    const one = start.sequence({ agents: ["a"] });
    const two = one.sequence({ agents: ["b"] }, (s) => s.disallow("/"));
    assert.equal(start.toDocument().sequences.length, 0);
    assert.equal(one.toDocument().sequences.length, 1);
    assert.equal(two.toDocument().sequences.length, 2);
  });

  it("global() adds to what the global section already holds", () => {
    const doc = regp()
      .global((g) => g.sitemap("http://example.com/a.xml"))
      .global((g) => g.sitemap("http://example.com/b.xml"))
      .toDocument();
    assert.deepEqual(doc.global.settings, [
      { kind: "sitemap", url: "http://example.com/a.xml" },
      { kind: "sitemap", url: "http://example.com/b.xml" },
    ]);
  });

  it("values given as text are read by the field's own parser", () => {
    const doc = regp({ lastModified: "Thu, 30 Oct 2014 04:31 UT" })
      .sequence({ agents: ["*"], ips: [ipAllow("222.69.212.*")] }, (s) =>
        s.requestRate("500/h").host("https://WWW.Example.com:8443/").cookie("a=1; b=2"),
      )
      .toDocument();
    assert.deepEqual(doc.lastModified, {
      date: { year: 2014, month: 10, day: 30 },
      seconds: 4 * 3600 + 31 * 60,
      offsetMinutes: 0,
    });
    assert.deepEqual(doc.sequences[0]?.ips, [
      { allow: true, pattern: { kind: "octets", octets: [222, 69, 212, "*"] } },
    ]);
    assert.deepEqual(doc.sequences[0]?.section.settings, [
      { kind: "request-rate", rate: { requests: 500, per: 1, unit: "h", seconds: 3600 } },
      { kind: "host", host: { scheme: "https", kind: "dns", host: "www.example.com", port: 8443 } },
      {
        kind: "cookie",
        pairs: [
          { name: "a", value: "1" },
          { name: "b", value: "2" },
        ],
      },
    ]);
  });

  it("a typed rate without `per` is per 1 unit", () => {
    const doc = regp()
      .sequence({ agents: ["*"] }, (s) => s.ipRate({ requests: 2, unit: "s" }))
      .toDocument();
    assert.deepEqual(doc.sequences[0]?.section.settings, [
      { kind: "ip-rate", rate: { requests: 2, per: 1, unit: "s", seconds: 1 } },
    ]);
  });

  const REFUSED: readonly [why: string, run: () => unknown, mention: string][] = [
    ["a rate text that does not parse", () => regp().global((g) => g.requestRate("120/d")), '"d"'],
    [
      "a time span text that does not parse",
      () => regp().global((g) => g.visitTime("9-5")),
      "Visit-time",
    ],
    ["an IP text that does not parse", () => ipDisallow("222.69..*"), '".."'],
    ["a Last-modified without a date (§3.2.2)", () => regp({ lastModified: "04:31 UT" }), "date"],
    [
      "Allow inside a block (a block's paths are its target)",
      () =>
        regp().sequence({ agents: ["*"] }, (s) =>
          s.block({}, (b) => (b as unknown as { allow(p: string): typeof b }).allow("/x")),
        ),
      "paths",
    ],
    [
      "toDocument() of a document that cannot be written",
      () => regp().sequence({}).toDocument(),
      "User-agent",
    ],
  ];
  for (const [why, run, mention] of REFUSED) {
    it(`refuses ${why} with a RegpBuildError`, () => {
      assert.throws(run, (error: unknown) => {
        assert.ok(error instanceof RegpBuildError, String(error));
        assert.ok(error.message.includes(mention), `${error.message} mentions ${mention}`);
        return true;
      });
    });
  }
});

// ---- the reader ----------------------------------------------------------------------------

describe("readRegpDocument", () => {
  it("keeps agents in the case they are written (matching ignores case, §3.2.3)", () => {
    const doc = readClean("Robot-version: 3.0\n\nUser-agent: InfoSeeker\nDisallow: /\n");
    assert.deepEqual(doc.sequences[0]?.agents, ["InfoSeeker"]);
  });

  it("keeps an unknown key as an extension, with the key as written (Appendix `extension`)", () => {
    const doc = readClean(
      "Robot-version: 3.0\n\nUser-agent: *\nX-Robots-Note: be kind ## a comment\n",
    );
    assert.deepEqual(doc.sequences[0]?.section.settings, [
      { kind: "extension", key: "X-Robots-Note", value: "be kind" },
    ]);
  });

  it("a lone # belongs to the value (seeds/003 §3.2: ## starts comments)", () => {
    const doc = readClean("Robot-version: 3.0\n\nUser-agent: *\nDisallow: /#frag ## comment\n");
    assert.deepEqual(doc.sequences[0]?.section.rules, [{ allow: false, path: "/#frag" }]);
  });

  it("an Index-page written as a URL is kept as its path (Appendix `httpurl`)", () => {
    const doc = readClean("Robot-version: 3.0\n\nIndex-page: http://www.example.com/news/\n");
    assert.deepEqual(doc.global.settings, [{ kind: "index-page", path: "/news/" }]);
  });

  it("reports a value its parser refuses, and leaves the line out", () => {
    const { document, diagnostics } = readRegpDocument(
      "Robot-version: 3.0\n\nUser-agent: *\nCrawl-delay: soon\nRequest-rate: 1/m\n",
    );
    assert.deepEqual(document.sequences[0]?.section.settings, [
      { kind: "request-rate", rate: { requests: 1, per: 1, unit: "m", seconds: 60 } },
    ]);
    assert.deepEqual(
      diagnostics.map((d) => [d.line, d.code]),
      [[4, "bad-value"]],
    );
    assert.match(diagnostics[0]?.message ?? "", /^Crawl-delay "soon": expected/);
  });

  it("without Robot-version: version 1.0 (§3.2.1 default) and a warning", () => {
    const { document, diagnostics } = readRegpDocument("User-agent: *\nDisallow: /\n");
    assert.equal(document.version, "1.0");
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ["missing-robot-version"],
    );
  });

  it("a Last-modified without a date is reported and left out (§3.2.2)", () => {
    const { document, diagnostics } = readRegpDocument(
      "Robot-version: 3.0\nLast-modified: 04:31 UT\n",
    );
    assert.equal(document.lastModified, null);
    assert.deepEqual(
      diagnostics.map((d) => [d.line, d.code]),
      [[2, "bad-value"]],
    );
  });

  it("a second header line is reported; the first counts", () => {
    const { document, diagnostics } = readRegpDocument(
      "Robot-version: 3.0\nRobot-version: 3.1\nLast-modified: 1 Jan 2015 00:00 UT\n",
    );
    assert.equal(document.version, "3.0");
    assert.deepEqual(
      diagnostics.map((d) => [d.line, d.code]),
      [[2, "duplicate-header"]],
    );
  });

  it("an empty User-agent is reported and left out", () => {
    const { document, diagnostics } = readRegpDocument(
      "Robot-version: 3.0\n\nUser-agent:\nUser-agent: a\nDisallow: /\n",
    );
    assert.deepEqual(document.sequences[0]?.agents, ["a"]);
    assert.deepEqual(
      diagnostics.map((d) => [d.line, d.code]),
      [[3, "bad-value"]],
    );
  });

  it("accepts bytes as well as text", () => {
    const bytes = new TextEncoder().encode(NEWS);
    assert.deepEqual(readRegpDocument(bytes).document, readClean(NEWS));
  });
});

// ---- the round trip ------------------------------------------------------------------------

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
// RFC 2616 §2.2 token characters.
const TOKEN = `${LETTERS}${DIGITS}!#$%&'*+-.^_\`|~`;
// RFC 6265 §4.1.1 cookie-octets: visible ASCII but `"`, `,`, `;` and `\`.
const COOKIE_OCTET = [...Array(0x7e - 0x21 + 1).keys()]
  .map((i) => String.fromCharCode(0x21 + i))
  .filter((c) => !'",;\\'.includes(c))
  .join("");
const PATH_CHARS = `${LETTERS}${DIGITS}/-_.~*$?=&%#:;@!,+'()`;
const PRINTABLE = [...Array(0x7e - 0x20 + 1).keys()]
  .map((i) => String.fromCharCode(0x20 + i))
  .join("");

const noComment = (s: string) => !s.includes("##");
const text = (alphabet: string, minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });

const agent = fc.oneof(
  fc.constant("*"),
  text(`${LETTERS}${DIGITS}-_./*#:`, 1, 12).filter(noComment),
);
const path = fc
  .tuple(fc.constantFrom("/", "*"), text(PATH_CHARS, 0, 14))
  .map(([first, rest]) => first + rest)
  .filter(noComment);
const pathRule: fc.Arbitrary<PathRule> = fc.record({ allow: fc.boolean(), path });

const octet = fc.integer({ min: 0, max: 255 });
const bytes = (n: number) =>
  fc.array(fc.oneof(octet, fc.constant(0)), { minLength: n, maxLength: n });
const ipPattern: fc.Arbitrary<IpPattern> = fc.oneof(
  fc.constant<IpPattern>({ kind: "any" }),
  fc
    .array(fc.oneof(octet, fc.constant<"*">("*")), { minLength: 4, maxLength: 4 })
    .filter((octets) => octets.includes("*"))
    .map((octets): IpPattern => ({ kind: "octets", octets })),
  bytes(4).map((b): IpPattern => ({ kind: "address", address: { family: 4, bytes: b } })),
  bytes(16).map((b): IpPattern => ({ kind: "address", address: { family: 6, bytes: b } })),
  fc
    .tuple(bytes(4), fc.integer({ min: 0, max: 32 }))
    .map(([b, prefix]): IpPattern => ({ kind: "cidr", address: { family: 4, bytes: b }, prefix })),
  fc
    .tuple(bytes(16), fc.integer({ min: 0, max: 128 }))
    .map(([b, prefix]): IpPattern => ({ kind: "cidr", address: { family: 6, bytes: b }, prefix })),
);
const ipRule: fc.Arbitrary<IpRule> = fc.record({ allow: fc.boolean(), pattern: ipPattern });

// Decimals as doubles: formatDecimal writes the shortest digits that read back exactly.
const notNegativeZero = (x: number) => (Object.is(x, -0) ? 0 : x);
const seconds = fc.oneof(
  fc.nat({ max: 3600 }),
  fc.double({ min: 0, max: 1e6, noNaN: true }).map(notNegativeZero),
);
const rate: fc.Arbitrary<Rate> = fc
  .record({
    requests: fc.oneof(
      fc.integer({ min: 1, max: 100_000 }),
      fc.double({ min: Number.MIN_VALUE, max: 1e9, noNaN: true }),
    ),
    per: fc.integer({ min: 1, max: 1000 }),
    unit: fc.constantFrom("s" as const, "m" as const, "h" as const),
  })
  .map((r) => ({ ...r, seconds: r.per * { s: 1, m: 60, h: 3600 }[r.unit] }));

const calendarDate: fc.Arbitrary<CalendarDate> = fc
  .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
  .chain(({ year, month }) =>
    fc.integer({ min: 1, max: daysInMonth(year, month) }).map((day) => ({ year, month, day })),
  );
// RFC 822 ±hhmm: hours 00-23, minutes 00-59.
const offset = fc.option(
  fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }).map(notNegativeZero),
  { nil: null },
);
const secondsOfDay = fc.integer({ min: 0, max: 86_399 });
const timeOfDay: fc.Arbitrary<TimeExpression> = fc.record({
  date: fc.constant(null),
  seconds: secondsOfDay,
  offsetMinutes: offset,
});
const datedTime: fc.Arbitrary<DatedTimeExpression> = fc.record({
  date: calendarDate,
  seconds: secondsOfDay,
  offsetMinutes: offset,
});

/** seeds/003 §3.2.8: "If only a single time expression contains the time zone", both have it. */
function sharedZone(span: TimeSpan): TimeSpan {
  return {
    start: { ...span.start, offsetMinutes: span.start.offsetMinutes ?? span.end.offsetMinutes },
    end: { ...span.end, offsetMinutes: span.end.offsetMinutes ?? span.start.offsetMinutes },
  };
}

const span: fc.Arbitrary<TimeSpan> = fc.oneof(
  // Daily spans may wrap past midnight.
  fc.record({ start: timeOfDay, end: timeOfDay }),
  // Dated spans end no earlier than they start, their zones shared as a reader shares them.
  fc.tuple(datedTime, datedTime).map(([a, b]) => {
    const shared = sharedZone({ start: a, end: b });
    const ordered =
      instantOf(shared.end as DatedTimeExpression) >=
      instantOf(shared.start as DatedTimeExpression);
    return ordered ? { start: a, end: b } : { start: b, end: a };
  }),
);

const q = fc.oneof(
  fc.constant(1),
  fc.integer({ min: 0, max: 1000 }).map((k) => k / 1000),
);
const languageRange = fc.oneof(
  fc.constant("*"),
  fc.stringMatching(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8}){0,2}$/),
);
const tokenValue = text(TOKEN, 1, 10).filter(noComment);
const acceptItems = (value: fc.Arbitrary<string>) =>
  fc.array(fc.record({ value, q }), { minLength: 1, maxLength: 5 });

const cookiePairs: fc.Arbitrary<CookiePair[]> = fc
  .array(
    fc.record({
      name: tokenValue,
      value: fc.oneof(
        text(COOKIE_OCTET, 0, 8),
        text(COOKIE_OCTET, 0, 6).map((v) => `"${v}"`),
      ),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .filter((pairs) => noComment(pairs.map((p) => `${p.name}=${p.value}`).join("; ")));

const label = fc.stringMatching(/^[A-Za-z0-9]([A-Za-z0-9-]{0,8}[A-Za-z0-9])?$/);
const topLabel = fc.stringMatching(/^[A-Za-z]([A-Za-z0-9-]{0,8}[A-Za-z0-9])?$/);
const dnsName = fc
  .tuple(fc.array(label, { maxLength: 3 }), topLabel)
  .map(([labels, top]) => [...labels, top].join("."));
const port = fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: null });
const hostName: fc.Arbitrary<HostName> = fc
  .record({
    scheme: fc.constantFrom(null, "http" as const, "https" as const),
    port,
    name: fc.oneof(
      dnsName.map((host) => ({ kind: "dns" as const, host })),
      bytes(4).map((b) => ({ kind: "ipv4" as const, host: b.join(".") })),
      bytes(16).map((b) => ({ kind: "ipv6" as const, host: formatIp({ family: 6, bytes: b }) })),
    ),
  })
  .map(({ scheme, port, name }) => ({ scheme, port, ...name }));

const url = fc
  .tuple(
    fc.constantFrom("http", "https", "HTTP"),
    fc.oneof(
      dnsName,
      bytes(4).map((b) => b.join(".")),
    ),
    port,
    text(PATH_CHARS, 0, 14),
  )
  .map(([scheme, host, p, rest]) => `${scheme}://${host}${p === null ? "" : `:${p}`}/${rest}`)
  .filter(noComment);

const frequency = fc.constantFrom<ChangeFrequency>(
  "always",
  "hourly",
  "daily",
  "weekly",
  "monthly",
  "yearly",
  "never",
);
const extension = fc.record({
  kind: fc.constant("extension" as const),
  key: text(TOKEN, 1, 8)
    .map((k) => `X-${k}`)
    .filter(noComment),
  value: text(PRINTABLE, 0, 20)
    .map((v) => v.trim())
    .filter(noComment),
});

const setting: fc.Arbitrary<Setting> = fc.oneof(
  fc.record({ kind: fc.constantFrom("crawl-delay" as const, "ip-delay" as const), seconds }),
  fc.record({ kind: fc.constantFrom("request-rate" as const, "ip-rate" as const), rate }),
  fc.record({ kind: fc.constantFrom("visit-time" as const, "time-forbidden" as const), span }),
  fc.record({ kind: fc.constant("language" as const), items: acceptItems(languageRange) }),
  fc.record({
    kind: fc.constantFrom("encoding" as const, "charset" as const),
    items: acceptItems(tokenValue),
  }),
  fc.record({ kind: fc.constant("cookie" as const), pairs: cookiePairs }),
  fc.record({ kind: fc.constantFrom("mirror-site" as const, "host" as const), host: hostName }),
  fc.record({ kind: fc.constant("sitemap" as const), url }),
  fc.record({ kind: fc.constant("index-page" as const), path }),
  fc.record({ kind: fc.constant("change" as const), frequency, path }),
  extension,
);

const MAX_ITEMS = 5;
const MAX_BLOCKS = 3;
const settings = fc.array(setting, { maxLength: MAX_ITEMS });

/** Blocks up to `levels` deep. */
function blocks(levels: number): fc.Arbitrary<Block[]> {
  if (levels === 0) return fc.constant([]);
  const block: fc.Arbitrary<Block> = fc.record({
    agents: fc.array(agent, { maxLength: MAX_ITEMS }),
    ips: fc.array(ipRule, { maxLength: MAX_ITEMS }),
    paths: fc.array(pathRule, { maxLength: MAX_ITEMS }),
    section: fc.record({ settings, blocks: blocks(levels - 1) }),
  });
  return fc.array(block, { maxLength: levels === 3 ? MAX_BLOCKS : 2 });
}

const section: fc.Arbitrary<Section> = fc.record({
  rules: fc.array(pathRule, { maxLength: MAX_ITEMS }),
  settings,
  blocks: blocks(3),
});
const sequence: fc.Arbitrary<Sequence> = fc
  .record({
    agents: fc.array(agent, { maxLength: MAX_ITEMS }),
    ips: fc.array(ipRule, { maxLength: MAX_ITEMS }),
    section,
  })
  .filter((s) => s.agents.length + s.ips.length > 0);
const regpDocument: fc.Arbitrary<RegpDocument> = fc.record({
  version: fc.nat({ max: 20 }).map((minor) => `3.${minor}`),
  lastModified: fc.option(datedTime, { nil: null }),
  sequences: fc.array(sequence, { maxLength: 4 }),
  global: section,
});

/**
 * What the format does to a document on the way through, and nothing else: accept-list values
 * are read in lower case (RFC 2616 tokens and language ranges ignore case), DNS host names too
 * (RFC 1035 §2.3.3), and a zone written on one end of a span holds for both (seeds/003 §3.2.8).
 * Agents keep their case: the document keeps what the file writes.
 */
function asRead(doc: RegpDocument): RegpDocument {
  const lowerItems = (items: readonly AcceptItem[]) =>
    items.map((i) => ({ ...i, value: i.value.toLowerCase() }));
  const setting = (s: Setting): Setting => {
    switch (s.kind) {
      case "language":
      case "encoding":
      case "charset":
        return { ...s, items: lowerItems(s.items) };
      case "mirror-site":
      case "host":
        return s.host.kind === "dns"
          ? { ...s, host: { ...s.host, host: s.host.host.toLowerCase() } }
          : s;
      case "visit-time":
      case "time-forbidden":
        return { ...s, span: sharedZone(s.span) };
      default:
        return s;
    }
  };
  const block = (b: Block): Block => ({
    ...b,
    section: { settings: b.section.settings.map(setting), blocks: b.section.blocks.map(block) },
  });
  const sectionAsRead = (s: Section): Section => ({
    rules: s.rules,
    settings: s.settings.map(setting),
    blocks: s.blocks.map(block),
  });
  return {
    ...doc,
    sequences: doc.sequences.map((s) => ({ ...s, section: sectionAsRead(s.section) })),
    global: sectionAsRead(doc.global),
  };
}

describe("round trip (fast-check)", () => {
  it("readRegpDocument(buildRegp(doc)) is doc, as the format normalises it, with no diagnostics", () => {
    fc.assert(
      fc.property(regpDocument, (doc) => {
        const written = buildRegp(doc);
        const { document, diagnostics } = readRegpDocument(written);
        assert.deepEqual(diagnostics, [], written);
        // fast-check builds some objects without a prototype; the reader builds plain ones.
        assert.deepEqual(document, structuredClone(asRead(doc)), written);
      }),
      { numRuns: RUNS },
    );
  });

  it("once read, a document is written and read back to the same text", () => {
    fc.assert(
      fc.property(regpDocument, (doc) => {
        const written = buildRegp(readRegpDocument(buildRegp(doc)).document);
        assert.equal(buildRegp(readRegpDocument(written).document), written);
      }),
      { numRuns: RUNS },
    );
  });

  it("the text keeps the layout: header first, blank lines only between sections, braces paired", () => {
    fc.assert(
      fc.property(regpDocument, (doc) => {
        const lines = buildRegp(doc).split("\n");
        assert.equal(lines[0], `Robot-version: ${doc.version}`);
        assert.equal(lines.pop(), "", "ends with a line break");
        const blanks = lines.filter((l) => l === "").length;
        const sections =
          doc.sequences.length +
          (doc.global.rules.length + doc.global.settings.length + doc.global.blocks.length > 0
            ? 1
            : 0);
        assert.equal(blanks, sections);
        let depth = 0;
        for (const l of lines) {
          if (l.trim() === "}") depth--;
          assert.ok(depth >= 0);
          if (l !== "") assert.ok(l.startsWith("  ".repeat(depth)) && l[2 * depth] !== " ", l);
          if (l.trim() === "{") depth++;
        }
        assert.equal(depth, 0);
      }),
      { numRuns: RUNS },
    );
  });

  it("a ## or a line break put into any agent or path is refused, never written", () => {
    fc.assert(
      fc.property(
        regpDocument.filter((d) => d.sequences.length > 0),
        fc.constantFrom("##", "\n", "\r"),
        fc.boolean(),
        (doc, bad, inAgent) => {
          const [first, ...rest] = doc.sequences as [Sequence, ...Sequence[]];
          const broken: Sequence = inAgent
            ? { ...first, agents: [...first.agents, `a${bad}b`] }
            : { ...first, section: { ...first.section, rules: [allow(`/a${bad}b`)] } };
          assert.throws(() => buildRegp({ ...doc, sequences: [broken, ...rest] }), {
            name: "RegpBuildError",
            code: "unwritable-text",
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
