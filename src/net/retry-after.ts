/**
 * `Retry-After` (RFC 9110 §10.2.3): either delta-seconds or an HTTP-date, turned into a wait in
 * milliseconds. Pure: the current time is an argument.
 */

/**
 * The longest wait heed takes from a server: 24 hours. A server that asks for more is either
 * misconfigured (`Retry-After: 99999999`) or wants the robot gone, and a robot that obeys it
 * blindly parks the host for months. After a day the robot asks again, which is also how long
 * RFC 9309 §2.4 lets it keep a robots.txt, so the site gets to say anything new by then.
 */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

const DAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const LONG_DAY_NAMES = [
  "sunday",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
];
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

// RFC 9110 §5.6.7: IMF-fixdate, and the two obsolete forms recipients must accept as well.
const IMF_FIXDATE = /^([a-z]{3}), (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
const RFC850_DATE = /^([a-z]{6,9}), (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
const ASCTIME_DATE = /^([a-z]{3}) ([a-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

/**
 * The wait a `Retry-After` value asks for, in ms: delta-seconds (`120`) or an HTTP-date in any of
 * the three forms of RFC 9110 §5.6.7. A date in the past (or a negative delay) is 0; anything longer than
 * {@link MAX_RETRY_AFTER_MS} is cut to it; an absent or unreadable value is null.
 */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    // delta-seconds = 1*DIGIT; a value too large for a number is still "very long".
    return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  }
  // Not in the grammar, but its meaning is plain: no wait.
  if (/^-\d+$/.test(text)) return 0;
  const at = parseHttpDate(text, now);
  if (at === null) return null;
  return Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS);
}

/** An HTTP-date (RFC 9110 §5.6.7) as ms since the epoch, or null; `now` places two-digit years. */
export function parseHttpDate(text: string, now: number): number | null {
  let match = IMF_FIXDATE.exec(text);
  if (match) {
    const [, day, date, month, year, hour, minute, second] = match;
    if (!DAY_NAMES.includes(lower(day))) return null;
    return utc(Number(year), month, date, hour, minute, second);
  }
  match = RFC850_DATE.exec(text);
  if (match) {
    const [, day, date, month, yy, hour, minute, second] = match;
    if (!LONG_DAY_NAMES.includes(lower(day))) return null;
    // A two-digit year more than 50 years ahead means the most recent past year with those digits.
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(yy);
    if (year > thisYear + 50) year -= 100;
    return utc(year, month, date, hour, minute, second);
  }
  match = ASCTIME_DATE.exec(text);
  if (match) {
    const [, day, month, date, hour, minute, second, year] = match;
    if (!DAY_NAMES.includes(lower(day))) return null;
    return utc(Number(year), month, date?.trim(), hour, minute, second);
  }
  return null;
}

function utc(
  year: number,
  monthName: string | undefined,
  date: string | undefined,
  hour: string | undefined,
  minute: string | undefined,
  second: string | undefined,
): number | null {
  const month = MONTHS.indexOf(lower(monthName));
  const d = Number(date);
  const h = Number(hour);
  const m = Number(minute);
  // RFC 9110 §5.6.7 allows second 60 (a leap second); Date.UTC rolls it into the next minute.
  const s = Number(second);
  if (month < 0 || d < 1 || h > 23 || m > 59 || s > 60) return null;
  // Reject dates that do not exist (31 Feb), which Date.UTC would roll over.
  if (new Date(Date.UTC(year, month, d)).getUTCDate() !== d) return null;
  return Date.UTC(year, month, d, h, m, s);
}

function lower(text: string | undefined): string {
  return (text ?? "").toLowerCase();
}
