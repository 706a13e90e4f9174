// A site's sitemaps from its robots.txt, in every dialect (sitemaps.org "Specifying the Sitemap
// location in your robots.txt file"; RFC 9309 §2.2.4; seeds/003 §3.2.12), else /sitemap.xml.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRobots } from "../../../src/protocol/robots/index.js";
import { sitemapsFromRobots } from "../../../src/protocol/sitemap/index.js";

const ROBOTS_URL = "http://www.example.com/robots.txt";

describe("sitemapsFromRobots", () => {
  it("RFC 9309: Sitemap lines anywhere, in file order, without duplicates", () => {
    const policy = parseRobots(`Sitemap: http://www.example.com/a.xml
User-agent: *
Disallow: /private/
Sitemap: http://www.example.com/b.xml.gz
sitemap: http://www.example.com/a.xml
`);
    const found = sitemapsFromRobots(policy, ROBOTS_URL);
    assert.equal(found.fromRobots, true);
    assert.deepEqual(found.sitemaps, [
      { url: "http://www.example.com/a.xml", line: 1 },
      { url: "http://www.example.com/b.xml.gz", line: 4 },
    ]);
    assert.deepEqual(found.problems, []);
  });

  it("Koster 1996 files too", () => {
    const policy = parseRobots(
      "Robot-version: 2.0\nUser-agent: *\nDisallow:\nSitemap: http://www.example.com/s.xml\n",
    );
    assert.deepEqual(
      sitemapsFromRobots(policy, ROBOTS_URL).sitemaps.map((s) => s.url),
      ["http://www.example.com/s.xml"],
    );
  });

  it("REGP (seeds/003 §3.2.12): the global section's Sitemap, in angle brackets as the paper writes it", () => {
    const policy = parseRobots(`Robot-version: 3.0

User-agent: *
Disallow: /login.do

Sitemap: <http://www.example.com/sitemap.xml>
Language: zh-CN
`);
    const found = sitemapsFromRobots(policy, ROBOTS_URL);
    assert.deepEqual(
      found.sitemaps.map((s) => s.url),
      ["http://www.example.com/sitemap.xml"],
    );
    assert.equal(found.fromRobots, true);
  });

  it("a relative Sitemap value is read against robots.txt, with a note", () => {
    const found = sitemapsFromRobots(
      parseRobots("User-agent: *\nSitemap: /sitemap3.xml\n"),
      ROBOTS_URL,
    );
    assert.deepEqual(
      found.sitemaps.map((s) => s.url),
      ["http://www.example.com/sitemap3.xml"],
    );
    assert.equal(found.problems[0]?.line, 2);
    assert.match(found.problems[0]?.message ?? "", /relative/);
  });

  it("a value that is no http(s) URL is a problem, not a sitemap", () => {
    const found = sitemapsFromRobots(parseRobots("Sitemap: ftp://e.com/s.xml\n"), ROBOTS_URL);
    assert.equal(found.fromRobots, false);
    assert.equal(found.problems.length, 1);
  });

  it("none named, or no robots.txt: /sitemap.xml at the root", () => {
    for (const policy of [parseRobots("User-agent: *\nDisallow:\n"), null]) {
      const found = sitemapsFromRobots(policy, "https://www.example.com:8443/robots.txt");
      assert.equal(found.fromRobots, false);
      assert.deepEqual(found.sitemaps, [
        { url: "https://www.example.com:8443/sitemap.xml", line: null },
      ]);
    }
  });
});
