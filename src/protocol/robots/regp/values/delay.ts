/**
 * `Crawl-delay` and `Ip-delay` values (seeds/003 §3.2.6): "an integer or a decimal, with time
 * presented in seconds". The Appendix grammar says `int`; the prose and Yandex's usage allow
 * decimals, and heed follows the prose. `.5` is read as 0.5.
 */
import { fail, ok, type ValueResult } from "./result.js";
import { formatDecimal, got, show } from "./text.js";

const SECONDS = /^(?:\d+(?:\.\d+)?|\.\d+)$/;
const EXPECTED = "expected a number of seconds such as 5 or 0.5";

/** `5`, `0.5`, `.5` → seconds ≥ 0. Negatives, units, exponents, `NaN` and `Infinity` are refused. */
export function parseSeconds(text: string): ValueResult<number> {
  const t = text.trim();
  if (t === "") return fail(`${EXPECTED}, got ${got(t)}`);
  if (SECONDS.test(t)) {
    const seconds = Number(t);
    if (!Number.isFinite(seconds))
      return fail(`expected a number of seconds that fits a double, got ${show(t)}`);
    return ok(seconds);
  }
  if (/^-\s*(?:\d|\.\d)/.test(t)) return fail(`expected seconds ≥ 0, got the negative ${show(t)}`);
  if (/^(?:\d+(?:\.\d*)?|\.\d+)e[+-]?\d+$/i.test(t)) {
    return fail(`expected plain decimal seconds, got the exponent form ${show(t)}`);
  }
  const unit = /^(?:\d+(?:\.\d+)?|\.\d+)\s*([A-Za-z]+)$/.exec(t)?.[1];
  if (unit !== undefined)
    return fail(`expected bare seconds without a unit, got ${show(unit)} in ${show(t)}`);
  return fail(`${EXPECTED}, got ${show(t)}`);
}

/** Writes seconds back as plain decimal digits (never `1e-7`), so that they parse again. */
export function formatSeconds(seconds: number): string {
  return formatDecimal(seconds);
}
