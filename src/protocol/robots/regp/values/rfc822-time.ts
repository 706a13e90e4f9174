/**
 * RFC 822 dates and times as REGP uses them: `Last-modified` (seeds/003 §3.2.2) and the two ends
 * of `Visit-time` / `Time-forbidden` spans (§3.2.8).
 *
 * RFC 822 §5.1: `date-time = [ day "," ] date time`, `date = 1*2DIGIT month 2DIGIT`,
 * `hour = 2DIGIT ":" 2DIGIT [":" 2DIGIT]`, `zone = "UT" / "GMT" / "EST" … / 1ALPHA / ("+"/"-") 4DIGIT`.
 * REGP loosens it in three ways the paper shows: the date may be left out (`Visit-time:
 * 01:00 +0800-06:00 +0800`), the hour may have one digit (`1:00-16:00 UT`), and the year may have
 * two or four digits (§3.2.2: "15" and "2015" both express 2015). The zone may be left out too;
 * the value then says `offsetMinutes: null` and the caller decides.
 *
 * All arithmetic is on the proleptic Gregorian calendar in plain integers; nothing reads a clock.
 */
import { fail, ok, type ValueResult } from "./result.js";
import { got, show } from "./text.js";

export interface CalendarDate {
  readonly year: number;
  /** 1-12. */
  readonly month: number;
  /** 1-31, valid for the month. */
  readonly day: number;
}

export interface TimeExpression {
  /** The calendar date, or null when only a time of day is written (a daily time). */
  readonly date: CalendarDate | null;
  /** Seconds since the start of the day, 0..86399. */
  readonly seconds: number;
  /** Local time minus UTC in minutes (`+0800` → 480), or null when no zone is written. */
  readonly offsetMinutes: number | null;
}

export type DatedTimeExpression = TimeExpression & { readonly date: CalendarDate };

/** `start-end`, as written in `Visit-time` and `Time-forbidden` (seeds/003 §3.2.8). */
export interface TimeSpan {
  readonly start: TimeExpression;
  readonly end: TimeExpression;
}

// Index 0 is Sunday, as (days since 1970-01-01 + 4) mod 7 gives: 1970-01-01 was a Thursday.
const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
const MONTH_NAMES = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
] as const;

// RFC 822 §5.1 and §5.2: the named zones and their offsets. `Z` is the one military zone kept:
// RFC 1123 §5.2.14 notes the others were defined with the wrong sign, so they are refused.
const ZONES: ReadonlyMap<string, number> = new Map([
  ["UT", 0],
  ["GMT", 0],
  ["Z", 0],
  ["EST", -300],
  ["EDT", -240],
  ["CST", -360],
  ["CDT", -300],
  ["MST", -420],
  ["MDT", -360],
  ["PST", -480],
  ["PDT", -420],
]);

const SECONDS_PER_DAY = 86_400;
const MS_PER_SECOND = 1000;

/**
 * `[[Day ","] dd Mon yy[yy]] hh:mm[:ss] [zone]`, e.g. `30 Oct 2014 04:31:17 UT`,
 * `Thu, 30 Oct 2014 04:31 UT`, `30 Oct 2014 12:31 +0800`, `01:00 +0800`, `1:00`.
 * Names are read in any case (RFC 822 §3.4.7). A day of the week must agree with the date.
 */
export function parseDateTime(text: string): ValueResult<TimeExpression> {
  // "Thu,30 Oct" and "Thu , 30 Oct" are the same tokens as "Thu, 30 Oct".
  const t = text.trim().replace(/\s*,\s*/, ", ");
  if (t === "") return fail(`expected a time expression such as 01:00 +0800, got ${got(t)}`);
  const tokens = t.split(/\s+/);
  let i = 0;
  let weekday: number | null = null;
  const first = tokens[0] as string;
  if (first.endsWith(",")) {
    const name = first.slice(0, -1);
    weekday = nameIndex(DAY_NAMES, name);
    if (weekday < 0)
      return fail(`expected a day of the week (Mon … Sun) before ",", got ${got(name)}`);
    i++;
  }
  let date: CalendarDate | null = null;
  if (/^\d+$/.test(tokens[i] ?? "")) {
    const parsed = parseDate(tokens.slice(i, i + 3));
    if (!parsed.ok) return parsed;
    date = parsed.value;
    i += 3;
  } else if (weekday !== null) {
    const after = tokens[i];
    return fail(
      `expected a date after ${show(first)} such as "30 Oct 2014", got ${after === undefined ? "nothing" : show(after)}`,
    );
  }
  const timeText = tokens[i];
  if (timeText === undefined)
    return fail(`expected a time hh:mm[:ss] after the date, got nothing in ${show(t)}`);
  const seconds = parseClock(timeText);
  if (!seconds.ok) return seconds;
  i++;
  let offsetMinutes: number | null = null;
  const zoneText = tokens[i];
  if (zoneText !== undefined) {
    const zone = parseZone(zoneText);
    if (!zone.ok) return zone;
    offsetMinutes = zone.value;
    i++;
  }
  if (i < tokens.length) {
    return fail(
      `expected the time expression to end after ${show(tokens.slice(0, i).join(" "))}, got ${show(tokens.slice(i).join(" "))}`,
    );
  }
  if (weekday !== null && date !== null) {
    const actual = weekdayOf(date);
    if (actual !== weekday) {
      return fail(
        `expected ${DAY_NAMES[actual]} for ${formatDate(date)}, got ${show(first.slice(0, -1))}`,
      );
    }
  }
  return ok({ date, seconds: seconds.value, offsetMinutes });
}

