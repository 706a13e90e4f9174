/**
 * What every reader's fuzz test shares: how many runs (bounded in `npm test`, many more with
 * `npm run fuzz`), how big the inputs grow, the hang guard, and text built from a reader's own
 * fragments so that random inputs reach past the first syntax check.
 *
 * HEED_FUZZ_RUNS    runs of each property (default 100; `npm run fuzz`: 20,000)
 * HEED_FUZZ_SCALE   how many fragments an input may have (default 40; `npm run fuzz`: 400)
 * HEED_FUZZ_SEED    replay one seed that fast-check printed
 */
import fc from "fast-check";

const number = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export const RUNS = number("HEED_FUZZ_RUNS", 100);
export const SCALE = number("HEED_FUZZ_SCALE", 40);
const SEED =
  process.env.HEED_FUZZ_SEED === undefined ? undefined : Number(process.env.HEED_FUZZ_SEED);

/**
 * A hang guard for a whole test, not a speed check: generous enough for a loaded machine; a
 * reader that loops or goes quadratic on a small input still fails it.
 */
export const HANG_GUARD_MS = Math.max(120_000, RUNS * 60);

/** Asserts `predicate` for RUNS inputs; any exception it lets out fails, with the input shrunk. */
export function fuzz<T>(arbitrary: fc.Arbitrary<T>, predicate: (input: T) => void): void {
  fc.assert(fc.property(arbitrary, predicate), {
    numRuns: RUNS,
    ...(SEED === undefined ? {} : { seed: SEED }),
  });
}

/** Any text: ASCII, controls, unicode, lone surrogates. */
export const anyText = (maxLength = SCALE * 4): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: "binary", maxLength }),
    fc.string({ unit: "grapheme", maxLength }),
  );

/** Text made of the given fragments, glued by separators a reader must survive. */
export function textOf(
  fragment: fc.Arbitrary<string>,
  separators: readonly string[] = ["\n", "\r\n", "\r", " ", "", "\t", "\n\n"],
): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(fragment, fc.constantFrom(...separators)), { maxLength: SCALE })
    .map((parts) => parts.map(([f, s]) => f + s).join(""));
}

/** A fragment: one of the reader's own words, or noise. */
export function pieceOf(words: readonly string[], noise = 8): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...words) },
    { weight: 1, arbitrary: anyText(noise) },
  );
}

/** Lines of the input, the unit most bounds are stated in. */
export function lineCount(text: string): number {
  let n = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}

/** URLs a reader is asked about: well-formed, odd and broken. */
export const someUrl: fc.Arbitrary<string> = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc
    .array(
      fc.constantFrom("/", "a", "%", "%2F", "%7e", "*", "$", "?", "#", "é", "..", ";", " ", "%zz"),
      {
        maxLength: 12,
      },
    )
    .map((p) => `https://site.example${p.join("")}`),
  anyText(40),
);
