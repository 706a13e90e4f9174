// Fuzzing HTML link extraction (a, area, frame, iframe, link rel, base href, canonical, meta
// robots): no exception escapes, and the links found are bounded by the tags written, each an
// absolute http(s) URL, none twice.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { extractLinks } from "../../src/crawler/links.js";
import { HANG_GUARD_MS, anyText, fuzz, pieceOf, textOf } from "./kit.js";

const HTML_WORDS = [
  "<!doctype html>",
  "<html>",
  "<head>",
  '<base href="/sub/">',
  '<base href="https://other.example/">',
  '<base href="javascript:x">',
  '<link rel="canonical" href="/canon">',
  '<link rel="alternate next" href="alt.html">',
  '<meta name="robots" content="noindex, nofollow">',
  '<meta name="heed" content="none">',
  "</head>",
  "<body>",
  '<a href="/a">',
  '<a href="b.html?x=1&amp;y=2#frag">',
  '<a href="https://s.example/%7Ec">',
  '<a href="//cdn.example/d">',
  '<a href="mailto:x@example.org">',
  '<a href="javascript:alert(1)">',
  '<a href="http://[::1">',
  '<a href="  /spaced  ">',
  '<a rel="nofollow" href="/nf">',
  "<a href=/unquoted>",
  '<a href="&#x2F;entity">',
  "<a>",
  "</a>",
  '<area href="/area">',
  '<iframe src="/frame"></iframe>',
  '<frame src="f.html">',
  "<div>",
  "</div>",
  "<script>var a = '<a href=\"/no\">';</script>",
  '<!-- <a href="/commented"> -->',
  "<![CDATA[",
  "]]>",
  "<",
  ">",
  '"',
];
const html = textOf(pieceOf(HTML_WORDS, 10), ["", "\n", " "]);
const page = fc.constantFrom(
  "https://s.example/dir/page.html",
  "http://127.0.0.1:8080/",
  "https://s.example/a/b/c?q=1",
);

describe("fuzz: HTML link extraction", () => {
  it(
    "links bounded by the tags written, absolute, without repeats; never thrown",
    { timeout: HANG_GUARD_MS },
    () => {
      fuzz(fc.tuple(fc.oneof(html, anyText(400)), page), ([text, url]) => {
        const read = extractLinks(text, url, "heed");
        const tags = text.split("<").length - 1;
        assert.ok(
          read.links.length + read.nofollow.length <= tags,
          `${read.links.length} links from ${tags} tags`,
        );
        assert.equal(new Set(read.links).size, read.links.length);
        for (const link of [...read.links, ...read.nofollow]) assert.match(link, /^https?:\/\//);
      });
    },
  );
});
