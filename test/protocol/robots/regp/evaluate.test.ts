// Evaluating REGP fields at their edges (seeds/003 §3.2.4-3.2.15, DESIGN §4): delays and rates,
// scope overrides, time windows, mirror/host, guidance, requirements, IP groups, odd queries.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Decision,
  parseRobots,
  type Robot,
  type RobotsPolicy,
} from "../../../../src/protocol/robots/index.js";
import { sharedPattern } from "../../../../src/protocol/robots/rule-table.js";

const HEADER = "Robot-version: 3.0\n\n";

function regp(body: string): { policy: RobotsPolicy; text: string } {
  const text = HEADER + body;
  return { policy: parseRobots(text), text };
}

function lineOf(text: string, line: string): number {
  const at = text.split("\n").findIndex((l) => l.trim() === line);
  assert.ok(at >= 0, `no line ${JSON.stringify(line)}`);
  return at + 1;
}

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  Date.UTC(y, mo - 1, d, h, mi, s, ms);

function at(policy: RobotsPolicy, when: number, path = "/page.html"): Decision {
  return policy.check(path, { agent: "bot", at: when });
}

describe("delays: Crawl-delay, Ip-delay and rates (the delay is the largest)", () => {
  const CASES: readonly [body: string, delay: number][] = [
    ["Crawl-delay: 2\nIp-delay: 3\nRequest-rate: 60/m\n", 3],
    ["Crawl-delay: 4\nIp-delay: 3\nRequest-rate: 60/m\n", 4],
    ["Crawl-delay: 2\nIp-delay: 3\nRequest-rate: 10/m\n", 6],
    ["Crawl-delay: 10\nIp-rate: 1/20s\n", 20],
    ["Request-rate: 500/h\n", 7.2],
    ["Request-rate: 500/h\nIp-rate: 1/5s\n", 7.2],
    ["Request-rate: 0.5/s\n", 2],
    ["Request-rate: 1/10m\n", 600],
    ["Crawl-delay: 0.25\n", 0.25],
    ["Crawl-delay: .5\n", 0.5],
    ["Crawl-delay: 0\n", 0],
    ["Ip-delay: 1.5\n", 1.5],
    ["Allow: /\n", 0],
  ];
  for (const [body, delay] of CASES) {
    it(`${body.trim().replace(/\n/g, "; ")} → ${delay} s`, () => {
      const { policy } = regp(`User-agent: *\n${body}`);
      const d = policy.check("/x", "bot");
      assert.equal(d.allowed, true);
      assert.equal(d.plan?.delaySeconds, delay);
    });
  }
  it("Crawl-delay and Ip-delay are both kept in the plan, with their lines", () => {
    const { policy, text } = regp("User-agent: *\nCrawl-delay: 2\nIp-delay: 3\n");
    const plan = policy.check("/x", "bot").plan;
    assert.deepEqual(plan?.crawlDelay, { value: 2, line: lineOf(text, "Crawl-delay: 2") });
    assert.deepEqual(plan?.ipDelay, { value: 3, line: lineOf(text, "Ip-delay: 3") });
  });
  it("Request-rate and Ip-rate are windows in the plan (§3.2.7)", () => {
    const { policy, text } = regp("User-agent: *\nRequest-rate: 500/h\nIp-rate: 10/30m\n");
    assert.deepEqual(policy.check("/x", "bot").plan?.rates, [
      { scope: "agent", requests: 500, seconds: 3600, line: lineOf(text, "Request-rate: 500/h") },
      { scope: "ip", requests: 10, seconds: 1800, line: lineOf(text, "Ip-rate: 10/30m") },
    ]);
  });
  it("a later rate of the same kind in the same scope replaces the earlier", () => {
    const { policy, text } = regp("User-agent: *\nRequest-rate: 500/h\nRequest-rate: 1/s\n");
    const plan = policy.check("/x", "bot").plan;
    assert.deepEqual(plan?.rates, [
      { scope: "agent", requests: 1, seconds: 1, line: lineOf(text, "Request-rate: 1/s") },
    ]);
    assert.equal(plan?.delaySeconds, 1);
  });
  it("crawlDelay(agent) answers the sequence's Crawl-delay", () => {
    const { policy } = regp("User-agent: slow\nCrawl-delay: 8\n\nUser-agent: *\nAllow: /\n");
    assert.equal(policy.crawlDelay("slowbot"), 8);
    assert.equal(policy.crawlDelay("fast"), null);
  });
});

