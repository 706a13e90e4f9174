// The robots.txt files of seeds/003, read for what the paper says they mean: the §3.2 sample
// file (test/fixtures/regp/paper-sample.txt) and the §5 experiment (news-experiment.txt) with its
// two variants, and the old REP file of §5 (Table 11).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseRobots, type Robot } from "../../../../src/protocol/robots/index.js";

const FIXTURES = new URL("../../../../../test/fixtures/regp/", import.meta.url);
const SAMPLE = readFileSync(new URL("paper-sample.txt", FIXTURES), "utf8");
const NEWS = readFileSync(new URL("news-experiment.txt", FIXTURES), "utf8");

function lineOf(text: string, line: string): number {
  const at = text.split(/\r?\n/).findIndex((l) => l.trim() === line);
  assert.ok(at >= 0, `no line ${JSON.stringify(line)}`);
  return at + 1;
}

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) =>
  Date.UTC(y, mo - 1, d, h, mi, s);

describe("seeds/003 §3.2 sample file", () => {
  const policy = parseRobots(SAMPLE);

  describe("header", () => {
    it("is REGP, version 3.0 (§3.2.1)", () => {
      assert.equal(policy.dialect, "regp");
      assert.equal(policy.robotVersion, "3.0");
    });
    it("Last-modified: 30 Oct 2014 04:31:17 UT is the instant 2014-10-30T04:31:17Z (§3.2.2)", () => {
      assert.equal(policy.lastModified, utc(2014, 10, 30, 4, 31, 17));
      assert.equal(new Date(policy.lastModified ?? 0).toISOString(), "2014-10-30T04:31:17.000Z");
    });
    it("parses without errors", () => {
      assert.deepEqual(
        policy.diagnostics.filter((d) => d.severity === "error"),
        [],
      );
    });
  });

  describe('sequence 1: "the resource path that can be used by the WebCrawler"', () => {
    it("WebCrawler may fetch /data/open/x (Allow: /data/open, the last match)", () => {
      const d = policy.check("/data/open/x", "WebCrawler");
      assert.equal(d.allowed, true);
      assert.equal(d.reason, "rule");
      assert.equal(d.rule, "Allow: /data/open");
      assert.equal(d.line, lineOf(SAMPLE, "Allow: /data/open"));
      assert.deepEqual(d.group?.agents, ["webcrawler"]);
    });
    it("WebCrawler may not fetch /data/x (Disallow: /data)", () => {
      const d = policy.check("/data/x", "WebCrawler");
      assert.equal(d.allowed, false);
      assert.equal(d.rule, "Disallow: /data");
      assert.equal(d.line, lineOf(SAMPLE, "Disallow: /data"));
    });
    it("WebCrawler may fetch what its group does not name (implicit Allow: /)", () => {
      const d = policy.check("/info/x", "WebCrawler");
      assert.equal(d.allowed, true);
      assert.equal(d.basis, "implicit-allow");
    });
    it("WebCrawler gets no Crawl-delay from the block meant for infoseeker", () => {
      assert.equal(policy.check("/info/hot/a.html", "WebCrawler").plan?.delaySeconds, 0);
    });
  });

  describe('sequence 2: infoseeker and wiseRobot "can access all the resources with path of /info or /news"', () => {
    for (const robot of ["infoseeker", "wiseRobot"]) {
      for (const path of [
        "/info",
        "/info/a.html",
        "/info/hot/today.html",
        "/news",
        "/news/1.html",
      ]) {
        it(`${robot} may fetch ${path}`, () => {
          const d = policy.check(path, robot);
          assert.equal(d.allowed, true);
          assert.equal(d.reason, "rule");
          assert.deepEqual(d.group?.agents, ["infoseeker", "wiserobot"]);
        });
      }
      for (const path of ["/", "/data/open/x", "/index.html", "/tmp/x"]) {
        it(`${robot} may not fetch ${path} (implicit Disallow: /: the group starts with Allow)`, () => {
          const d = policy.check(path, robot);
          assert.equal(d.allowed, false);
          assert.equal(d.reason, "default");
          assert.equal(d.basis, "implicit-disallow");
        });
      }
    }
    it("the block's Allow: /info/hot grants nothing by itself (it only narrows the block)", () => {
      // /info/hot is allowed by the sequence's Allow: /info, not by the block line.
      const d = policy.check("/info/hot/a", "infoseeker");
      assert.equal(d.rule, "Allow: /info");
    });
    it("infoseeker keeps 5 s between requests under /info/hot (the block)", () => {
      const d = policy.check("/info/hot/today.html", "infoseeker");
      assert.equal(d.allowed, true);
      assert.equal(d.plan?.delaySeconds, 5);
      assert.deepEqual(d.plan?.crawlDelay, { value: 5, line: lineOf(SAMPLE, "Crawl-delay: 5") });
    });
    it("the block matches robots whose token contains infoseeker", () => {
      assert.equal(policy.check("/info/hot/a", "BobbyInfoSeeker").plan?.delaySeconds, 5);
    });
    for (const path of ["/news/1.html", "/info/cold.html", "/info/ho"]) {
      it(`infoseeker gets no delay for ${path}`, () => {
        const d = policy.check(path, "infoseeker");
        assert.equal(d.plan?.delaySeconds, 0);
        assert.equal(d.plan?.crawlDelay, null);
      });
    }
    it("wiseRobot never gets the 5 s delay", () => {
      for (const path of ["/info/hot/today.html", "/info/hot", "/news/1.html"]) {
        assert.equal(policy.check(path, "wiseRobot").plan?.delaySeconds, 0, path);
      }
    });
  });

  describe("the global section: Sitemap, Visit-time, Language", () => {
    const sitemap = {
      value: "http://www.example.com/documents/example_sitemap.xml",
      line: lineOf(SAMPLE, "Sitemap: http://www.example.com/documents/example_sitemap.xml"),
    };
    for (const robot of ["WebCrawler", "infoseeker", "wiseRobot", "SomeOtherBot"]) {
      it(`${robot}'s plan lists the sitemap`, () => {
        assert.deepEqual(policy.check("/info/x", robot).plan?.sitemaps, [sitemap]);
      });
    }
    it("a robot no sequence names falls to the global section only: everything allowed", () => {
      const d = policy.check("/data/x", "SomeOtherBot");
      assert.equal(d.allowed, true);
      assert.equal(d.group, null);
    });

    const at = (iso: string): Robot => ({ agent: "WebCrawler", at: Date.parse(iso) });
    it("Visit-time 1:00-16:00 UT: at 00:30Z refused, reopening 01:00Z the same day", () => {
      const d = policy.check("/data/open/x", at("2014-10-30T00:30:00Z"));
      assert.equal(d.allowed, false);
      assert.equal(d.reason, "time");
      assert.equal(d.next, utc(2014, 10, 30, 1));
      assert.equal(
        d.line,
        lineOf(SAMPLE, "Visit-time: 1:00-16:00 UT ##8:00-17:00 Beijing Time is not allowed"),
      );
    });
    it("Visit-time 1:00-16:00 UT: at 10:00Z allowed", () => {
      const d = policy.check("/data/open/x", at("2014-10-30T10:00:00Z"));
      assert.equal(d.allowed, true);
      assert.equal(d.reason, "rule");
    });
    it("Visit-time 1:00-16:00 UT: at 16:30Z refused, reopening 01:00Z the next day", () => {
      const d = policy.check("/data/open/x", at("2014-10-30T16:30:00Z"));
      assert.equal(d.allowed, false);
      assert.equal(d.reason, "time");
      assert.equal(d.next, utc(2014, 10, 31, 1));
    });
    it("Visit-time holds for every robot, named or not", () => {
      for (const agent of ["infoseeker", "wiseRobot", "SomeOtherBot"]) {
        const d = policy.check("/info/x", { agent, at: utc(2014, 10, 30, 20) });
        assert.equal(d.reason, "time", agent);
        assert.equal(d.next, utc(2014, 10, 31, 1), agent);
      }
    });
    it("without a time, Visit-time refuses nothing and is in the plan", () => {
      const d = policy.check("/data/open/x", "WebCrawler");
      assert.equal(d.allowed, true);
      assert.equal(d.plan?.times.length, 1);
      assert.equal(d.plan?.times[0]?.kind, "visit");
      assert.match(d.plan?.times[0]?.text ?? "", /^Visit-time: 1:00-16:00 UT/);
    });
    it('Language zh-cn, zh: a robot with languages ["en"] is refused, reason "language"', () => {
      const d = policy.check("/data/open/x", { agent: "WebCrawler", languages: ["en"] });
      assert.equal(d.allowed, false);
      assert.equal(d.reason, "language");
      assert.equal(d.line, lineOf(SAMPLE, "Language: zh-cn, zh"));
    });
    it('Language zh-cn, zh: a robot with languages ["zh"] is admitted', () => {
      const d = policy.check("/data/open/x", { agent: "WebCrawler", languages: ["zh"] });
      assert.equal(d.allowed, true);
    });
    it('Language zh-cn, zh: a robot with languages ["en", "ZH-CN"] is admitted', () => {
      const d = policy.check("/data/open/x", { agent: "WebCrawler", languages: ["en", "ZH-CN"] });
      assert.equal(d.allowed, true);
    });
    it("Language zh-cn, zh: a robot that gives no list is admitted; the plan lists the requirement", () => {
      const d = policy.check("/data/open/x", "WebCrawler");
      assert.equal(d.allowed, true);
      assert.deepEqual(d.plan?.requires.language, {
        value: ["zh-cn", "zh"],
        line: lineOf(SAMPLE, "Language: zh-cn, zh"),
      });
      assert.equal(d.plan?.requires.encoding, null);
      assert.equal(d.plan?.requires.charset, null);
    });
  });
});

