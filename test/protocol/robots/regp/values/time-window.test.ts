// Visit-time / Time-forbidden evaluated at given instants: seeds/003 §3.2.8 (daily spans, an end
// before the start runs into the next day; dated spans), DESIGN §4 (a robot outside its window
// waits). The readings the paper leaves open are those documented in time-window.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  parseTimeSpan,
  type TimeSpan,
} from "../../../../../src/protocol/robots/regp/values/rfc822-time.js";
import {
  combineWindows,
  type TimeWindow,
  type WindowKind,
  windowAt,
} from "../../../../../src/protocol/robots/regp/values/time-window.js";
import { expectOk } from "./expect.js";

const RUNS = 500;

const span = (text: string): TimeSpan => expectOk(parseTimeSpan(text));
const at = (iso: string): number => {
  const ms = Date.parse(iso);
  assert.ok(Number.isFinite(ms), iso);
  return ms;
};
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

type Case = readonly [why: string, when: string, open: boolean, next: string | null];

function table(kind: WindowKind, text: string, cases: readonly Case[], defaultOffsetMinutes = 0) {
  for (const [why, when, open, next] of cases) {
    it(`${kind} ${JSON.stringify(text)} at ${when} (${why}): ${open ? "open" : "closed"}, next ${next}`, () => {
      const state = windowAt(kind, span(text), at(when), defaultOffsetMinutes);
      assert.deepEqual(
        { open: state.open, next: iso(state.next) },
        { open, next: next === null ? null : iso(at(next)) },
      );
    });
  }
}

describe("windowAt: the overnight window 21:00:00 +0800-08:00:00 +0800", () => {
  // +0800 means local = UTC + 8: the window is 13:00:00Z to 00:00:00Z inclusive, i.e. until 00:00:01Z.
  const TEXT = "21:00:00 +0800-08:00:00 +0800";
  table("visit", TEXT, [
    ["20:59:59 Beijing", "2014-10-30T12:59:59Z", false, "2014-10-30T13:00:00Z"],
    ["21:00 Beijing, the start", "2014-10-30T13:00:00Z", true, "2014-10-31T00:00:01Z"],
    ["midnight Beijing", "2014-10-30T16:00:00Z", true, "2014-10-31T00:00:01Z"],
    ["07:59:59 Beijing", "2014-10-30T23:59:59Z", true, "2014-10-31T00:00:01Z"],
    [
      "08:00:00 Beijing, the end is inclusive to the second",
      "2014-10-31T00:00:00.999Z",
      true,
      "2014-10-31T00:00:01Z",
    ],
    ["08:00:01 Beijing", "2014-10-31T00:00:01Z", false, "2014-10-31T13:00:00Z"],
    ["noon Beijing", "2014-10-31T04:00:00Z", false, "2014-10-31T13:00:00Z"],
  ]);
  table("forbidden", TEXT, [
    ["20:59:59 Beijing", "2014-10-30T12:59:59Z", true, "2014-10-30T13:00:00Z"],
    ["21:00 Beijing", "2014-10-30T13:00:00Z", false, "2014-10-31T00:00:01Z"],
    ["08:00:01 Beijing", "2014-10-31T00:00:01Z", true, "2014-10-31T13:00:00Z"],
  ]);
});

