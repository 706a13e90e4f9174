// Property tests: PathPattern.matches against a slow reference matcher written from RFC 9309
// §2.2.2-§2.2.3 (and seeds/004 §3.2.2 for patterns without wildcards); canonicalize and
// requestPath against themselves and against WHATWG URL serialisation.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalize, PathPattern, requestPath } from "../../../src/index.js";
import { characterMask } from "../../../src/protocol/robots/path-pattern.js";

const RUNS = 2000;

// Tokens of a small alphabet, each with its canonical form when it stands for itself
// (RFC 9309 §2.2.2: unreserved %xx decoded, other %xx upper-case, non-ASCII as UTF-8 %xx;
// §2.2.3: a literal `*` or `$` is %2A or %24). Raw `*` and `$` are special only in patterns.
const LITERAL: Readonly<Record<string, string>> = {
  "/": "/",
  a: "a",
  b: "b",
  "*": "%2A",
  $: "%24",
  "%2A": "%2A",
  "%2a": "%2A",
  "%24": "%24",
  "%61": "a",
  "%2F": "%2F",
  "%2f": "%2F",
  ツ: "%E3%83%84",
  "%E3%83%84": "%E3%83%84",
};
const TOKENS = Object.keys(LITERAL);
// Mostly the plain characters, so that patterns and paths often share pieces.
const token = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("/", "a", "b") },
  { weight: 3, arbitrary: fc.constantFrom("*", "$") },
  { weight: 2, arbitrary: fc.constantFrom(...TOKENS) },
);
const tokens = fc.array(token, { maxLength: 8 });

function literal(t: string): string {
  const canonical = LITERAL[t];
  if (canonical === undefined) throw new Error(`no canonical form for ${t}`);
  return canonical;
}

const WILD = Symbol("*");
type Element = string | typeof WILD;

/** The pattern as the RFC reads it: raw `*` any run of octets, a final raw `$` the end. */
function compile(pattern: readonly string[], wildcards: boolean) {
  let body = pattern;
  let anchored = false;
  if (wildcards && body.length > 0 && body[body.length - 1] === "$") {
    anchored = true;
    body = body.slice(0, -1);
  }
  const elements: Element[] = [];
  for (const t of body) {
    if (wildcards && t === "*") elements.push(WILD);
    else elements.push(...literal(t));
  }
  return { elements, anchored };
}

/**
 * Glob matching by dynamic programming: `reach[j]` says whether the elements seen so far can
 * consume exactly `path[0..j)`. Unanchored patterns match a prefix of the path.
 */
function referenceMatches(pattern: readonly string[], path: string, wildcards: boolean): boolean {
  const { elements, anchored } = compile(pattern, wildcards);
  let reach: boolean[] = Array.from({ length: path.length + 1 }, (_, j) => j === 0);
  for (const element of elements) {
    const next: boolean[] = new Array(path.length + 1).fill(false);
    for (let j = 0; j <= path.length; j++) {
      if (element === WILD) {
        next[j] = Boolean(reach[j]) || (j > 0 && Boolean(next[j - 1]));
      } else {
        next[j] = j > 0 && Boolean(reach[j - 1]) && path[j - 1] === element;
      }
    }
    reach = next;
  }
  return anchored ? Boolean(reach[path.length]) : reach.some(Boolean);
}

function referenceCanonical(pattern: readonly string[], wildcards: boolean): string {
  const { anchored } = compile(pattern, wildcards);
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const text = body.map((t) => (wildcards && t === "*" ? "*" : literal(t))).join("");
  return anchored ? `${text}$` : text;
}

