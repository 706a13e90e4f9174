/** Small text helpers shared by the value parsers: quoting a bad part, writing a number back. */

// An error message quotes what it names; a very long value is cut so the message stays one line.
const MAX_SHOWN = 60;

/** `"abc"` for an error message; control characters escaped, long text cut with `…`. */
export function show(text: string): string {
  const cut = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
  return JSON.stringify(cut);
}

/** What a message says was found: the quoted text, or "an empty value". */
export function got(text: string): string {
  return text === "" ? "an empty value" : show(text);
}

/**
 * A finite number written as plain decimal digits, never with an exponent, so that the
 * parsers (which reject exponents) read back exactly the same number. `String(n)` is the
 * shortest text that reads back as `n`; moving its decimal point keeps that property.
 */
export function formatDecimal(n: number): string {
  const text = String(n);
  const e = text.indexOf("e");
  if (e < 0) return text;
  const negative = text.startsWith("-");
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exponent = Number(text.slice(e + 1));
  const dot = mantissa.indexOf(".");
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = (dot < 0 ? mantissa.length : dot) + exponent;
  let plain: string;
  if (point <= 0) plain = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = digits + "0".repeat(point - digits.length);
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${plain}` : plain;
}

/** The first character of `text` that `allowed` refuses, or null. */
export function firstBad(text: string, allowed: (code: number) => boolean): string | null {
  for (const ch of text) {
    if (!allowed(ch.codePointAt(0) as number)) return ch;
  }
  return null;
}
