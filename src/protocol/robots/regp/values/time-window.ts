/**
 * When may a robot come? `Visit-time` and `Time-forbidden` spans (seeds/003 §3.2.8) evaluated at
 * an instant the caller passes in: nothing here reads a clock (DESIGN §2).
 *
 * Readings where the paper is silent, chosen once and used everywhere:
 * - An end names the last second inside the span: `Time-forbidden: … -2 Nov 2014 23:59:59 UT`
 *   forbids through 23:59:59.999 and reopens at 00:00:00. The same holds for daily spans, so
 *   `Visit-time: 01:00-06:00` closes at 06:00:01.
 * - A span without dates repeats every day in its zone; an end earlier than the start runs into
 *   the next day (§3.2.8). A daily span whose start equals its end (`00:00-00:00`) is the whole
 *   day: nobody writes a one-second window, and that is how "all day" is commonly written.
 * - A span without a zone on either end is read in `defaultOffsetMinutes` (UT unless told).
 * - Several `Visit-time` lines are alternatives (the robot may come within any of them); every
 *   `Time-forbidden` line holds on its own (the robot may not come within any of them).
 */
import {
  type DatedTimeExpression,
  instantOf,
  type TimeExpression,
  type TimeSpan,
} from "./rfc822-time.js";

export type WindowKind = "visit" | "forbidden";

export interface WindowState {
  /** May the robot come now, as far as this window (or these windows) is concerned? */
  readonly open: boolean;
  /** The next instant (ms since the epoch) at which `open` changes, or null if it never does. */
  readonly next: number | null;
}

/** One `Visit-time` or `Time-forbidden` line. */
export interface TimeWindow {
  readonly kind: WindowKind;
  readonly span: TimeSpan;
}

export interface CombinedWindowState extends WindowState {
  /**
   * True when the search for `next` stopped at {@link MAX_WINDOW_STEPS} without an answer; `next`
   * is then null although a change may yet come. False means `next` is exact.
   */
  readonly gaveUp: boolean;
}

/**
 * How many candidate instants {@link combineWindows} examines before giving up. Each window
 * changes at most twice a day, so a few hundred steps cover months of ordinary files.
 */
export const MAX_WINDOW_STEPS = 500;

const DAY_MS = 86_400_000;
const SECOND_MS = 1000;

/** One window at instant `at` (ms since the epoch). See the module comment for the readings. */
export function windowAt(
  kind: WindowKind,
  span: TimeSpan,
  at: number,
  defaultOffsetMinutes = 0,
): WindowState {
  const inside = spanAt(span, at, defaultOffsetMinutes);
  return { open: kind === "visit" ? inside.inside : !inside.inside, next: inside.next };
}

/**
 * All `Visit-time` and `Time-forbidden` lines that apply to a robot, at instant `at`: may it come
 * now, and when does that change (if closed: the earliest instant every line allows it)?
 * No lines at all: always open.
 */
export function combineWindows(
  windows: readonly TimeWindow[],
  at: number,
  defaultOffsetMinutes = 0,
): CombinedWindowState {
  const stateAt = (t: number) =>
    windows.map((w) => windowAt(w.kind, w.span, t, defaultOffsetMinutes));
  let states = stateAt(at);
  const open = allowed(windows, states);
  // After the last dated instant every window repeats daily, so one unchanged day after it
  // (or after `at`, if later) means no change ever comes.
  const horizon = Math.max(at, lastDatedInstant(windows, defaultOffsetMinutes)) + DAY_MS;
  for (let step = 0; step < MAX_WINDOW_STEPS; step++) {
    const candidate = open ? earliestChange(states) : earliestOpening(windows, states);
    if (candidate === null || candidate > horizon) return { open, next: null, gaveUp: false };
    states = stateAt(candidate);
    if (allowed(windows, states) !== open) return { open, next: candidate, gaveUp: false };
  }
  return { open, next: null, gaveUp: true };
}

interface SpanState {
  readonly inside: boolean;
  /** The next instant at which `inside` changes, or null. */
  readonly next: number | null;
}

function spanAt(span: TimeSpan, at: number, defaultOffsetMinutes: number): SpanState {
  const { start, end } = span;
  if (start.date !== null && end.date !== null) {
    const from = instantOf(start as DatedTimeExpression, defaultOffsetMinutes);
    const until = instantOf(end as DatedTimeExpression, defaultOffsetMinutes) + SECOND_MS;
    if (at < from) return { inside: false, next: from };
    if (at < until) return { inside: true, next: until };
    return { inside: false, next: null };
  }
  // Daily (a span with a date on one end only cannot come from parseTimeSpan; it is read as daily).
  const from = dayOffsetMs(start, 0, defaultOffsetMinutes);
  const until = dayOffsetMs(end, SECOND_MS, defaultOffsetMinutes);
  const sameClock = from === dayOffsetMs(end, 0, defaultOffsetMinutes);
  const length = sameClock ? DAY_MS : mod(until - from, DAY_MS) || DAY_MS;
  if (length === DAY_MS) return { inside: true, next: null };
  const into = mod(at - from, DAY_MS);
  return into < length
    ? { inside: true, next: at + (length - into) }
    : { inside: false, next: at + (DAY_MS - into) };
}

/** Where in the UTC day (ms) an expression's clock time falls, plus `extra`. */
function dayOffsetMs(expr: TimeExpression, extra: number, defaultOffsetMinutes: number): number {
  const offset = expr.offsetMinutes ?? defaultOffsetMinutes;
  return mod((expr.seconds - offset * 60) * SECOND_MS + extra, DAY_MS);
}

function allowed(windows: readonly TimeWindow[], states: readonly WindowState[]): boolean {
  let anyVisit = false;
  let inVisit = false;
  for (let i = 0; i < windows.length; i++) {
    const open = (states[i] as WindowState).open;
    if ((windows[i] as TimeWindow).kind === "forbidden") {
      if (!open) return false;
    } else {
      anyVisit = true;
      inVisit ||= open;
    }
  }
  return !anyVisit || inVisit;
}

function earliestChange(states: readonly WindowState[]): number | null {
  let best: number | null = null;
  for (const s of states) if (s.next !== null && (best === null || s.next < best)) best = s.next;
  return best;
}

/**
 * A lower bound on the next opening while closed: every closed Time-forbidden window must reopen
 * first (the latest of those), else some Visit-time window must open (the earliest of those).
 * Instants skipped this way are all closed, so no opening is missed.
 */
function earliestOpening(
  windows: readonly TimeWindow[],
  states: readonly WindowState[],
): number | null {
  let latestReopen: number | null = null;
  let blocked = false;
  const visits: WindowState[] = [];
  for (let i = 0; i < windows.length; i++) {
    const state = states[i] as WindowState;
    if ((windows[i] as TimeWindow).kind === "forbidden") {
      if (state.open) continue;
      if (state.next === null) return null; // forbidden for good
      blocked = true;
      if (latestReopen === null || state.next > latestReopen) latestReopen = state.next;
    } else {
      visits.push(state);
    }
  }
  return blocked ? latestReopen : earliestChange(visits);
}

function lastDatedInstant(windows: readonly TimeWindow[], defaultOffsetMinutes: number): number {
  let last = Number.NEGATIVE_INFINITY;
  for (const { span } of windows) {
    if (span.start.date !== null && span.end.date !== null) {
      last = Math.max(
        last,
        instantOf(span.end as DatedTimeExpression, defaultOffsetMinutes) + SECOND_MS,
      );
    }
  }
  return last;
}

function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}