describe("seeds/003 §5 experiment robots.txt (Table 10)", () => {
  const policy = parseRobots(NEWS);
  const SITE = "http://10.60.149.65:8089";
  const robot = "NewsCrawler";

  it("is REGP; Last-modified 19 Mar 2015 12:00:00 +0800 is 04:00Z", () => {
    assert.equal(policy.dialect, "regp");
    assert.equal(policy.lastModified, utc(2015, 3, 19, 4));
  });
  it("home page: allowed, 0.5 s between requests (Request-rate: 120/m)", () => {
    const d = policy.check(`${SITE}/`, robot);
    assert.equal(d.allowed, true);
    assert.equal(d.plan?.delaySeconds, 0.5);
    assert.deepEqual(d.plan?.rates, [
      { scope: "agent", requests: 120, seconds: 60, line: lineOf(NEWS, "Request-rate: 120/m") },
    ]);
    assert.equal(d.plan?.crawlDelay, null);
  });
  for (const page of ["/login.do", "/reg.do", "/newsRelease.do"]) {
    it(`useless page ${page}: refused by its own line`, () => {
      const d = policy.check(`${SITE}${page}`, robot);
      assert.equal(d.allowed, false);
      assert.equal(d.reason, "rule");
      assert.equal(d.rule, `Disallow: ${page}`);
      assert.equal(d.line, lineOf(NEWS, `Disallow: ${page}`));
    });
  }
  it("the useless pages are refused with any query or case (case-insensitive)", () => {
    assert.equal(policy.check(`${SITE}/login.do?next=/`, robot).allowed, false);
    assert.equal(policy.check(`${SITE}/LOGIN.DO`, robot).allowed, false);
    assert.equal(policy.check(`${SITE}/newsrelease.do`, robot).allowed, false);
  });
  for (const page of ["/html/news1.html", "/html/news9.html"]) {
    it(`news snapshot ${page}: allowed, 1 s between requests (the /html/ block)`, () => {
      const d = policy.check(`${SITE}${page}`, robot);
      assert.equal(d.allowed, true);
      assert.equal(d.plan?.delaySeconds, 1);
      assert.deepEqual(d.plan?.crawlDelay, { value: 1, line: lineOf(NEWS, "Crawl-delay: 1") });
    });
  }
  it("/newsItem.do?id=1: 5 s between requests (Allow: /newsitem.do? matches case-insensitively)", () => {
    const d = policy.check(`${SITE}/newsItem.do?id=1`, robot);
    assert.equal(d.allowed, true);
    assert.equal(d.plan?.delaySeconds, 5);
    assert.deepEqual(d.plan?.crawlDelay, { value: 5, line: lineOf(NEWS, "Crawl-delay: 5") });
  });
  it("/newsItem.do without a query is outside the block: 0.5 s", () => {
    assert.equal(policy.check(`${SITE}/newsItem.do`, robot).plan?.delaySeconds, 0.5);
  });
  it("the Cookie header user=robot is in every plan", () => {
    for (const page of ["/", "/html/news1.html", "/newsItem.do?id=1", "/news.do"]) {
      assert.deepEqual(
        policy.check(`${SITE}${page}`, robot).plan?.cookie,
        { value: "user=robot", line: lineOf(NEWS, "Cookie: user=robot") },
        page,
      );
    }
  });
  it("the sitemap is in the plan", () => {
    assert.deepEqual(policy.check(`${SITE}/`, robot).plan?.sitemaps, [
      {
        value: "http://10.60.149.65:8089/test1/sitemap.xml",
        line: lineOf(NEWS, "Sitemap: http://10.60.149.65:8089/test1/sitemap.xml"),
      },
    ]);
  });
  it("Encoding gzip, deflate and Language zh-CN are requirements in the plan", () => {
    const plan = policy.check(`${SITE}/`, robot).plan;
    assert.deepEqual(plan?.requires.encoding, {
      value: ["gzip", "deflate"],
      line: lineOf(NEWS, "Encoding: gzip, deflate"),
    });
    assert.deepEqual(
      plan?.requires.language?.value.map((v) => v.toLowerCase()),
      ["zh-cn"],
    );
  });
  it("a robot supporting only br is refused, reason encoding; one with deflate is admitted", () => {
    const refused = policy.check(`${SITE}/`, { agent: robot, encodings: ["br"] });
    assert.equal(refused.allowed, false);
    assert.equal(refused.reason, "encoding");
    assert.equal(refused.line, lineOf(NEWS, "Encoding: gzip, deflate"));
    assert.equal(policy.check(`${SITE}/`, { agent: robot, encodings: ["deflate"] }).allowed, true);
  });
  it("the crawler of §5 (zh-CN, gzip) may fetch the site", () => {
    const crawler: Robot = { agent: robot, languages: ["zh-cn", "en"], encodings: ["gzip"] };
    assert.equal(policy.check(`${SITE}/html/news1.html`, crawler).allowed, true);
  });
});

