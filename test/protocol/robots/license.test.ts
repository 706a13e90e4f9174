// RSL License: lines of robots.txt and Link rel="license" (RFC 8288 §3, RFC 4946), read for
// heed check, heed lint and the crawl report.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  linkLicenses,
  lintRobots,
  MAX_LICENSES,
  robotsLicenses,
} from "../../../src/protocol/robots/index.js";

describe("licenses a site names", () => {
  it("reads License: lines with their line numbers, resolved against the site", () => {
    assert.deepEqual(
      robotsLicenses("User-agent: *\nDisallow:\nlicense: /terms.xml # RSL\n", "https://a.example/"),
      [{ where: "robots.txt line 3", url: "https://a.example/terms.xml" }],
    );
  });
  const links: readonly (readonly [string, readonly string[]])[] = [
    ['<https://l.example/1>; rel="license"', ["https://l.example/1"]],
    [
      '<https://x.example/>; rel=next, <https://l.example/2>; rel="license nofollow"',
      ["https://l.example/2"],
    ],
    ['<https://l.example/3>; title="a, b"; rel=license', ["https://l.example/3"]],
    ['<https://x.example/>; rel="licensed"', []],
    ["", []],
  ];
  for (const [field, urls] of links) {
    it(`Link: ${field || "(empty)"}`, () => {
      assert.deepEqual(
        linkLicenses(field).map((l) => l.url),
        urls,
      );
    });
  }
  it(`limit: MAX_LICENSES (${MAX_LICENSES}) from one file or field`, () => {
    const many = Array.from(
      { length: MAX_LICENSES + 4 },
      (_, i) => `License: https://l.example/${i}`,
    );
    assert.equal(robotsLicenses(many.join("\n")).length, MAX_LICENSES);
    const field = Array.from(
      { length: MAX_LICENSES + 4 },
      (_, i) => `<https://l.example/${i}>; rel=license`,
    );
    assert.equal(linkLicenses(field.join(", ")).length, MAX_LICENSES);
  });
  it("lint shows a License: line, and warns when it is not a URL", () => {
    const good = lintRobots("User-agent: *\nDisallow:\nLicense: https://a.example/l.xml\n");
    assert.deepEqual(
      good.findings.filter((f) => f.code === "rsl-license").map((f) => [f.line, f.severity]),
      [[3, "info"]],
    );
    const bad = lintRobots("User-agent: *\nDisallow:\nLicense: ask us\n");
    assert.deepEqual(
      bad.findings.filter((f) => f.code === "rsl-license").map((f) => [f.line, f.severity]),
      [[3, "warning"]],
    );
  });
});