describe("scopes: a more specific scope replaces an earlier value of the same kind", () => {
  it("a block overrides the sequence's Crawl-delay, for the paths it covers", () => {
    const { policy, text } = regp(
      "User-agent: *\nDisallow: /private\nCrawl-delay: 10\n{\nAllow: /fast/\nCrawl-delay: 1\n}\n",
    );
    const fast = policy.check("/fast/x", "bot").plan;
    assert.equal(fast?.delaySeconds, 1);
    assert.equal(fast?.crawlDelay?.line, lineOf(text, "Crawl-delay: 1"));
    assert.equal(policy.check("/slow/x", "bot").plan?.delaySeconds, 10);
  });
  it("the sequence overrides the global section, even with a smaller value", () => {
    const { policy } = regp("User-agent: a\nCrawl-delay: 2\n\nCrawl-delay: 4\n");
    assert.equal(policy.check("/x", "a").plan?.delaySeconds, 2);
    assert.equal(policy.check("/x", "b").plan?.delaySeconds, 4);
  });
  it("a global block sits between the global section and the sequence", () => {
    const { policy } = regp(
      "User-agent: a\nCrawl-delay: 2\n\nCrawl-delay: 4\n{\nAllow: /big/\nCrawl-delay: 8\n}\n",
    );
    assert.equal(policy.check("/big/x", "b").plan?.delaySeconds, 8);
    assert.equal(policy.check("/big/x", "a").plan?.delaySeconds, 2);
  });
  it("a block's Crawl-delay replaces the Crawl-delay only: the sequence's rate still holds", () => {
    const { policy } = regp(
      "User-agent: *\nRequest-rate: 1/10s\n{\nAllow: /x/\nCrawl-delay: 1\n}\n",
    );
    const plan = policy.check("/x/1", "bot").plan;
    assert.equal(plan?.crawlDelay?.value, 1);
    assert.equal(plan?.delaySeconds, 10);
  });
  it("the sequence's Language replaces the global one", () => {
    const { policy } = regp("User-agent: *\nLanguage: en\n\nLanguage: zh\n");
    assert.equal(policy.check("/x", { agent: "bot", languages: ["en"] }).allowed, true);
    const d = policy.check("/x", { agent: "bot", languages: ["zh"] });
    assert.equal(d.reason, "language");
  });
  it("a block's Visit-time replaces the global Visit-time for the paths it covers", () => {
    // Global: 00:00-12:00 UT; the block says /heavy/ only 01:00-05:00 UT.
    const { policy } = regp(
      "User-agent: *\nDisallow: /private\n{\nAllow: /heavy/\nVisit-time: 01:00-05:00 UT\n}\n\nVisit-time: 00:00-12:00 UT\n",
    );
    assert.equal(at(policy, utc(2020, 1, 1, 3), "/heavy/a").allowed, true);
    const d = at(policy, utc(2020, 1, 1, 8), "/heavy/a");
    assert.equal(d.allowed, false, "08:00 is outside the block's 01:00-05:00");
    assert.equal(d.reason, "time");
    assert.equal(d.next, utc(2020, 1, 2, 1));
    assert.equal(at(policy, utc(2020, 1, 1, 8), "/light/a").allowed, true);
  });
});