describe("windowAt: daily windows", () => {
  // seeds/003 §3.2.8 Example 2: 01:00-06:00 Beijing is 17:00Z (the day before) to 22:00:00Z.
  table("visit", "01:00 +0800-06:00 +0800", [
    ["just before 01:00 Beijing", "2014-10-30T16:59:59.999Z", false, "2014-10-30T17:00:00Z"],
    ["01:00 Beijing", "2014-10-30T17:00:00Z", true, "2014-10-30T22:00:01Z"],
    ["06:00:01 Beijing", "2014-10-30T22:00:01Z", false, "2014-10-31T17:00:00Z"],
  ]);
  // seeds/003 §3.1 example file. (Its comment "8:00-17:00 Beijing Time is not allowed" does not
  // agree with the value: 1:00-16:00 UT is 9:00-24:00 Beijing. heed reads the value.)
  table("visit", "1:00-16:00 UT", [
    ["00:59 UT", "2014-10-30T00:59:00Z", false, "2014-10-30T01:00:00Z"],
    ["15:59 UT", "2014-10-30T15:59:00Z", true, "2014-10-30T16:00:01Z"],
    ["16:00:00.500 UT", "2014-10-30T16:00:00.500Z", true, "2014-10-30T16:00:01Z"],
    ["16:00:01 UT", "2014-10-30T16:00:01Z", false, "2014-10-31T01:00:00Z"],
  ]);
  // No zone on either end: read in the default offset the caller passes.
  table("visit", "01:00-06:00", [
    ["03:00 UT, default UT", "2014-10-30T03:00:00Z", true, "2014-10-30T06:00:01Z"],
  ]);
  table(
    "visit",
    "01:00-06:00",
    [
      [
        "03:00 UT is 11:00 in the default +0800",
        "2014-10-30T03:00:00Z",
        false,
        "2014-10-30T17:00:00Z",
      ],
      [
        "20:00 UT is 04:00 in the default +0800",
        "2014-10-30T20:00:00Z",
        true,
        "2014-10-30T22:00:01Z",
      ],
    ],
    480,
  );
  // A negative zone: 22:00-06:00 EST is 03:00Z to 11:00:00Z.
  table("visit", "22:00 EST-06:00 EST", [
    ["02:59 UT is 21:59 EST", "2014-10-30T02:59:00Z", false, "2014-10-30T03:00:00Z"],
    ["10:00 UT is 05:00 EST", "2014-10-30T10:00:00Z", true, "2014-10-30T11:00:01Z"],
  ]);
  // Documented choice: start == end is the whole day (so is an end one second before the start).
  table("visit", "00:00-00:00", [["any time", "2014-10-30T12:34:56Z", true, null]]);
  table("forbidden", "00:00-00:00", [["any time", "2014-10-30T12:34:56Z", false, null]]);
  table("visit", "08:00 UT-07:59:59 UT", [["any time", "2014-10-30T07:59:59.5Z", true, null]]);
});

describe("windowAt: dated spans", () => {
  // seeds/003 §3.2.8 Example 1: forbidden through 2 Nov 23:59:59 UT, open again at 3 Nov 00:00:00.
  table("forbidden", "30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT", [
    ["before", "2014-10-29T23:59:59.999Z", true, "2014-10-30T00:00:00Z"],
    ["the start", "2014-10-30T00:00:00Z", false, "2014-11-03T00:00:00Z"],
    ["the last second", "2014-11-02T23:59:59.999Z", false, "2014-11-03T00:00:00Z"],
    ["reopened", "2014-11-03T00:00:00Z", true, null],
  ]);
  table("visit", "30 Oct 2014 00:00 UT-30 Oct 2014 12:00 UT", [
    ["before", "2014-10-29T00:00:00Z", false, "2014-10-30T00:00:00Z"],
    ["inside", "2014-10-30T06:00:00Z", true, "2014-10-30T12:00:01Z"],
    ["after: never again", "2014-10-31T00:00:00Z", false, null],
  ]);
  // Zone written on one end only, copied to the other (seeds/003 §3.2.8).
  table("forbidden", "30 Oct 2014 08:00-31 Oct 2014 07:59:59 +0800", [
    ["2014-10-30T00:00Z is 08:00 Beijing", "2014-10-30T00:00:00Z", false, "2014-10-31T00:00:00Z"],
  ]);
});

