// issue 14 §2: a page within the crawler's 16 MiB limit is read in bounded time. Link-bearing
// start tags are counted (MAX_PAGE_LINK_TAGS): past them reading stops and `linksCut` says so;
// an attribute value over MAX_ATTRIBUTE_CHARS is dropped rather than built up. Counts, not times
// (the CPU is measured by hand; see bench/html-depth.bench.ts for the reader's speed).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { forEachStartTag, MAX_ATTRIBUTE_CHARS } from "../../src/crawler/html-tags.js";
import { extractLinks, MAX_PAGE_LINK_TAGS, MAX_PAGE_LINKS } from "../../src/crawler/links.js";

const PAGE = "https://a.example/";
const HANG_GUARD = { timeout: 120_000 };

describe("HTML link reading is bounded (issue 14 §2)", () => {
  it(
    "16 MiB of <a href=x>: reading stops after MAX_PAGE_LINK_TAGS tags, links cut",
    HANG_GUARD,
    () => {
      let tags = 0;
      const html = "<a href=x>".repeat(1_677_721);
      const read = extractLinks(html, PAGE, "heed");
      assert.deepEqual(read.links, ["https://a.example/x"]);
      assert.equal(read.linksCut, true);
      forEachStartTag(html, () => ++tags < 10);
      assert.equal(tags, 10, "a handler returning false stops the reading");
    },
  );

  it("up to MAX_PAGE_LINK_TAGS tags, a later link is read and nothing is cut", () => {
    const html = "<a href=x>".repeat(MAX_PAGE_LINK_TAGS - 1) + "<a href=/last>";
    const read = extractLinks(html, PAGE, "heed");
    assert.deepEqual(read.links, ["https://a.example/x", "https://a.example/last"]);
    assert.equal(read.linksCut, false);
    const over = extractLinks(html + "<a href=/past>", PAGE, "heed");
    assert.deepEqual(over.links, ["https://a.example/x", "https://a.example/last"]);
    assert.equal(over.linksCut, true);
  });

  it(
    "distinct links past MAX_PAGE_LINKS are cut; head tags before them still count",
    HANG_GUARD,
    () => {
      let html = '<meta name=robots content=nofollow><link rel=canonical href="/c">';
      for (let i = 0; i < MAX_PAGE_LINKS + 10; i++) html += `<a href=/${i}>`;
      const read = extractLinks(html, PAGE, "heed");
      assert.equal(read.links.length, MAX_PAGE_LINKS);
      assert.equal(read.linksCut, true);
      assert.equal(read.canonical, "https://a.example/c");
      assert.equal(read.nofollowAll, true);
    },
  );

  it("an attribute value over MAX_ATTRIBUTE_CHARS is dropped, with or without references", () => {
    for (const unit of ["a", "&amp;"]) {
      const long = unit.repeat(MAX_ATTRIBUTE_CHARS + 1);
      const read = extractLinks(`<a href="/${long}"><a href=/ok>`, PAGE, "heed");
      assert.deepEqual(read.links, ["https://a.example/ok"], unit);
    }
    const fits = "b".repeat(MAX_ATTRIBUTE_CHARS - 1);
    const seen: string[] = [];
    forEachStartTag(`<a href="/${fits}">`, (_name, attributes) => seen.push(attributes.href ?? ""));
    assert.equal(seen[0]?.length, MAX_ATTRIBUTE_CHARS);
  });

  it("a usage <meta> repeated many times does not crowd out a later one saying noai", () => {
    const repeated = '<meta name="robots" content="index, follow">'.repeat(1000);
    const read = extractLinks(`${repeated}<meta name="robots" content="noai">`, PAGE, "heed");
    assert.deepEqual(read.usageMeta, [
      { name: "robots", content: "index, follow" },
      { name: "robots", content: "noai" },
    ]);
  });
});