describe("Time-forbidden (§3.2.8 Example 1: a dated span)", () => {
  const { policy, text } = regp(
    "User-agent: *\nDisallow: /x\nTime-forbidden: 30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT\n",
  );
  const line = lineOf(text, "Time-forbidden: 30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT");
  it("inside: refused, reason time, next = the end + 1 s", () => {
    const d = at(policy, utc(2014, 10, 31, 12));
    assert.equal(d.allowed, false);
    assert.equal(d.reason, "time");
    assert.equal(d.next, utc(2014, 11, 3, 0, 0, 0));
    assert.equal(d.line, line);
  });
  it("at the first second: refused", () => {
    assert.equal(at(policy, utc(2014, 10, 30)).reason, "time");
  });
  it("in the last second: refused, reopening at its end", () => {
    const d = at(policy, utc(2014, 11, 2, 23, 59, 59, 500));
    assert.equal(d.reason, "time");
    assert.equal(d.next, utc(2014, 11, 3));
  });
  it("just before and right after: allowed", () => {
    assert.equal(at(policy, utc(2014, 10, 29, 23, 59, 59)).allowed, true);
    assert.equal(at(policy, utc(2014, 11, 3)).allowed, true);
    assert.equal(at(policy, utc(2015, 1, 1)).allowed, true);
  });
  it("without a time: allowed, and the window is in the plan", () => {
    const d = policy.check("/page", "bot");
    assert.equal(d.allowed, true);
    assert.deepEqual(d.plan?.times, [
      {
        kind: "forbidden",
        text: "Time-forbidden: 30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT",
        line,
      },
    ]);
  });
  it("path rules still decide outside the span", () => {
    assert.equal(at(policy, utc(2015, 1, 1), "/x/1").allowed, false);
  });
});

describe("Visit-time (§3.2.8: daily; an end before the start runs into the next day)", () => {
  it("across midnight: 22:00-02:00 UT", () => {
    const { policy } = regp("User-agent: *\nVisit-time: 22:00-02:00 UT\n");
    assert.equal(at(policy, utc(2020, 5, 1, 23)).allowed, true);
    assert.equal(at(policy, utc(2020, 5, 2, 1, 30)).allowed, true);
    const morning = at(policy, utc(2020, 5, 2, 3));
    assert.equal(morning.reason, "time");
    assert.equal(morning.next, utc(2020, 5, 2, 22));
    const evening = at(policy, utc(2020, 5, 2, 21, 59));
    assert.equal(evening.reason, "time");
    assert.equal(evening.next, utc(2020, 5, 2, 22));
  });
  it("§3.2.8 Example 2: 01:00 +0800-06:00 +0800 is 17:00-22:00 UT", () => {
    const { policy } = regp("User-agent: *\nVisit-time: 01:00 +0800-06:00 +0800\n");
    assert.equal(at(policy, utc(2020, 5, 1, 18)).allowed, true);
    const d = at(policy, utc(2020, 5, 1, 23));
    assert.equal(d.reason, "time");
    assert.equal(d.next, utc(2020, 5, 2, 17));
  });
  it("a zone written on one end holds for both (§3.2.8)", () => {
    const { policy } = regp("User-agent: *\nVisit-time: 01:00-06:00 +0800\n");
    assert.equal(at(policy, utc(2020, 5, 1, 18)).allowed, true);
    assert.equal(at(policy, utc(2020, 5, 1, 12)).next, utc(2020, 5, 1, 17));
  });
  it("several Visit-time lines: the robot may come within any of them", () => {
    const { policy, text } = regp(
      "User-agent: *\nVisit-time: 01:00-02:00 UT\nVisit-time: 10:00-11:00 UT\n",
    );
    assert.equal(at(policy, utc(2020, 5, 1, 1, 30)).allowed, true);
    assert.equal(at(policy, utc(2020, 5, 1, 10, 30)).allowed, true);
    const between = at(policy, utc(2020, 5, 1, 5));
    assert.equal(between.reason, "time");
    assert.equal(between.next, utc(2020, 5, 1, 10));
    const after = at(policy, utc(2020, 5, 1, 12));
    assert.equal(after.next, utc(2020, 5, 2, 1));
    assert.deepEqual(
      policy.check("/", "bot").plan?.times.map((t) => t.line),
      [lineOf(text, "Visit-time: 01:00-02:00 UT"), lineOf(text, "Visit-time: 10:00-11:00 UT")],
    );
  });
  it("Time-forbidden inside a Visit-time window: reopens when the span ends", () => {
    const { policy } = regp(
      "User-agent: *\nVisit-time: 00:00-12:00 UT\nTime-forbidden: 1 Jan 2020 00:00:00 UT-1 Jan 2020 05:59:59 UT\n",
    );
    const d = at(policy, utc(2020, 1, 1, 3));
    assert.equal(d.reason, "time");
    assert.equal(d.next, utc(2020, 1, 1, 6));
    assert.equal(at(policy, utc(2020, 1, 2, 3)).allowed, true);
  });
  it("a Time-forbidden span that runs past the day's window: next is the next day's opening", () => {
    const { policy } = regp(
      "User-agent: *\nVisit-time: 00:00-12:00 UT\nTime-forbidden: 1 Jan 2020 06:00:00 UT-1 Jan 2020 13:59:59 UT\n",
    );
    assert.equal(at(policy, utc(2020, 1, 1, 7)).next, utc(2020, 1, 2, 0));
  });
  it("a Visit-time in a sequence applies to its robots only", () => {
    const { policy } = regp(
      "User-agent: night\nVisit-time: 22:00-02:00 UT\n\nUser-agent: *\nAllow: /\n",
    );
    assert.equal(policy.check("/", { agent: "nightbot", at: utc(2020, 1, 1, 12) }).reason, "time");
    assert.equal(policy.check("/", { agent: "daybot", at: utc(2020, 1, 1, 12) }).allowed, true);
  });
  it("a time refusal has no delay to keep, but the plan still says it", () => {
    const { policy } = regp("User-agent: *\nCrawl-delay: 3\nVisit-time: 22:00-02:00 UT\n");
    const d = at(policy, utc(2020, 1, 1, 12));
    assert.equal(d.allowed, false);
    assert.equal(d.plan?.delaySeconds, 3);
  });
});

