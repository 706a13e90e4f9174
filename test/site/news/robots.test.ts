// The news site's robots.txt in the three forms of seeds/003 §5, and what heed reads in the
// REGP one: the paper's Table 10 delays (home page 0.5 s from Request-rate 120/m, snapshots
// 1 s from the /html/ block) and its useless pages disallowed.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { parseRobots } from "../../../src/protocol/robots/index.js";
import { robotsText } from "../../../src/site/news/robots.js";

const ORIGIN = "http://127.0.0.1:8089";
const fixture = new URL("../../../../test/fixtures/regp/news-experiment.txt", import.meta.url);

describe("news site robots.txt", () => {
  it("none: no file (the site answers 404)", () => {
    assert.equal(robotsText("none", { origin: ORIGIN }), null);
  });

  it("regp: the paper's file line for line, its Sitemap line naming this site", async () => {
    const paper = await readFile(fixture, "utf8");
    const expected = paper.replace(
      "Sitemap: http://10.60.149.65:8089/test1/sitemap.xml",
      `Sitemap: ${ORIGIN}/sitemap.xml`,
    );
    assert.notEqual(expected, paper, "the fixture has the paper's Sitemap line");
    assert.equal(robotsText("regp", { origin: ORIGIN }), expected);
  });

  it("Visit-time goes to the global section; Language can be changed (§5's further runs)", () => {
    const text = robotsText("regp", {
      origin: ORIGIN,
      language: "fr",
      visitTime: "21:00:00 +0800-08:00:00 +0800",
    }) as string;
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.at(-1), "Visit-time: 21:00:00 +0800-08:00:00 +0800");
    assert.ok(lines.includes("Language: fr"));
    assert.ok(!lines.includes("Language: zh-CN"));
    const policy = parseRobots(text);
    const at = Date.parse("2026-03-19T05:00:00Z"); // 13:00 +0800: outside the window
    const d = policy.check(`${ORIGIN}/`, { agent: "heed", at, languages: ["fr"] });
    assert.equal(d.allowed, false);
    assert.equal(d.reason, "time");
  });

  // seeds/003 §5: the REP file and the REGP file both keep robots off the useless pages;
  // only REGP sets gaps (Table 10 vs Table 11).
  const table = [
    { path: "/", rep: [true, 0], regp: [true, 0.5] },
    { path: "/login.do", rep: [false, 0], regp: [false, 0] },
    { path: "/reg.do", rep: [false, 0], regp: [false, 0] },
    { path: "/newsRelease.do", rep: [false, 0], regp: [false, 0] },
    { path: "/news.do", rep: [true, 0], regp: [true, 0.5] },
    { path: "/html/news7.html", rep: [true, 0], regp: [true, 1] },
    { path: "/newsItem.do?id=7", rep: [true, 0], regp: [true, 5] },
  ] as const;
  for (const variant of ["rep", "regp"] as const) {
    const policy = parseRobots(robotsText(variant, { origin: ORIGIN }) as string);
    for (const row of table) {
      it(`${variant}: ${row.path} allowed ${row[variant][0]}, gap ${row[variant][1]} s`, () => {
        const d = policy.check(`${ORIGIN}${row.path}`, {
          agent: "heed",
          languages: ["zh-CN"],
          encodings: ["gzip"],
        });
        assert.equal(d.allowed, row[variant][0], d.rule ?? d.reason);
        if (d.allowed) assert.equal(d.plan?.delaySeconds ?? 0, row[variant][1]);
      });
    }
  }

  it("regp names the site's own sitemap, and its Cookie", () => {
    const policy = parseRobots(robotsText("regp", { origin: ORIGIN }) as string);
    const plan = policy.check(`${ORIGIN}/`, "heed").plan;
    assert.deepEqual(
      plan?.sitemaps.map((s) => s.value),
      [`${ORIGIN}/sitemap.xml`],
    );
    assert.equal(plan?.cookie?.value, "user=robot");
  });
});
