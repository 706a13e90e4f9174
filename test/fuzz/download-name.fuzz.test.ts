// Fuzzing the file names of `heed datasets --download` (download-name.ts): two URLs share a
// file name only when they are the same resource by RFC 3986 §6.2.2 (hex digits in either
// case, encoded unreserved characters decoded; a fragment is never sent), and every name is a
// safe one: no empty, `.` or `..` segment, none hidden, none longer than a file system allows.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { localPath } from "../../src/crawler/datasets/download-name.js";
import { HANG_GUARD_MS, fuzz } from "./kit.js";

const PIECES = [
  "a",
  "A",
  "%41",
  "%61",
  "%2F",
  "%2f",
  "%2E",
  "%2e",
  ".",
  "..",
  "%20",
  " ",
  "é",
  "%C3%A9",
  "%c3%a9",
  "%E9",
  "%zz",
  "%",
  "%25",
  ";",
  "~",
  "%7E",
  "-",
  "_",
  "x".repeat(70),
  "",
  "\\",
  ":",
  "*",
  "index",
  "#index",
];
const segment = fc.array(fc.constantFrom(...PIECES), { maxLength: 5 }).map((p) => p.join(""));
const url = fc
  .record({
    segments: fc.array(segment, { minLength: 1, maxLength: 5 }),
    query: fc.option(
      fc.array(fc.constantFrom("id=1", "id=2", "/", "a", "%2F", "&", "=", "", "é"), {
        maxLength: 4,
      }),
    ),
    hash: fc.option(fc.constantFrom("", "x", "a?b")),
  })
  .map(({ segments, query, hash }) => {
    let raw = `http://s.example/${segments.join("/")}`;
    if (query !== null) raw += `?${query.join("")}`;
    if (hash !== null) raw += `#${hash}`;
    return raw;
  });

/** The resource a URL names, for comparison: RFC 3986 §6.2.2.1 and §6.2.2.2 on the path. */
function resource(raw: string): string {
  const u = new URL(raw);
  const path = u.pathname
    .replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase())
    .replace(/%([0-9A-F]{2})/g, (m, hex: string) => {
      const c = String.fromCharCode(Number.parseInt(hex, 16));
      return /[A-Za-z0-9\-._~]/.test(c) ? c : m;
    });
  const query = u.href.slice(0, u.href.length - u.hash.length).includes("?")
    ? `?${u.search.slice(1)}`
    : "";
  return `${u.host}${path}${query}`;
}

describe("fuzz: download file names", () => {
  it("one name per resource; every segment a safe file name", { timeout: HANG_GUARD_MS }, () => {
    // Many URLs of few pieces at once, so that names meet often.
    fuzz(fc.array(url, { minLength: 2, maxLength: 30 }), (urls) => {
      const owner = new Map<string, string>();
      for (const u of urls) {
        const name = localPath(u);
        for (const segment of name.split("/")) {
          assert.notEqual(segment, "");
          assert.ok(!segment.startsWith("."), `${u} → ${segment}`);
          assert.ok(Buffer.byteLength(segment) <= 255);
          assert.ok(!segment.includes("\0"));
        }
        const before = owner.get(name);
        if (before === undefined) owner.set(name, u);
        else assert.equal(resource(u), resource(before), `${before} and ${u} share ${name}`);
      }
    });
  });
});