describe("Mirror-site and Host (§3.2.11, §3.2.13)", () => {
  const { policy, text } = regp(
    "User-agent: *\nDisallow: /x\nMirror-site: mirror.example.com\nHost: www.example.com\n",
  );
  it("both are in the plan, for every URL", () => {
    for (const path of ["/", "/a/b", "/x"]) {
      const plan = policy.check(path, "bot").plan;
      assert.deepEqual(plan?.mirror, {
        value: "mirror.example.com",
        line: lineOf(text, "Mirror-site: mirror.example.com"),
      });
      assert.deepEqual(plan?.host, {
        value: "www.example.com",
        line: lineOf(text, "Host: www.example.com"),
      });
    }
  });
  it("a block's Mirror-site replaces the sequence's for the paths it covers", () => {
    const { policy: p } = regp(
      "User-agent: *\nMirror-site: m1.example.com\n{\nAllow: /video/\nMirror-site: m2.example.com\n}\n",
    );
    assert.equal(p.check("/video/1", "bot").plan?.mirror?.value, "m2.example.com");
    assert.equal(p.check("/text/1", "bot").plan?.mirror?.value, "m1.example.com");
  });
});

describe("Index-page and Change-* guidance (§3.2.14-3.2.15): for the matching URL only", () => {
  const { policy, text } = regp(
    "User-agent: *\nDisallow: /private\nIndex-page: /news/newslist.html\nChange-hourly: /news/newslist.html\nChange-daily: /news/hot/*.html\nChange-never: /archive/$\n",
  );
  const CASES: readonly [path: string, index: string | null, change: string | null][] = [
    [
      "/news/newslist.html",
      "Index-page: /news/newslist.html",
      "Change-hourly: /news/newslist.html",
    ],
    [
      "/NEWS/NewsList.HTML",
      "Index-page: /news/newslist.html",
      "Change-hourly: /news/newslist.html",
    ],
    ["/news/hot/a.html", null, "Change-daily: /news/hot/*.html"],
    ["/news/hot/a.htm", null, null],
    ["/archive/", null, "Change-never: /archive/$"],
    ["/archive/2014.html", null, null],
    ["/about.html", null, null],
  ];
  for (const [path, index, change] of CASES) {
    it(`${path}: index ${index ?? "none"}, change ${change ?? "none"}`, () => {
      const plan = policy.check(path, "bot").plan;
      assert.equal(plan?.indexPage?.line ?? null, index === null ? null : lineOf(text, index));
      assert.equal(plan?.change?.line ?? null, change === null ? null : lineOf(text, change));
    });
  }
  it("the values say what was written and how often", () => {
    const plan = policy.check("/news/newslist.html", "bot").plan;
    assert.equal(plan?.indexPage?.value, "/news/newslist.html");
    assert.equal(plan?.change?.value, "hourly");
    assert.equal(policy.check("/news/hot/a.html", "bot").plan?.change?.value, "daily");
    assert.equal(policy.check("/archive/", "bot").plan?.change?.value, "never");
  });
  it("guidance never changes whether a URL may be fetched", () => {
    assert.equal(policy.check("/news/newslist.html", "bot").allowed, true);
    const { policy: p } = regp(
      "User-agent: *\nDisallow: /news/\nIndex-page: /news/newslist.html\n",
    );
    const d = p.check("/news/newslist.html", "bot");
    assert.equal(d.allowed, false);
    assert.equal(d.plan?.indexPage?.value, "/news/newslist.html");
  });
  it("a guidance pattern is compiled at its first use, and shared with the rules written the same", () => {
    const { policy: p } = regp("User-agent: *\nIndex-page: /guide/*.html\nChange-daily: /guide/\n");
    const settings = p.regp?.compiled.sequences[0]?.settings ?? [];
    assert.equal(settings.length, 2);
    for (const s of settings) {
      const own = Object.getOwnPropertyDescriptor(s, "pattern");
      assert.equal(typeof own?.get, "function", `${s.kind}: a getter, not a compiled value`);
    }
    const index = settings[0];
    assert.ok(index?.kind === "index-page");
    assert.equal(
      index.pattern,
      sharedPattern("/guide/*.html", { wildcards: true, ignoreCase: true }),
    );
    assert.equal(p.check("/guide/a.html", "bot").plan?.indexPage?.value, "/guide/*.html");
    assert.equal(p.check("/guide/a.html", "bot").plan?.change?.value, "daily");
  });
});

