// Crawler traps: each limit of src/crawler/traps.ts with a URL just inside and just past it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  MAX_PATH_SEGMENTS,
  MAX_QUERY_PARAMETERS,
  MAX_SEGMENT_REPEATS,
  MAX_URL_LENGTH,
  trapReason,
} from "../../src/crawler/traps.js";

const base = "http://example.com";

describe("trapReason", () => {
  const table: readonly [string, string, boolean][] = [
    ["an ordinary page", `${base}/news/2026/11/21/story.html?id=7`, false],
    [
      "path segments at the limit",
      `${base}${Array.from({ length: MAX_PATH_SEGMENTS }, (_, i) => `/s${i}`).join("")}`,
      false,
    ],
    [
      "one segment too many",
      `${base}${Array.from({ length: MAX_PATH_SEGMENTS + 1 }, (_, i) => `/s${i}`).join("")}`,
      true,
    ],
    ["a segment repeated up to the limit", `${base}${"/a/b".repeat(MAX_SEGMENT_REPEATS)}`, false],
    ["a segment repeated once more", `${base}${"/a/b".repeat(MAX_SEGMENT_REPEATS + 1)}`, true],
    [
      "query parameters at the limit",
      `${base}/?${Array.from({ length: MAX_QUERY_PARAMETERS }, (_, i) => `p${i}=1`).join("&")}`,
      false,
    ],
    [
      "one query parameter too many",
      `${base}/?${Array.from({ length: MAX_QUERY_PARAMETERS + 1 }, (_, i) => `p${i}=1`).join("&")}`,
      true,
    ],
    ["a URL at the length limit", `${base}/${"a".repeat(MAX_URL_LENGTH - base.length - 1)}`, false],
    ["a URL one character longer", `${base}/${"a".repeat(MAX_URL_LENGTH - base.length)}`, true],
  ];
  for (const [name, url, trapped] of table) {
    it(`${name}: ${trapped ? "a trap" : "not a trap"}`, () => {
      assert.equal(trapReason(url) !== null, trapped, trapReason(url) ?? "");
    });
  }
});
