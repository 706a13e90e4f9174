/**
 * `Request-rate` and `Ip-rate` values (seeds/003 §3.2.7): `n/[k](s|m|h)`, at most n requests per
 * k seconds, minutes or hours. The prose allows a decimal n ("an integer or a decimal") where the
 * Appendix grammar says `1*DIGIT`; heed follows the prose. k is an optional integer, default 1.
 */
import { fail, ok, type ValueResult } from "./result.js";
import { formatDecimal, got, show } from "./text.js";

export type RateUnit = "s" | "m" | "h";

export interface Rate {
  /** n: requests allowed in one window (> 0, decimals allowed). */
  readonly requests: number;
  /** k: how many units one window lasts (a whole number ≥ 1). */
  readonly per: number;
  readonly unit: RateUnit;
  /** The window's length in seconds: k × the unit. */
  readonly seconds: number;
}

const UNIT_SECONDS: ReadonlyMap<string, number> = new Map([
  ["s", 1],
  ["m", 60],
  ["h", 3600],
]);

const EXPECTED = "expected a rate n/[k](s|m|h) such as 500/h or 1/5s";

/** `500/h`, `120/m`, `1/5s`, `0.5/s`, `10/30m`; spaces around `/` tolerated, units in either case. */
export function parseRate(text: string): ValueResult<Rate> {
  const t = text.trim();
  if (t === "") return fail(`${EXPECTED}, got ${got(t)}`);
  const slash = t.indexOf("/");
  if (slash < 0) return fail(`${EXPECTED}, got ${show(t)} with no "/"`);
  const countText = t.slice(0, slash).trim();
  const windowText = t.slice(slash + 1).trim();
  if (!/^(?:\d+(?:\.\d+)?|\.\d+)$/.test(countText)) {
    const what = /^-\s*\.?\d/.test(countText) ? "greater than 0" : "(such as 500 or 0.5)";
    return fail(
      `expected a number of requests ${what} before "/", got ${got(countText)} in ${show(t)}`,
    );
  }
  const requests = Number(countText);
  if (requests === 0)
    return fail(`expected a number of requests greater than 0 before "/", got ${show(countText)}`);
  if (!Number.isFinite(requests))
    return fail(`expected a number of requests that fits a double, got ${show(countText)}`);
  const m = /^(\d*)\s*(.*)$/.exec(windowText) as RegExpExecArray;
  const perText = m[1] as string;
  const unitText = m[2] as string;
  if (/^\.\d/.test(unitText)) {
    return fail(
      `expected a whole number of units after "/", got ${show(windowText)} in ${show(t)}`,
    );
  }
  if (unitText === "")
    return fail(`expected a unit s, m or h after ${show(`${countText}/${perText}`)}, got none`);
  const unit = unitText.toLowerCase();
  const unitSeconds = UNIT_SECONDS.get(unit);
  if (unitSeconds === undefined) {
    return fail(`expected a unit s, m or h, got ${show(unitText)} in ${show(t)}`);
  }
  const per = perText === "" ? 1 : Number(perText);
  if (per === 0)
    return fail(
      `expected a window of at least 1 unit, got ${show(perText + unitText)} in ${show(t)}`,
    );
  if (!Number.isSafeInteger(per))
    return fail(
      `expected a window of at most ${Number.MAX_SAFE_INTEGER} units, got ${show(perText)}`,
    );
  return ok({ requests, per, unit: unit as RateUnit, seconds: per * unitSeconds });
}

/** The least gap between requests a rate implies: 120/m → 0.5 s, 500/h → 7.2 s. */
export function rateGapSeconds(rate: Pick<Rate, "requests" | "seconds">): number {
  return rate.seconds / rate.requests;
}

/** `500/h`, `1/5s`; k is written only when it is not 1. */
export function formatRate(rate: Rate): string {
  return `${formatDecimal(rate.requests)}/${rate.per === 1 ? "" : rate.per}${rate.unit}`;
}