/**
 * `start-end` for `Visit-time` and `Time-forbidden`. The separating `-` can also begin a `-hhmm`
 * zone (`01:00 -0500-06:00 -0500`), so every `-` is tried and the split where both sides parse
 * is kept. seeds/003 §3.2.8: "If only a single time expression contains the time zone, crawlers
 * can assume [the other] also adopts this time zone": the zone is copied across. Both ends carry
 * a date, or neither does; a dated span may not end before it starts.
 */
export function parseTimeSpan(text: string): ValueResult<TimeSpan> {
  const t = text.trim();
  const expected = "expected a time span start-end such as 01:00 +0800-06:00 +0800";
  if (t === "") return fail(`${expected}, got ${got(t)}`);
  const found: [TimeExpression, TimeExpression][] = [];
  let startError: string | null = null;
  let endError: string | null = null;
  for (let at = t.indexOf("-"); at >= 0; at = t.indexOf("-", at + 1)) {
    const left = t.slice(0, at).trim();
    const right = t.slice(at + 1).trim();
    if (left === "" || right === "") continue;
    const start = parseDateTime(left);
    const end = parseDateTime(right);
    if (start.ok && end.ok) found.push([start.value, end.value]);
    // The last split whose start parses is the likeliest intent; report its end.
    else if (start.ok && !end.ok) endError = `end of span ${show(right)}: ${end.error}`;
    else if (!start.ok && startError === null)
      startError = `start of span ${show(left)}: ${start.error}`;
  }
  if (found.length === 0) {
    if (endError !== null) return fail(endError);
    if (startError !== null) return fail(startError);
    return fail(`${expected}, got ${show(t)} with no "-" between two times`);
  }
  if (found.length > 1)
    return fail(`expected one way to split ${show(t)} at "-", got ${found.length}`);
  const [first, second] = found[0] as [TimeExpression, TimeExpression];
  const start =
    first.offsetMinutes === null ? { ...first, offsetMinutes: second.offsetMinutes } : first;
  const end =
    second.offsetMinutes === null ? { ...second, offsetMinutes: first.offsetMinutes } : second;
  if ((start.date === null) !== (end.date === null)) {
    const dated = start.date === null ? "end" : "start";
    return fail(
      `expected a date on both ends of a span or on neither, got one on the ${dated} only in ${show(t)}`,
    );
  }
  if (start.date !== null && end.date !== null) {
    const from = instantOf(start as DatedTimeExpression);
    const to = instantOf(end as DatedTimeExpression);
    if (to < from)
      return fail(
        `expected a span that ends after it starts, got an end before the start in ${show(t)}`,
      );
  }
  return ok({ start, end });
}

/**
 * Milliseconds since 1970-01-01T00:00:00Z of a dated expression. A missing zone is read as
 * `defaultOffsetMinutes` (0 = UT). Pure arithmetic: no `Date`, no clock.
 */
export function instantOf(expr: DatedTimeExpression, defaultOffsetMinutes = 0): number {
  const { year, month, day } = expr.date;
  const offset = expr.offsetMinutes ?? defaultOffsetMinutes;
  return (
    (daysFromCivil(year, month, day) * SECONDS_PER_DAY + expr.seconds - offset * 60) * MS_PER_SECOND
  );
}

/**
 * `30 Oct 2014 04:31:17 UT`, `01:00 +0800`, `16:00`: four-digit years, two-digit hours, seconds
 * only when not zero, and an offset of 0 as `UT`. Parsing the text gives the value back.
 */
export function formatTimeExpression(expr: TimeExpression): string {
  const parts: string[] = [];
  if (expr.date !== null) parts.push(formatDate(expr.date));
  const h = Math.floor(expr.seconds / 3600);
  const m = Math.floor((expr.seconds % 3600) / 60);
  const s = expr.seconds % 60;
  parts.push(s === 0 ? `${two(h)}:${two(m)}` : `${two(h)}:${two(m)}:${two(s)}`);
  if (expr.offsetMinutes !== null) parts.push(formatZone(expr.offsetMinutes));
  return parts.join(" ");
}

