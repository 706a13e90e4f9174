import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { characterMask } from "../../../../src/protocol/robots/path-pattern.js";
import { type GroupLine, lastMatch } from "../../../../src/protocol/robots/regp/last-match.js";
import { PathGroup, type PathLineSource } from "../../../../src/protocol/robots/regp/path-group.js";

const line = (n: number, allow: boolean, path: string, text?: string): PathLineSource => ({
  allow,
  line: n,
  path,
  text: text ?? `${allow ? "Allow" : "Disallow"}: ${path}`,
});

/** The group's answer, and the answer of the objects it lists read as last-match.ts reads them. */
function both(group: PathGroup, url: string) {
  const byGroup = group.lastMatch((p) => p.matches(url));
  const byList = lastMatch(group.list(), (l) => l.pattern.matches(url));
  const view = (by: GroupLine | string) =>
    typeof by === "string" ? by : { allow: by.allow, line: by.line, text: by.text };
  return {
    group: { allowed: byGroup.allowed, by: view(byGroup.by) },
    list: { allowed: byList.allowed, by: view(byList.by) },
  };
}

describe("a REGP path group kept as columns", () => {
  const group = PathGroup.of([
    line(4, false, "/news/"),
    // A URL value whose path ends the line's text: cut from the text when needed.
    line(5, true, "/news/?p=1", "Allow: http://www.example.com/news/?p=1"),
    line(6, false, "*.PHP$"),
    line(7, true, "/news/keep"),
  ]);

  it("lists its lines as written, with their patterns", () => {
    const lines = group.list();
    assert.deepEqual(
      lines.map((l) => [l.line, l.allow, l.everything, l.text, l.pattern.source]),
      [
        [4, false, false, "Disallow: /news/", "/news/"],
        [5, true, false, "Allow: http://www.example.com/news/?p=1", "/news/?p=1"],
        [6, false, false, "Disallow: *.PHP$", "*.PHP$"],
        [7, true, false, "Allow: /news/keep", "/news/keep"],
      ],
    );
  });

  it("keeps apart a path that is not the end of its line's text", () => {
    const site = PathGroup.of([line(2, false, "/", "Disallow: http://www.example.com")]);
    assert.deepEqual(
      site.list().map((l) => [l.everything, l.text, l.pattern.source]),
      [[true, "Disallow: http://www.example.com", "/"]],
    );
    assert.equal(site.lastMatch((p) => p.matches("/any")).allowed, false);
  });

  it("decides as the last match over its listed lines decides", () => {
    const urls = [
      "/news/a",
      "/news/?p=1",
      "/news/?p=12",
      "/a/b.php",
      "/A/B.PHP",
      "/news/keep",
      "/x",
    ];
    for (const url of urls) {
      const { group: got, list: want } = both(group, url);
      assert.deepEqual(got, want, url);
    }
    assert.equal(group.lastMatch((p) => p.matches("/news/?p=1")).allowed, true);
    assert.equal(group.lastMatch((p) => p.matches("/news/x.php")).allowed, false);
  });

  it("takes the implicit first line when nothing matches", () => {
    // seeds/003 §3.2.5: a group opening with a non-root Disallow implies `Allow: /` first.
    assert.deepEqual(both(group, "/x").group, { allowed: true, by: "implicit" });
    const allowFirst = PathGroup.of([line(3, true, "/open")]);
    assert.deepEqual(both(allowFirst, "/x").group, { allowed: false, by: "implicit" });
    const rootFirst = PathGroup.of([line(3, false, "/"), line(4, true, "/a")]);
    assert.equal(rootFirst.list()[0]?.everything, true);
    assert.deepEqual(both(rootFirst, "//").group.by, {
      allow: false,
      line: 3,
      text: "Disallow: /",
    });
    assert.deepEqual(both(PathGroup.of([]), "/x").group, { allowed: true, by: "empty" });
  });

  it("shares one pattern with every rule written the same way", () => {
    const other = PathGroup.of([line(9, false, "/news/", "Disallow:   /news/")]);
    assert.equal(other.at(0).pattern, group.at(0).pattern);
  });
});

describe("a REGP path group's query (decide) answers as the last match over its patterns", () => {
  // Every wildcard form, upper case, escapes, characters to encode, URL values.
  const PIECES = [
    "/",
    "a",
    "B",
    "z",
    "*",
    "$",
    "%41",
    "%2f",
    "%7E",
    "~",
    "é",
    "?",
    "=",
    "#",
    ".",
    " ",
  ];
  const probe = (path: string) => ({
    path,
    have: characterMask(path),
    second: path.length > 1 ? path.charCodeAt(1) : -2,
  });
  const pattern = fc
    .array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 8 })
    .map((p) => `${p[0] === "*" ? "" : "/"}${p.join("")}`);
  it("on random groups and random lower-cased paths", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), pattern, fc.boolean()), { maxLength: 12 }),
        fc.array(fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }), { maxLength: 8 }),
        (rules, paths) => {
          const lines = rules.map(([allow, path, asUrl], i) =>
            line(i + 1, allow, path, asUrl ? `Allow: http://h.example${path}#` : undefined),
          );
          const loose = PathGroup.of(lines);
          // The same lines found in a file's text: read there in place.
          let file = "## head\n";
          const found = lines.map((l) => {
            const at = file.length;
            file += `${l.text}\n`;
            return { ...l, at };
          });
          const group = PathGroup.of(found, file);
          assert.deepEqual(
            group.list().map((l) => [l.line, l.allow, l.text, l.pattern.source]),
            loose.list().map((l) => [l.line, l.allow, l.text, l.pattern.source]),
          );
          for (const pieces of paths) {
            const path = `/${pieces.join("")}`.toLowerCase();
            const index = group.decide(probe(path));
            const want = lastMatch(group.list(), (l) => l.pattern.matches(path));
            const got = group.verdict(index);
            assert.equal(got.allowed, want.allowed, path);
            assert.equal(group.allowsAt(index), want.allowed, path);
            assert.equal(loose.decide(probe(path)), index, path);
            assert.equal(
              typeof got.by === "string" ? got.by : got.by.line,
              typeof want.by === "string" ? want.by : want.by.line,
              path,
            );
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
  it("a plain path with upper case is compared folded, in place", () => {
    const group = PathGroup.of([line(1, false, "/Private/"), line(2, true, "/Private/Open")]);
    assert.equal(group.allowsAt(group.decide(probe("/private/x"))), false);
    assert.equal(group.allowsAt(group.decide(probe("/private/open/y"))), true);
    assert.equal(group.allowsAt(group.decide(probe("/privat"))), true);
  });
});