describe("Language, Encoding and Charset requirements (§3.2.9)", () => {
  const { policy, text } = regp(
    "User-agent: *\nDisallow: /x\nCharset: gb2312, utf-8\nEncoding: gzip;q=0, deflate\n",
  );
  it("Charset: a robot with none of them is refused, reason charset", () => {
    const d = policy.check("/a", { agent: "bot", charsets: ["iso-8859-1"] });
    assert.equal(d.allowed, false);
    assert.equal(d.reason, "charset");
    assert.equal(d.line, lineOf(text, "Charset: gb2312, utf-8"));
    assert.equal(d.next ?? null, null);
  });
  it("Charset: matched ignoring case and - or _", () => {
    for (const c of ["UTF-8", "utf8", "GB2312", "gb_2312"]) {
      assert.equal(policy.check("/a", { agent: "bot", charsets: [c] }).allowed, true, c);
    }
  });
  it("Encoding: q=0 means not acceptable: only deflate is required", () => {
    assert.deepEqual(policy.check("/a", "bot").plan?.requires.encoding?.value, ["deflate"]);
    const gzip = policy.check("/a", { agent: "bot", encodings: ["gzip"] });
    assert.equal(gzip.allowed, false);
    assert.equal(gzip.reason, "encoding");
    assert.equal(
      policy.check("/a", { agent: "bot", encodings: ["gzip", "deflate"] }).allowed,
      true,
    );
  });
  it("an empty list supports nothing: refused", () => {
    assert.equal(policy.check("/a", { agent: "bot", charsets: [] }).reason, "charset");
  });
  it("no list given: nothing refused, the requirement planned", () => {
    const d = policy.check("/a", "bot");
    assert.equal(d.allowed, true);
    assert.deepEqual(d.plan?.requires.charset?.value, ["gb2312", "utf-8"]);
  });
  it("Language ranges: zh admits zh-cn and zh-tw; * admits anything", () => {
    const { policy: p } = regp("User-agent: *\nLanguage: zh\n");
    assert.equal(p.check("/", { agent: "b", languages: ["zh-CN"] }).allowed, true);
    assert.equal(p.check("/", { agent: "b", languages: ["zh-tw"] }).allowed, true);
    assert.equal(p.check("/", { agent: "b", languages: ["en"] }).reason, "language");
    assert.equal(p.check("/", { agent: "b", languages: ["*"] }).allowed, true);
  });
  it("a language the robot lacks closes every URL, whatever the path rules say", () => {
    const { policy: p } = regp("User-agent: *\nDisallow: /x\n\nLanguage: fr\n");
    for (const path of ["/", "/x", "/y/z"]) {
      assert.equal(p.check(path, { agent: "b", languages: ["en"] }).reason, "language", path);
    }
  });
});