/** `start-end`, each end written whole (its zone included), so that nothing is copied on reading. */
export function formatTimeSpan(span: TimeSpan): string {
  return `${formatTimeExpression(span.start)}-${formatTimeExpression(span.end)}`;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const shifted = (month + 9) % 12; // March = 0 … February = 11
  const dayOfYear = Math.floor((153 * shifted + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** 0 = Sunday … 6 = Saturday. */
function weekdayOf(date: CalendarDate): number {
  const days = daysFromCivil(date.year, date.month, date.day);
  return (((days + 4) % 7) + 7) % 7;
}

function parseDate(tokens: readonly string[]): ValueResult<CalendarDate> {
  const [dayText = "", monthText, yearText] = tokens;
  if (!/^\d{1,2}$/.test(dayText))
    return fail(`expected a 1- or 2-digit day of the month, got ${show(dayText)}`);
  if (monthText === undefined)
    return fail(`expected a month name (Jan … Dec) after ${show(dayText)}, got nothing`);
  const monthIndex = nameIndex(MONTH_NAMES, monthText);
  if (monthIndex < 0) return fail(`expected a month name (Jan … Dec), got ${show(monthText)}`);
  if (yearText === undefined)
    return fail(`expected a year after ${show(`${dayText} ${monthText}`)}, got nothing`);
  if (!/^(?:\d{2}|\d{4})$/.test(yearText))
    return fail(`expected a 2- or 4-digit year, got ${show(yearText)}`);
  const written = Number(yearText);
  // RFC 2822 §4.3: a two-digit year 00-49 is 20xx and 50-99 is 19xx (seeds/003 §3.2.2: "15" is 2015).
  const year = yearText.length === 4 ? written : written < 50 ? 2000 + written : 1900 + written;
  const month = monthIndex + 1;
  const day = Number(dayText);
  const last = daysInMonth(year, month);
  if (day < 1 || day > last) {
    return fail(
      `expected a day 1-${last} for ${MONTH_NAMES[monthIndex]} ${year}, got ${show(dayText)}`,
    );
  }
  return ok({ year, month, day });
}

/** `hh:mm[:ss]` with a one- or two-digit hour (seeds/003 writes `1:00`) → seconds of the day. */
function parseClock(text: string): ValueResult<number> {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (m === null) return fail(`expected a time hh:mm[:ss], got ${show(text)}`);
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = m[3] === undefined ? 0 : Number(m[3]);
  if (hour > 23) return fail(`expected an hour 0-23, got ${hour} in ${show(text)}`);
  if (minute > 59) return fail(`expected minutes 00-59, got ${m[2]} in ${show(text)}`);
  // RFC 822 has no leap second; a day has 86400 seconds here, as the value's range says.
  if (second > 59) return fail(`expected seconds 00-59, got ${m[3]} in ${show(text)}`);
  return ok(hour * 3600 + minute * 60 + second);
}

function parseZone(text: string): ValueResult<number> {
  const named = ZONES.get(text.toUpperCase());
  if (named !== undefined) return ok(named);
  const m = /^([+-])(\d{2})(\d{2})$/.exec(text);
  if (m !== null) {
    const hours = Number(m[2]);
    const minutes = Number(m[3]);
    if (hours > 23) return fail(`expected zone hours 00-23, got ${m[2]} in ${show(text)}`);
    if (minutes > 59) return fail(`expected zone minutes 00-59, got ${m[3]} in ${show(text)}`);
    // `-0000` is offset 0 too; `|| 0` keeps it from becoming -0.
    return ok((m[1] === "-" ? -1 : 1) * (hours * 60 + minutes) || 0);
  }
  if (/^[A-IK-Za-ik-z]$/.test(text)) {
    return fail(
      `expected a zone other than the military ${show(text)}, whose sign RFC 1123 §5.2.14 calls unreliable; write ±hhmm`,
    );
  }
  return fail(
    `expected a zone (UT, GMT, Z, EST, EDT, CST, CDT, MST, MDT, PST, PDT or ±hhmm), got ${show(text)}`,
  );
}

function nameIndex(names: readonly string[], text: string): number {
  const lower = text.toLowerCase();
  return names.findIndex((n) => n.toLowerCase() === lower);
}

function formatDate(date: CalendarDate): string {
  return `${date.day} ${MONTH_NAMES[date.month - 1]} ${String(date.year).padStart(4, "0")}`;
}

function formatZone(offsetMinutes: number): string {
  if (offsetMinutes === 0) return "UT";
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${sign}${two(Math.floor(abs / 60))}${two(abs % 60)}`;
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}