describe("combineWindows", () => {
  const w = (kind: WindowKind, text: string): TimeWindow => ({ kind, span: span(text) });
  const NIGHT = w("visit", "21:00:00 +0800-08:00:00 +0800");
  const EVENT = w("forbidden", "30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT");
  const CASES: readonly [
    why: string,
    windows: readonly TimeWindow[],
    when: string,
    open: boolean,
    next: string | null,
  ][] = [
    ["no lines: always open", [], "2014-10-30T00:00:00Z", true, null],
    ["night window, inside", [NIGHT], "2014-10-30T14:00:00Z", true, "2014-10-31T00:00:01Z"],
    [
      "night window and the event, inside both: wait for the event to end",
      [NIGHT, EVENT],
      "2014-10-31T14:00:00Z",
      false,
      "2014-11-03T00:00:00Z",
    ],
    [
      "night window and the event, after the event's first second: the next night",
      [NIGHT, EVENT],
      "2014-11-03T00:00:01Z",
      false,
      "2014-11-03T13:00:00Z",
    ],
    [
      "night window and the event, before it: open until it starts",
      [NIGHT, EVENT],
      "2014-10-29T20:00:00Z",
      true,
      "2014-10-30T00:00:00Z",
    ],
    [
      "two visit windows are alternatives: between them",
      [w("visit", "01:00-02:00 UT"), w("visit", "03:00-04:00 UT")],
      "2014-10-30T02:30:00Z",
      false,
      "2014-10-30T03:00:00Z",
    ],
    [
      "two visit windows: inside the first",
      [w("visit", "01:00-02:00 UT"), w("visit", "03:00-04:00 UT")],
      "2014-10-30T01:30:00Z",
      true,
      "2014-10-30T02:00:01Z",
    ],
    [
      "overlapping visit windows join",
      [w("visit", "01:00-03:00 UT"), w("visit", "02:00-05:00 UT")],
      "2014-10-30T01:30:00Z",
      true,
      "2014-10-30T05:00:01Z",
    ],
    [
      "a forbidden part of a visit window",
      [w("visit", "01:00-06:00 UT"), w("forbidden", "00:00-03:00 UT")],
      "2014-10-30T01:00:00Z",
      false,
      "2014-10-30T03:00:01Z",
    ],
    [
      "forbidden all day: never",
      [w("visit", "01:00-06:00 UT"), w("forbidden", "00:00-00:00")],
      "2014-10-30T01:00:00Z",
      false,
      null,
    ],
    [
      "forbidden over the whole visit window: never",
      [w("visit", "01:00-02:00 UT"), w("forbidden", "00:30-02:30 UT")],
      "2014-10-30T01:00:00Z",
      false,
      null,
    ],
    [
      "a dated visit window in the past: never",
      [w("visit", "30 Oct 2014 00:00 UT-30 Oct 2014 12:00 UT")],
      "2014-11-01T00:00:00Z",
      false,
      null,
    ],
    [
      "a dated visit window and a daily forbidden one",
      [
        w("visit", "30 Oct 2014 00:00 UT-31 Oct 2014 23:59:59 UT"),
        w("forbidden", "00:00-12:00 UT"),
      ],
      "2014-10-29T00:00:00Z",
      false,
      "2014-10-30T12:00:01Z",
    ],
    [
      "windows in different zones",
      [w("visit", "09:00 +0800-17:00 +0800"), w("forbidden", "12:00 +0900-13:00 +0900")],
      "2014-10-30T02:30:00Z",
      true,
      "2014-10-30T03:00:00Z",
    ],
  ];
  for (const [why, windows, when, open, next] of CASES) {
    it(`${why}: at ${when} ${open ? "open" : "closed"}, next ${next}`, () => {
      const state = combineWindows(windows, at(when));
      assert.deepEqual(
        { open: state.open, next: iso(state.next), gaveUp: state.gaveUp },
        { open, next: next === null ? null : iso(at(next)), gaveUp: false },
      );
    });
  }

  it("gives up (and says so) when the next change lies beyond MAX_WINDOW_STEPS candidates", () => {
    // Two daily windows that together cover the day change four times a day without closing it;
    // the only closing is a Time-forbidden span three years on.
    const windows = [
      w("visit", "00:00-12:00 UT"),
      w("visit", "11:00-00:30 UT"),
      w("forbidden", "1 Jan 2018 00:00 UT-2 Jan 2018 00:00 UT"),
    ];
    const state = combineWindows(windows, at("2015-01-01T00:00:00Z"));
    assert.deepEqual(state, { open: true, next: null, gaveUp: true });
  });

  // Reference: every instant at which some window changes, from `at` to a day past the last dated
  // instant, evaluated in order; the first whose answer differs is the next change.
  const DAY = 86_400_000;
  function reference(
    windows: readonly TimeWindow[],
    t0: number,
  ): { open: boolean; next: number | null } {
    const allowedAt = (t: number) => {
      const visits = windows.filter((x) => x.kind === "visit");
      const forbidden = windows.filter((x) => x.kind === "forbidden");
      const inVisit = visits.length === 0 || visits.some((x) => windowAt(x.kind, x.span, t).open);
      return inVisit && forbidden.every((x) => windowAt(x.kind, x.span, t).open);
    };
    const points = new Set<number>();
    for (const x of windows) {
      let t = t0;
      for (let i = 0; i < 20; i++) {
        const next = windowAt(x.kind, x.span, t).next;
        if (next === null || next > t0 + 10 * DAY) break;
        points.add(next);
        t = next;
      }
    }
    const open = allowedAt(t0);
    for (const p of [...points].sort((a, b) => a - b))
      if (allowedAt(p) !== open) return { open, next: p };
    return { open, next: null };
  }
  // Independent of windowAt: is the local second of the day inside [start, end] (wrapping)?
  function dailyInside(
    startSec: number,
    endSec: number,
    offsetMinutes: number,
    t: number,
  ): boolean {
    const local = (((Math.floor(t / 1000) + offsetMinutes * 60) % 86_400) + 86_400) % 86_400;
    if (startSec === endSec) return true;
    return startSec <= endSec
      ? local >= startSec && local <= endSec
      : local >= startSec || local <= endSec;
  }

  const minuteOfDay = fc.integer({ min: 0, max: 1439 });
  const zone = fc.constantFrom(0, 480, -300, 330);
  const daily = fc.record({
    kind: fc.constantFrom<WindowKind>("visit", "forbidden"),
    s: minuteOfDay,
    e: minuteOfDay,
    z: zone,
  });
  const toWindow = (d: { kind: WindowKind; s: number; e: number; z: number }): TimeWindow => ({
    kind: d.kind,
    span: {
      start: { date: null, seconds: d.s * 60, offsetMinutes: d.z },
      end: { date: null, seconds: d.e * 60, offsetMinutes: d.z },
    },
  });
  const T0 = Date.UTC(2014, 9, 30);
  const instant = fc.integer({ min: 0, max: 3 * DAY }).map((ms) => T0 + ms);

  it("property: a daily window is open exactly when the local clock is within [start, end]", () => {
    fc.assert(
      fc.property(daily, instant, (d, t) => {
        const inside = dailyInside(d.s * 60, d.e * 60, d.z, t);
        const state = windowAt(d.kind, toWindow(d).span, t);
        assert.equal(state.open, d.kind === "visit" ? inside : !inside);
        if (state.next !== null) {
          assert.ok(state.next > t);
          assert.equal(windowAt(d.kind, toWindow(d).span, state.next - 1).open, state.open);
          assert.notEqual(windowAt(d.kind, toWindow(d).span, state.next).open, state.open);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("property: combineWindows agrees with walking every change point", () => {
    const dated = fc
      .record({
        kind: fc.constantFrom<WindowKind>("visit", "forbidden"),
        from: fc.integer({ min: 0, max: 4 * 1440 }),
        length: fc.integer({ min: 0, max: 2 * 1440 }),
      })
      .map(({ kind, from, length }): TimeWindow => {
        const start = T0 - DAY + from * 60_000;
        const end = start + length * 60_000;
        const expr = (ms: number) => {
          const d = new Date(ms);
          return {
            date: { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() },
            seconds: d.getUTCHours() * 3600 + d.getUTCMinutes() * 60,
            offsetMinutes: 0,
          };
        };
        return { kind, span: { start: expr(start), end: expr(end) } };
      });
    const windows = fc.array(
      fc.oneof({ weight: 3, arbitrary: daily.map(toWindow) }, { weight: 1, arbitrary: dated }),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(windows, instant, (ws, t) => {
        const state = combineWindows(ws, t);
        assert.equal(state.gaveUp, false);
        assert.deepEqual({ open: state.open, next: state.next }, reference(ws, t));
      }),
      { numRuns: RUNS },
    );
  });
});