describe("IP groups (§3.2.4) at their edges", () => {
  it("an unknown IP vs Ip-allow: 1.2.3.4: refused (implicit Ip-disallow: * first)", () => {
    const { policy } = regp("User-agent: *\nIp-allow: 1.2.3.4\nDisallow: /x\n");
    const d = policy.check("/y", "bot");
    assert.equal(d.allowed, false);
    assert.equal(d.reason, "ip");
    assert.equal(d.line, null);
    assert.match(d.detail ?? "", /not known/);
    assert.equal(policy.check("/y", { agent: "bot", ip: "1.2.3.4" }).allowed, true);
    assert.equal(policy.check("/y", { agent: "bot", ip: "1.2.3.5" }).reason, "ip");
  });
  it("an unknown IP vs Ip-disallow: 1.2.3.4: admitted (implicit Ip-allow: * first)", () => {
    const { policy } = regp("User-agent: *\nIp-disallow: 1.2.3.4\nDisallow: /x\n");
    assert.equal(policy.check("/y", "bot").allowed, true);
    assert.equal(policy.check("/y", { agent: "bot", ip: "1.2.3.4" }).reason, "ip");
  });
  it("Ip-disallow: * refuses every robot, even one whose address is unknown", () => {
    const { policy, text } = regp("User-agent: badbot\nIp-disallow: *\nDisallow: /x\n");
    const d = policy.check("/y", "badbot");
    assert.equal(d.reason, "ip");
    assert.equal(d.line, lineOf(text, "Ip-disallow: *"));
    assert.equal(policy.check("/y", { agent: "badbot", ip: "8.8.8.8" }).reason, "ip");
    assert.equal(policy.check("/y", "goodbot").allowed, true);
  });
  it("Ip-allow: * then Ip-disallow: 10.*.*.*: unknown IP admitted by the * line", () => {
    const { policy } = regp("User-agent: *\nIp-allow: *\nIp-disallow: 10.*.*.*\nDisallow: /x\n");
    assert.equal(policy.check("/y", "bot").allowed, true);
    assert.equal(policy.check("/y", { agent: "bot", ip: "10.9.9.9" }).reason, "ip");
    assert.equal(policy.check("/y", { agent: "bot", ip: "11.9.9.9" }).allowed, true);
  });
  it("a refused robot does not fall through to a later sequence (the site is closed)", () => {
    const { policy } = regp(
      "User-agent: *\nIp-disallow: 10.*.*.*\nDisallow: /x\n\nUser-agent: bot\nAllow: /\n",
    );
    assert.equal(policy.check("/y", { agent: "bot", ip: "10.0.0.1" }).reason, "ip");
  });
  const CIDR_V6: readonly [body: string, ip: string, admitted: boolean][] = [
    ["Ip-allow: 2001:db8::/32", "2001:db8::1", true],
    ["Ip-allow: 2001:db8::/32", "2001:DB8:ffff::9", true],
    ["Ip-allow: 2001:db8::/32", "2001:db9::1", false],
    ["Ip-allow: 2001:db8::/32", "10.0.0.1", false],
    ["Ip-disallow: 10.0.0.0/8", "10.1.2.3", false],
    ["Ip-disallow: 10.0.0.0/8", "11.0.0.1", true],
    ["Ip-disallow: 10.0.0.0/8", "::ffff:10.1.2.3", false],
    ["Ip-disallow: 192.168.1.128/25", "192.168.1.200", false],
    ["Ip-disallow: 192.168.1.128/25", "192.168.1.100", true],
    ["Ip-disallow: ::1", "::1", false],
    ["Ip-disallow: ::1", "0:0:0:0:0:0:0:1", false],
    ["Ip-disallow: ::1", "127.0.0.1", true],
    ["Ip-disallow: [2001:db8::1]", "2001:db8::1", false],
    ["Ip-disallow: 0.0.0.0/0", "203.0.113.9", false],
  ];
  for (const [line, ip, admitted] of CIDR_V6) {
    it(`${line}, robot at ${ip}: ${admitted ? "admitted" : "refused"}`, () => {
      const { policy } = regp(`User-agent: *\n${line}\nDisallow: /x\n`);
      const d = policy.check("/y", { agent: "bot", ip });
      assert.equal(d.allowed, admitted);
      assert.equal(d.reason === "ip", !admitted);
    });
  }
  for (const ip of ["999.1.1.1", "1.2.3", "not-an-ip", "", "2001:db8::1::2", "10.0.0.01"]) {
    it(`robot.ip ${JSON.stringify(ip)} is malformed: reason invalid-query`, () => {
      const { policy } = regp("User-agent: *\nIp-disallow: 1.2.3.4\nDisallow: /x\n");
      const d = policy.check("/y", { agent: "bot", ip });
      assert.equal(d.allowed, false);
      assert.equal(d.reason, "invalid-query");
      assert.ok((d.error ?? "") !== "");
    });
  }
  it("/robots.txt is always allowed, even to a robot whose IP is refused", () => {
    const { policy } = regp("User-agent: *\nIp-disallow: *\nDisallow: /\n");
    for (const url of ["/robots.txt", "http://www.example.com/robots.txt", "/robots.txt?x=1"]) {
      const d = policy.check(url, { agent: "bot", ip: "1.2.3.4" });
      assert.equal(d.allowed, true, url);
      assert.equal(d.reason, "robots-txt", url);
    }
    assert.equal(policy.check("/robots.txt.bak", { agent: "bot", ip: "1.2.3.4" }).reason, "ip");
  });
  it("the IP refusal comes before the time and language refusals", () => {
    const { policy } = regp(
      "User-agent: *\nIp-disallow: 10.*.*.*\nVisit-time: 01:00-02:00 UT\nLanguage: fr\n",
    );
    const robot: Robot = {
      agent: "bot",
      ip: "10.0.0.1",
      at: utc(2020, 1, 1, 12),
      languages: ["en"],
    };
    assert.equal(policy.check("/", robot).reason, "ip");
  });
});

