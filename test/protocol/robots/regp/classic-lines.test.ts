// A REGP policy keeps the sitemaps and extension lines of the classic reading without building
// its groups (policy.ts): they must be what buildGroups finds, on the seeds/003 files and on
// files made of REGP's and the classic dialects' lines in any order.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import { buildGroups } from "../../../../src/protocol/robots/groups.js";
import { parseRobots, readRobotsText } from "../../../../src/protocol/robots/index.js";

const FIXTURES = new URL("../../../../../test/fixtures/regp/", import.meta.url);
const PATTERNS = { wildcards: true, ignoreCase: true } as const;

function assertClassicLines(text: string): void {
  const policy = parseRobots(text, { dialect: "regp" });
  const classic = buildGroups(
    readRobotsText(text, { commentStyle: "double-hash" }).lines,
    PATTERNS,
  );
  assert.deepEqual(policy.sitemaps, classic.sitemaps);
  assert.deepEqual(policy.extensions, classic.extensions);
}

const LINES = [
  "Robot-version: 3.0",
  "User-agent: *",
  "User-agent: bot",
  "Disallow: /private",
  "Allow: /",
  "Sitemap: https://example.com/sitemap.xml",
  "Sitemap:",
  "Site-map: /other.xml",
  "Host: example.com",
  "Clean-param: ref /page",
  "Visit-time: 0100-0500",
  "Request-rate: 1/5",
  "Index-page: /news/",
  "X-extension: value",
  "Crawl-delay: 2",
  "{",
  "}",
  "Ip-allow: 10.0.0.0/8",
  "## a comment",
  "# not a comment here",
  "",
];

describe("REGP policy: sitemaps and extension lines as the classic reading finds them", () => {
  it("the seeds/003 files", () => {
    for (const name of ["paper-sample.txt", "news-experiment.txt"]) {
      assertClassicLines(readFileSync(new URL(name, FIXTURES), "utf8"));
    }
  });
  it("files of REGP and classic lines in any order", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 40 }), (lines) => {
        assertClassicLines(lines.join("\n"));
      }),
      { numRuns: 300 },
    );
  });
});
