/**
 * W3C datetimes (https://www.w3.org/TR/NOTE-datetime), the format of sitemaps.org `<lastmod>`:
 *
 *   YYYY                          2005
 *   YYYY-MM                       2005-01
 *   YYYY-MM-DD                    2005-01-01
 *   YYYY-MM-DDThh:mmTZD           2005-01-01T12:30+01:00
 *   YYYY-MM-DDThh:mm:ssTZD        2005-01-01T12:30:45Z
 *   YYYY-MM-DDThh:mm:ss.sTZD      2005-01-01T12:30:45.25-05:00
 *
 * TZD is `Z` or `+hh:mm` / `-hh:mm`; the note requires it whenever a time is given. Arithmetic is
 * on the proleptic Gregorian calendar in plain integers; nothing reads a clock.
 */
import { parseDateTime } from "../robots/regp/values/rfc822-time.js";

export type DatetimePrecision = "year" | "month" | "day" | "minute" | "second" | "fraction";

export interface W3cDatetime {
  readonly precision: DatetimePrecision;
  readonly year: number;
  /** 1-12; 1 when the precision is the year. */
  readonly month: number;
  /** 1-31; 1 when the precision is coarser than the day. */
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** The decimal fraction of the second as written ("25" for .25), or "". */
  readonly fraction: string;
  /** Local time minus UTC in minutes; null for a date without a time (no zone is written). */
  readonly offsetMinutes: number | null;
  /** Where the value starts, in ms since the epoch; a date alone is read as midnight UTC. */
  readonly epochMs: number;
}

export type DatetimeResult =
  | { readonly ok: true; readonly value: W3cDatetime }
  | { readonly ok: false; readonly error: string };

// The shape, without captures: every part sits at a fixed offset (YYYY-MM-DDThh:mm:ss), so the
// numbers are read by position, which keeps the check cheap enough for every entry of a file.
const SHAPE =
  /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?)?)?$/;

const EXAMPLES = "such as 2005-01-01 or 2005-01-01T12:30:00+01:00";

/** Null when `text` (trimmed) is a valid W3C datetime; otherwise the reason, in one line. */
export function checkW3cDatetime(text: string): string | null {
  const r = read(text.trim());
  return typeof r === "string" ? r : null;
}

export function parseW3cDatetime(text: string): DatetimeResult {
  const r = read(text.trim());
  return typeof r === "string" ? { ok: false, error: r } : { ok: true, value: r };
}

function num(t: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + t.charCodeAt(i) - 48;
  return n;
}