describe("path groups: sequence and global section must both allow", () => {
  const { policy, text } = regp("User-agent: *\nAllow: /\n\nDisallow: /secret\n");
  it("the global Disallow refuses even what the sequence allows", () => {
    const d = policy.check("/secret/x", "bot");
    assert.equal(d.allowed, false);
    assert.equal(d.rule, "Disallow: /secret");
    assert.equal(d.line, lineOf(text, "Disallow: /secret"));
  });
  it("elsewhere the sequence's line decides", () => {
    const d = policy.check("/open", "bot");
    assert.equal(d.allowed, true);
    assert.equal(d.rule, "Allow: /");
  });
  it("a robot no sequence names: only the global section's rules", () => {
    const { policy: p } = regp("User-agent: a\nDisallow: /\n\nAllow: /pub\n");
    assert.equal(p.check("/pub/1", "b").allowed, true);
    const d = p.check("/other", "b");
    assert.equal(d.allowed, false);
    assert.equal(d.basis, "implicit-disallow");
  });
  it("a file with no sequence and no rules allows all (no-group)", () => {
    const { policy: p } = regp("Sitemap: http://www.example.com/s.xml\n");
    const d = p.check("/x", "bot");
    assert.equal(d.allowed, true);
    assert.equal(d.basis, "no-group");
  });
  it("the empty file read as REGP allows all", () => {
    const d = parseRobots("", { dialect: "regp" }).check("/x", "bot");
    assert.equal(d.allowed, true);
    assert.equal(d.dialect, "regp");
  });
  it("Disallow: / then Allow: /pub (the root line implies nothing)", () => {
    const { policy: p } = regp("User-agent: *\nDisallow: /\nAllow: /pub\n");
    assert.equal(p.check("/pub/1", "b").allowed, true);
    assert.equal(p.check("/other", "b").rule, "Disallow: /");
  });
});