for (const wildcards of [true, false]) {
  const source = wildcards ? "RFC 9309 §2.2.2-§2.2.3" : "seeds/004 §3.2.2";
  describe(`PathPattern.matches against a reference matcher (wildcards: ${wildcards}, ${source})`, () => {
    it("matches exactly when the reference glob matcher does", () => {
      fc.assert(
        fc.property(tokens, tokens, (pattern, path) => {
          const rawPattern = pattern.join("");
          const rawPath = `/${path.join("")}`;
          const canonicalPath = canonicalize(rawPath);
          // The path is canonicalised as the reference reads it: every token literal.
          assert.equal(canonicalPath, `/${path.map(literal).join("")}`);
          const compiled = new PathPattern(rawPattern, { wildcards });
          assert.equal(compiled.canonical, referenceCanonical(pattern, wildcards));
          const matches = referenceMatches(pattern, canonicalPath, wildcards);
          assert.equal(
            compiled.matches(canonicalPath),
            matches,
            `pattern ${JSON.stringify(rawPattern)} path ${JSON.stringify(rawPath)}`,
          );
          // The query loop passes over a pattern by its mask and second character: both must
          // hold for every path it matches.
          const { anchored } = compile(pattern, wildcards);
          const literals = compiled.canonical.slice(0, anchored ? -1 : undefined);
          assert.equal(
            compiled.mask,
            characterMask(wildcards ? literals.replaceAll("*", "") : literals),
          );
          // A pattern canonical as written is described in one pass and cut into pieces when
          // first matched: what it says of itself is the same as for one compiled piece by piece.
          const firstPiece = wildcards ? (literals.split("*")[0] as string) : literals;
          assert.equal(compiled.second, firstPiece.length >= 2 ? firstPiece.charCodeAt(1) : -1);
          assert.equal(compiled.specificity, compiled.canonical.length);
          assert.equal(compiled.isWildcard, wildcards && (anchored || pattern.includes("*")));
          if (matches) {
            assert.equal(compiled.mask & ~characterMask(canonicalPath), 0);
            assert.ok(compiled.second === -1 || compiled.second === canonicalPath.charCodeAt(1));
          }
        }),
        { numRuns: RUNS },
      );
    });
    it("a pattern built from a path's own tokens matches that path", () => {
      fc.assert(
        fc.property(tokens, tokens, (prefix, rest) => {
          // Raw `*`/`$` in the path are literal there; in the pattern they are written %2A/%24.
          const escaped = prefix.map((t) => (t === "*" ? "%2A" : t === "$" ? "%24" : t));
          const pattern = new PathPattern(`/${escaped.join("")}`, { wildcards });
          const path = canonicalize(`/${[...prefix, ...rest].join("")}`);
          assert.equal(pattern.matches(path), true);
        }),
        { numRuns: RUNS },
      );
    });
  });
}

describe("canonicalize (RFC 9309 §2.2.2)", () => {
  const escapes = fc.constantFrom(
    "%",
    "%2",
    "%2F",
    "%2f",
    "%7e",
    "%7E",
    "%41",
    "%e3%83%84",
    "%zz",
    "%%",
    "2",
    "F",
    "e",
  );
  const text = fc.oneof(
    fc.string({ unit: "binary", maxLength: 16 }),
    fc.string({
      unit: fc.oneof(escapes, fc.constantFrom("/", "a", "*", "$", "?", " ", "ツ")),
      maxLength: 12,
    }),
  );
  it("is idempotent", () => {
    fc.assert(
      fc.property(text, (s) => {
        const once = canonicalize(s);
        assert.equal(canonicalize(once), once);
      }),
      { numRuns: RUNS },
    );
  });
  it("yields ASCII with every % starting an upper-case escape of a non-unreserved octet", () => {
    fc.assert(
      fc.property(text, (s) => {
        const c = canonicalize(s);
        assert.match(c, /^[\x21-\x7e]*$/);
        for (const m of c.matchAll(/%(..)?/g)) {
          const hex = m[1] ?? "";
          assert.match(hex, /^[0-9A-F]{2}$/);
          const octet = Number.parseInt(hex, 16);
          const ch = String.fromCharCode(octet);
          assert.ok(octet >= 0x80 || !/[A-Za-z0-9\-._~]/.test(ch), `%${hex} should be decoded`);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe("requestPath (RFC 9309 §2.2.2: the path a client requests)", () => {
  // URL text after `http://example.com/`: characters a client resolves or encodes itself.
  const piece = fc.constantFrom(
    "a",
    "b",
    "/",
    ".",
    "..",
    "%2e",
    "%2E",
    "%41",
    "%7e",
    "%2F",
    "?",
    "#",
    "ä",
    "ツ",
    " ",
    "*",
    "$",
    "%",
    "'",
    "{",
    "\\",
    "|",
    "%zz",
  );
  const url = fc.array(piece, { maxLength: 8 }).map((p) => `http://example.com/${p.join("")}`);

  it("of a URL equals requestPath of the URL re-serialised by new URL(...).href", () => {
    fc.assert(
      fc.property(url, (u) => {
        const href = new URL(u).href;
        assert.deepEqual(requestPath(u), requestPath(href), `${u} vs ${href}`);
      }),
      { numRuns: RUNS },
    );
  });
  it("of a URL string equals requestPath of the URL object", () => {
    fc.assert(
      fc.property(url, (u) => {
        assert.deepEqual(requestPath(u), requestPath(new URL(u)), u);
      }),
      { numRuns: RUNS },
    );
  });
  it("is canonical and starts with /", () => {
    fc.assert(
      fc.property(url, (u) => {
        const r = requestPath(u);
        assert.ok(r.ok);
        assert.ok(r.path.startsWith("/"));
        assert.equal(canonicalize(r.path), r.path);
      }),
      { numRuns: RUNS },
    );
  });
});