describe("seeds/003 §5 variants", () => {
  it("Visit-time: 21:00:00 +0800-08:00:00 +0800 in the global section: at 12:00Z (20:00 Beijing) refused until 13:00Z", () => {
    const text = `${NEWS.trimEnd()}\nVisit-time: 21:00:00 +0800-08:00:00 +0800\n`;
    const policy = parseRobots(text);
    const d = policy.check("/", { agent: "NewsCrawler", at: utc(2015, 3, 19, 12) });
    assert.equal(d.allowed, false);
    assert.equal(d.reason, "time");
    assert.equal(d.next, utc(2015, 3, 19, 13));
    assert.equal(d.line, lineOf(text, "Visit-time: 21:00:00 +0800-08:00:00 +0800"));
  });
  it("Visit-time 21:00-08:00 Beijing: at 14:00Z (22:00 Beijing) allowed, delay kept", () => {
    const policy = parseRobots(`${NEWS.trimEnd()}\nVisit-time: 21:00:00 +0800-08:00:00 +0800\n`);
    const d = policy.check("/html/news1.html", { agent: "NewsCrawler", at: utc(2015, 3, 19, 14) });
    assert.equal(d.allowed, true);
    assert.equal(d.plan?.delaySeconds, 1);
    // Just after midnight Beijing time, and early morning: still inside.
    assert.equal(policy.check("/", { agent: "x", at: utc(2015, 3, 19, 16, 30) }).allowed, true);
    assert.equal(policy.check("/", { agent: "x", at: utc(2015, 3, 19, 23, 30) }).allowed, true);
    // 08:30 Beijing: closed until 21:00 Beijing.
    const morning = policy.check("/", { agent: "x", at: utc(2015, 3, 20, 0, 30) });
    assert.equal(morning.reason, "time");
    assert.equal(morning.next, utc(2015, 3, 20, 13));
  });
  it('Language: fr instead of zh-CN: a robot with ["zh-cn", "en"] is refused every URL, reason "language"', () => {
    const text = NEWS.replace("Language: zh-CN", "Language: fr");
    assert.notEqual(text, NEWS);
    const policy = parseRobots(text);
    const crawler: Robot = { agent: "NewsCrawler", languages: ["zh-cn", "en"] };
    for (const page of ["/", "/html/news1.html", "/newsItem.do?id=1", "/news.do", "/login.do"]) {
      const d = policy.check(`http://10.60.149.65:8089${page}`, crawler);
      assert.equal(d.allowed, false, page);
      assert.equal(d.reason, "language", page);
      assert.equal(d.line, lineOf(text, "Language: fr"), page);
    }
    // /robots.txt itself stays readable.
    assert.equal(policy.check("/robots.txt", crawler).allowed, true);
  });
});