function read(t: string): W3cDatetime | string {
  if (!SHAPE.test(t)) return fail(t, diagnose(t));
  const n = t.length;
  const year = num(t, 0, 4);
  const month = n >= 7 ? num(t, 5, 7) : 1;
  const day = n >= 10 ? num(t, 8, 10) : 1;
  if (month < 1 || month > 12) return fail(t, `month ${t.slice(5, 7)} is not 01-12`);
  const last = daysInMonth(year, month);
  if (day < 1 || day > last)
    return fail(t, `day ${t.slice(8, 10)} is not in ${t.slice(0, 7)} (01-${last})`);
  if (n <= 10) {
    const precision = n === 10 ? "day" : n === 7 ? "month" : "year";
    return {
      precision,
      year,
      month,
      day,
      hour: 0,
      minute: 0,
      second: 0,
      fraction: "",
      offsetMinutes: null,
      epochMs: epochMs(year, month, day, 0, 0, 0, 0),
    };
  }
  const last2 = t.charCodeAt(n - 1);
  const tzd =
    last2 === 90 /* Z */
      ? "Z"
      : t.charCodeAt(n - 6) === 43 || t.charCodeAt(n - 6) === 45
        ? t.slice(n - 6)
        : "";
  if (tzd === "")
    return fail(t, "a time needs a time zone: Z or +hh:mm / -hh:mm (W3C datetime TZD)");
  const clock = t.slice(11, n - tzd.length); // hh:mm[:ss[.s]]
  const hour = num(clock, 0, 2);
  const minute = num(clock, 3, 5);
  const second = clock.length >= 8 ? num(clock, 6, 8) : 0;
  const fraction = clock.length > 9 ? clock.slice(9) : "";
  if (hour > 23) return fail(t, `hour ${clock.slice(0, 2)} is not 00-23`);
  if (minute > 59) return fail(t, `minute ${clock.slice(3, 5)} is not 00-59`);
  if (second > 59) return fail(t, `second ${clock.slice(6, 8)} is not 00-59`);
  let offsetMinutes = 0;
  if (tzd !== "Z") {
    const oh = num(tzd, 1, 3);
    const om = num(tzd, 4, 6);
    if (oh > 23 || om > 59) return fail(t, `time zone ${tzd} is not ±00:00-±23:59`);
    offsetMinutes = (tzd.startsWith("-") ? -1 : 1) * (oh * 60 + om);
  }
  const ms = fraction === "" ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  const precision = fraction !== "" ? "fraction" : clock.length >= 8 ? "second" : "minute";
  return {
    precision,
    year,
    month,
    day,
    hour,
    minute,
    second,
    fraction,
    offsetMinutes,
    epochMs: epochMs(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000,
  };
}

/** True when `text` is a valid W3C datetime. */
export function isW3cDatetime(text: string): boolean {
  return parseW3cDatetime(text).ok;
}

/**
 * An instant as a W3C datetime in UTC: `2005-01-01T12:30:45Z`, with `.sss` only when the
 * milliseconds are not zero; `day` gives `2005-01-01`.
 */
export function formatW3cDatetime(ms: number, precision: "day" | "second" = "second"): string {
  if (!Number.isFinite(ms)) throw new RangeError(`expected a finite time in ms, got ${ms}`);
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999)
    throw new RangeError(`expected a year 0000-9999 for a W3C datetime, got ${year}`);
  const day = `${pad(year, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  if (precision === "day") return day;
  const milli = date.getUTCMilliseconds();
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return `${day}T${time}${milli === 0 ? "" : `.${pad(milli, 3)}`}Z`;
}

/**
 * RSS 2.0 `<pubDate>` (RFC 822, `Mon, 27 Jun 2011 19:34:00 +0100`) as a W3C datetime keeping its
 * zone (`2011-06-27T19:34:00+01:00`). sitemaps.org "Syndication feed": the feed's date field is
 * the page's modification date. A time without a zone is read as UTC.
 */
export function rfc822ToW3c(text: string): DatetimeResult {
  const parsed = parseDateTime(text);
  if (!parsed.ok) return { ok: false, error: `expected an RFC 822 date: ${parsed.error}` };
  const { date, seconds, offsetMinutes } = parsed.value;
  if (date === null)
    return { ok: false, error: `expected an RFC 822 date with day, month and year, got "${text}"` };
  const offset = offsetMinutes ?? 0;
  const hour = Math.floor(seconds / 3600);
  const minute = Math.floor((seconds % 3600) / 60);
  const second = seconds % 60;
  const zone =
    offset === 0
      ? "Z"
      : `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return parseW3cDatetime(
    `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${zone}`,
  );
}

/** The W3C text of a parsed value, in its own precision and zone. */
export function w3cText(v: W3cDatetime): string {
  const date = `${pad(v.year, 4)}-${pad(v.month)}-${pad(v.day)}`;
  switch (v.precision) {
    case "year":
      return pad(v.year, 4);
    case "month":
      return date.slice(0, 7);
    case "day":
      return date;
    default: {
      const offset = v.offsetMinutes ?? 0;
      const zone =
        offset === 0
          ? "Z"
          : `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
      const seconds =
        v.precision === "minute"
          ? ""
          : `:${pad(v.second)}${v.precision === "fraction" ? `.${v.fraction}` : ""}`;
      return `${date}T${pad(v.hour)}:${pad(v.minute)}${seconds}${zone}`;
    }
  }
}

function fail(text: string, why: string): string {
  return `expected a W3C datetime ${EXAMPLES}, got "${clip(text)}": ${why}`;
}

/** The commonest slips, named, so that a webmaster sees what to change. */
function diagnose(t: string): string {
  if (t === "") return "it is empty";
  if (/^\d{4}-\d{2}-\d{2}[ t]\d{2}:\d{2}/.test(t)) return 'date and time are joined by "T"';
  if (/^[A-Za-z]{3},? /.test(t)) return "this is an RFC 822 date; sitemaps use YYYY-MM-DD";
  if (/[+-]\d{4}$/.test(t)) return 'the zone is written "+hh:mm", with a colon';
  if (/^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}/.test(t)) return "the date is written YYYY-MM-DD";
  return "it does not have that shape";
}

function clip(t: string): string {
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days from 1970-01-01 to a civil date (H. Hinnant's algorithm); valid for every year. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function epochMs(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): number {
  return (
    daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + ms
  );
}