describe("seeds/003 §5 old REP file under RFC 9309 (Table 11)", () => {
  const OLD = "User-agent: *\nDisallow: /login.do\nDisallow: /reg.do\nDisallow: /newsRelease.do\n";
  for (const dialect of ["rfc9309", "auto"] as const) {
    const policy = parseRobots(OLD, { dialect });
    it(`dialect ${dialect}: read as RFC 9309`, () => assert.equal(policy.dialect, "rfc9309"));
    for (const page of ["/login.do", "/reg.do", "/newsRelease.do"]) {
      it(`dialect ${dialect}: useless page ${page} refused`, () => {
        const d = policy.check(`http://10.60.149.65:8089${page}`, "NewsCrawler");
        assert.equal(d.allowed, false);
        assert.equal(d.rule, `Disallow: ${page}`);
      });
    }
    for (const page of [
      "/",
      "/news.do",
      "/newsItem.do?id=1",
      "/newsItem.do?id=9",
      "/html/news1.html",
    ]) {
      it(`dialect ${dialect}: ${page} allowed, with no delay`, () => {
        const d = policy.check(`http://10.60.149.65:8089${page}`, "NewsCrawler");
        assert.equal(d.allowed, true);
        assert.equal(d.plan?.delaySeconds, 0);
        assert.deepEqual(d.plan?.sitemaps, []);
      });
    }
  }
  it("RFC 9309 matches case-sensitively: /LOGIN.DO is not the refused /login.do", () => {
    assert.equal(parseRobots(OLD).check("/LOGIN.DO", "NewsCrawler").allowed, true);
  });
});
