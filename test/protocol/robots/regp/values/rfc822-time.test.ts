// RFC 822 times as REGP writes them: seeds/003 §3.2.2 (Last-modified, its three examples, two-digit
// years), §3.2.8 (Visit-time / Time-forbidden spans, a zone on one end holds for both), the §3.1
// example file (`Visit-time: 1:00-16:00 UT`), RFC 822 §5, RFC 2822 §4.3 (two-digit years).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type CalendarDate,
  type DatedTimeExpression,
  daysInMonth,
  formatTimeExpression,
  formatTimeSpan,
  instantOf,
  parseDateTime,
  parseTimeSpan,
  type TimeExpression,
  type TimeSpan,
} from "../../../../../src/protocol/robots/regp/values/rfc822-time.js";
import { expectError, expectOk } from "./expect.js";

const RUNS = 500;

const date = (year: number, month: number, day: number): CalendarDate => ({ year, month, day });
const clock = (h: number, m: number, s = 0) => h * 3600 + m * 60 + s;
const dated = (text: string) => expectOk(parseDateTime(text)) as DatedTimeExpression;

describe("parseDateTime", () => {
  const CASES: readonly [source: string, text: string, expected: TimeExpression][] = [
    [
      "seeds/003 §3.2.2 Example 1",
      "30 Oct 2014 04:31:17 UT",
      { date: date(2014, 10, 30), seconds: clock(4, 31, 17), offsetMinutes: 0 },
    ],
    [
      "seeds/003 §3.2.2 Example 2",
      "Thu, 30 Oct 2014 04:31 UT",
      { date: date(2014, 10, 30), seconds: clock(4, 31), offsetMinutes: 0 },
    ],
    [
      "seeds/003 §3.2.2 Example 3",
      "30 Oct 2014 12:31 +0800",
      { date: date(2014, 10, 30), seconds: clock(12, 31), offsetMinutes: 480 },
    ],
    [
      "seeds/003 §3.2.8 Example 2, one end",
      "01:00 +0800",
      { date: null, seconds: clock(1, 0), offsetMinutes: 480 },
    ],
    [
      "seeds/003 §3.1 one-digit hour, no zone",
      "1:00",
      { date: null, seconds: clock(1, 0), offsetMinutes: null },
    ],
    ["seeds/003 §3.1", "16:00 UT", { date: null, seconds: clock(16, 0), offsetMinutes: 0 }],
    [
      'seeds/003 §3.2.2 "15" is 2015',
      "30 Oct 15 04:31 UT",
      { date: date(2015, 10, 30), seconds: clock(4, 31), offsetMinutes: 0 },
    ],
    [
      'seeds/003 §3.2.2 "2015" is 2015',
      "30 Oct 2015 04:31 UT",
      { date: date(2015, 10, 30), seconds: clock(4, 31), offsetMinutes: 0 },
    ],
    [
      "RFC 2822 §4.3 49 is 2049",
      "1 Jan 49 00:00 GMT",
      { date: date(2049, 1, 1), seconds: 0, offsetMinutes: 0 },
    ],
    [
      "RFC 2822 §4.3 50 is 1950",
      "1 Jan 50 00:00 GMT",
      { date: date(1950, 1, 1), seconds: 0, offsetMinutes: 0 },
    ],
    ["leap day", "29 Feb 2016 00:00 UT", { date: date(2016, 2, 29), seconds: 0, offsetMinutes: 0 }],
    [
      "leap day of a 400th year",
      "29 Feb 2000 00:00 UT",
      { date: date(2000, 2, 29), seconds: 0, offsetMinutes: 0 },
    ],
    ["RFC 822 §5.1 EST", "12:00 EST", { date: null, seconds: clock(12, 0), offsetMinutes: -300 }],
    ["RFC 822 §5.1 EDT", "12:00 EDT", { date: null, seconds: clock(12, 0), offsetMinutes: -240 }],
    ["RFC 822 §5.1 CST", "12:00 CST", { date: null, seconds: clock(12, 0), offsetMinutes: -360 }],
    ["RFC 822 §5.1 CDT", "12:00 CDT", { date: null, seconds: clock(12, 0), offsetMinutes: -300 }],
    ["RFC 822 §5.1 MST", "12:00 MST", { date: null, seconds: clock(12, 0), offsetMinutes: -420 }],
    ["RFC 822 §5.1 MDT", "12:00 MDT", { date: null, seconds: clock(12, 0), offsetMinutes: -360 }],
    ["RFC 822 §5.1 PST", "12:00 PST", { date: null, seconds: clock(12, 0), offsetMinutes: -480 }],
    ["RFC 822 §5.1 PDT", "12:00 PDT", { date: null, seconds: clock(12, 0), offsetMinutes: -420 }],
    ["RFC 822 §5.1 military Z", "12:00 Z", { date: null, seconds: clock(12, 0), offsetMinutes: 0 }],
    [
      "RFC 822 §5.1 -hhmm",
      "12:00 -0500",
      { date: null, seconds: clock(12, 0), offsetMinutes: -300 },
    ],
    [
      "RFC 822 §5.1 +hhmm with minutes",
      "12:00 +0530",
      { date: null, seconds: clock(12, 0), offsetMinutes: 330 },
    ],
    [
      "-0000 is offset 0, not -0",
      "12:00 -0000",
      { date: null, seconds: clock(12, 0), offsetMinutes: 0 },
    ],
    [
      "RFC 822 §3.4.7 case is not significant",
      "thu, 30 OCT 2014 04:31 ut",
      { date: date(2014, 10, 30), seconds: clock(4, 31), offsetMinutes: 0 },
    ],
    [
      "no space after the comma",
      "Thu,30 Oct 2014 04:31 UT",
      { date: date(2014, 10, 30), seconds: clock(4, 31), offsetMinutes: 0 },
    ],
    [
      "space before the comma",
      "Thu , 30 Oct 2014 04:31 UT",
      { date: date(2014, 10, 30), seconds: clock(4, 31), offsetMinutes: 0 },
    ],
    ["last second of the day", "23:59:59", { date: null, seconds: 86_399, offsetMinutes: null }],
    ["midnight", "00:00", { date: null, seconds: 0, offsetMinutes: null }],
    [
      "a date without a zone",
      "2 Nov 2014 23:59:59",
      { date: date(2014, 11, 2), seconds: clock(23, 59, 59), offsetMinutes: null },
    ],
  ];
  for (const [source, text, expected] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(expectOk(parseDateTime(text)), expected);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    ["empty", "", ["empty value"]],
    ["30 February", "30 Feb 2014 00:00 UT", ['"30"', "Feb 2014", "1-28"]],
    ["29 February of a common year", "29 Feb 2015 00:00 UT", ['"29"', "Feb 2015"]],
    ["29 February 1900 (not a leap year)", "29 Feb 1900 00:00 UT", ['"29"', "Feb 1900"]],
    ["31 April", "31 Apr 2014 00:00", ['"31"', "1-30"]],
    ["day 0", "0 Oct 2014 00:00", ['"0"']],
    ["three-digit day", "300 Oct 2014 00:00", ['"300"']],
    ["24:00", "24:00", ["24", "0-23"]],
    ["60 minutes", "12:60", ["60", "00-59"]],
    ["60 seconds (no leap second in RFC 822)", "12:00:60", ["60", "00-59"]],
    ["a day of the week that contradicts the date", "Wed, 30 Oct 2014 04:31 UT", ['"Wed"', "Thu"]],
    ["an unknown day of the week", "Thx, 30 Oct 2014 04:31 UT", ['"Thx"']],
    ["a day of the week with no date", "Thu, 04:31 UT", ['"04:31"', "date"]],
    ["an unknown month", "30 Foo 2014 04:31", ['"Foo"', "month"]],
    ["a numeric month", "30 10 2014 04:31", ['"10"', "month"]],
    ["a three-digit year", "30 Oct 214 04:31", ['"214"', "year"]],
    ["no time after the date", "30 Oct 2014", ['"30 Oct 2014"', "hh:mm"]],
    ["no year", "30 Oct", ["year", '"30 Oct"']],
    ["an unknown zone", "4:31 CET", ['"CET"']],
    ["a military zone other than Z", "4:31 A", ['"A"', "military"]],
    ["an ISO 8601 offset", "4:31 +08:00", ['"+08:00"']],
    ["zone minutes out of range", "4:31 +0860", ["60", '"+0860"']],
    ["zone hours out of range", "4:31 +2400", ["24", '"+2400"']],
    ["trailing text", "4:31 UT extra", ['"extra"']],
    ["a dot for a colon", "4.31", ['"4.31"']],
    ["a three-digit hour", "123:00", ['"123:00"']],
    ["a zone glued to the time", "04:31UT", ['"04:31UT"']],
    ["ISO 8601", "2014-10-30T04:31:17Z", ['"2014-10-30T04:31:17Z"']],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text)}`, () => {
      expectError(parseDateTime(text), ...mentions);
    });
  }
});

describe("instantOf: seeds/003 §3.2.2 Last-modified examples", () => {
  // The paper: "These three examples insist the same time, 12:31 on October 30th, 2014, Beijing
  // Time. Example 1 insists an extra second." Read exactly, Examples 2 and 3 are one instant,
  // 04:31:00 UT = 12:31 +0800, and Example 1 (04:31:17 UT) is seventeen seconds later, not one:
  // heed reads what is written, not the remark.
  const CASES: readonly [text: string, iso: string][] = [
    ["30 Oct 2014 04:31:17 UT", "2014-10-30T04:31:17Z"],
    ["Thu, 30 Oct 2014 04:31 UT", "2014-10-30T04:31:00Z"],
    ["30 Oct 2014 12:31 +0800", "2014-10-30T04:31:00Z"],
  ];
  for (const [text, iso] of CASES) {
    it(`${JSON.stringify(text)} is ${iso}`, () => {
      assert.equal(
        instantOf(dated(text)),
        Date.UTC(2014, 9, 30, 4, 31, iso.includes(":17Z") ? 17 : 0),
      );
      assert.equal(instantOf(dated(text)), Date.parse(iso));
    });
  }
  it("Examples 2 and 3 are the same instant; Example 1 is 17 s later", () => {
    const [one, two, three] = CASES.map(([text]) => instantOf(dated(text)));
    assert.equal(two, three);
    assert.equal((one as number) - (two as number), 17_000);
  });

  it("a missing zone is read in the default offset", () => {
    const expr = dated("30 Oct 2014 12:31");
    assert.equal(instantOf(expr), Date.UTC(2014, 9, 30, 12, 31));
    assert.equal(instantOf(expr, 480), Date.UTC(2014, 9, 30, 4, 31));
  });
  it("a written zone wins over the default", () => {
    assert.equal(instantOf(dated("30 Oct 2014 12:31 +0800"), -300), Date.UTC(2014, 9, 30, 4, 31));
  });

  it("property: instantOf agrees with Date.UTC on the proleptic Gregorian calendar", () => {
    const expr = fc
      .record({ year: fc.integer({ min: 100, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
      .chain(({ year, month }) =>
        fc.record({
          date: fc
            .integer({ min: 1, max: daysInMonth(year, month) })
            .map((day) => date(year, month, day)),
          seconds: fc.integer({ min: 0, max: 86_399 }),
          offsetMinutes: fc.integer({ min: -1439, max: 1439 }),
        }),
      );
    fc.assert(
      fc.property(expr, (e) => {
        const { year, month, day } = e.date;
        const expected = Date.UTC(year, month - 1, day, 0, 0, e.seconds) - e.offsetMinutes * 60_000;
        assert.equal(instantOf(e), expected);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("parseTimeSpan", () => {
  const t = (
    seconds: number,
    offsetMinutes: number | null,
    d: CalendarDate | null = null,
  ): TimeExpression => ({
    date: d,
    seconds,
    offsetMinutes,
  });
  const CASES: readonly [source: string, text: string, expected: TimeSpan][] = [
    [
      "seeds/003 §3.2.8 Example 2",
      "01:00 +0800-06:00 +0800",
      { start: t(clock(1, 0), 480), end: t(clock(6, 0), 480) },
    ],
    [
      "seeds/003 §3.2.8 Example 1",
      "30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT",
      { start: t(0, 0, date(2014, 10, 30)), end: t(clock(23, 59, 59), 0, date(2014, 11, 2)) },
    ],
    [
      "an overnight window (DESIGN §4)",
      "21:00:00 +0800-08:00:00 +0800",
      { start: t(clock(21, 0), 480), end: t(clock(8, 0), 480) },
    ],
    [
      "seeds/003 §3.1 zone on one end is copied",
      "1:00-16:00 UT",
      { start: t(clock(1, 0), 0), end: t(clock(16, 0), 0) },
    ],
    [
      "seeds/003 §3.2.8 zone on the start only",
      "01:00 +0800-06:00",
      { start: t(clock(1, 0), 480), end: t(clock(6, 0), 480) },
    ],
    [
      'a "-" zone: the split is found, not guessed',
      "01:00 -0500-06:00 -0500",
      { start: t(clock(1, 0), -300), end: t(clock(6, 0), -300) },
    ],
    [
      "no zone on either end stays null",
      "01:00-06:00",
      { start: t(clock(1, 0), null), end: t(clock(6, 0), null) },
    ],
    [
      "space around the separator",
      "01:00 - 06:00",
      { start: t(clock(1, 0), null), end: t(clock(6, 0), null) },
    ],
    [
      "different zones are kept",
      "22:00 EST-06:00 PST",
      { start: t(clock(22, 0), -300), end: t(clock(6, 0), -480) },
    ],
    [
      "days of the week on both ends",
      "Thu, 30 Oct 2014 00:00 UT-Sun, 2 Nov 2014 23:59:59 UT",
      { start: t(0, 0, date(2014, 10, 30)), end: t(clock(23, 59, 59), 0, date(2014, 11, 2)) },
    ],
    [
      "seeds/003 §3.2.2 two-digit years",
      "30 Oct 14 00:00 UT-2 Nov 14 23:59:59 UT",
      { start: t(0, 0, date(2014, 10, 30)), end: t(clock(23, 59, 59), 0, date(2014, 11, 2)) },
    ],
    [
      "a dated span with the zone on the end only",
      "30 Oct 2014 08:00-2 Nov 2014 07:59:59 +0800",
      {
        start: t(clock(8, 0), 480, date(2014, 10, 30)),
        end: t(clock(7, 59, 59), 480, date(2014, 11, 2)),
      },
    ],
    [
      "a one-second dated span",
      "30 Oct 2014 00:00 UT-30 Oct 2014 00:00 UT",
      { start: t(0, 0, date(2014, 10, 30)), end: t(0, 0, date(2014, 10, 30)) },
    ],
  ];
  for (const [source, text, expected] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(expectOk(parseTimeSpan(text)), expected);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    ["empty", "", ["empty value"]],
    ["one time only", "01:00", ['"01:00"', '"-"']],
    ["nothing after the separator", "01:00-", ['"01:00-"', '"-"']],
    ["an end hour out of range", "01:00-25:00", ["end of span", "25"]],
    ["an end zone out of range", "01:00 +0800-06:00 +0860", ["end of span", '"+0860"']],
    ["a start that does not parse", "xx-06:00", ["start of span", '"xx"']],
    [
      "a dated span that ends before it starts",
      "2 Nov 2014 00:00 UT-30 Oct 2014 00:00 UT",
      ["ends after it starts", "2 Nov 2014"],
    ],
    ["a date on one end only", "30 Oct 2014 00:00 UT-06:00", ["date on both ends", "start"]],
    ["a date on the end only", "06:00 UT-30 Oct 2014 00:00", ["date on both ends", "end"]],
    ["three times", "01:00 UT-06:00 UT-07:00 UT", ['"06:00 UT-07:00 UT"']],
    [
      "a day of the week that contradicts its date",
      "Wed, 30 Oct 2014 00:00 UT-2 Nov 2014 00:00 UT",
      ['"Wed"', "Thu"],
    ],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text)}`, () => {
      expectError(parseTimeSpan(text), ...mentions);
    });
  }
});

describe("formatTimeExpression and formatTimeSpan", () => {
  const EXPRESSIONS: readonly [text: string, formatted: string][] = [
    ["30 Oct 2014 04:31:17 UT", "30 Oct 2014 04:31:17 UT"],
    ["Thu, 30 Oct 2014 04:31 UT", "30 Oct 2014 04:31 UT"],
    ["30 Oct 2014 12:31 +0800", "30 Oct 2014 12:31 +0800"],
    ["30 Oct 15 04:31:00 GMT", "30 Oct 2015 04:31 UT"],
    ["1:00", "01:00"],
    ["06:00 EST", "06:00 -0500"],
    ["2 Nov 2014 23:59:59", "2 Nov 2014 23:59:59"],
  ];
  for (const [text, formatted] of EXPRESSIONS) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(formatted)}`, () => {
      assert.equal(formatTimeExpression(expectOk(parseDateTime(text))), formatted);
    });
  }

  const SPANS: readonly [text: string, formatted: string][] = [
    ["1:00-16:00 UT", "01:00 UT-16:00 UT"],
    ["01:00 +0800-06:00 +0800", "01:00 +0800-06:00 +0800"],
    ["01:00 -0500-06:00 -0500", "01:00 -0500-06:00 -0500"],
    [
      "30 Oct 2014 00:00:00 UT-2 Nov 2014 23:59:59 UT",
      "30 Oct 2014 00:00 UT-2 Nov 2014 23:59:59 UT",
    ],
  ];
  for (const [text, formatted] of SPANS) {
    it(`span ${JSON.stringify(text)} → ${JSON.stringify(formatted)}`, () => {
      assert.equal(formatTimeSpan(expectOk(parseTimeSpan(text))), formatted);
    });
  }

  const calendarDate = fc
    .record({ year: fc.integer({ min: 0, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
    .chain(({ year, month }) =>
      fc.integer({ min: 1, max: daysInMonth(year, month) }).map((day) => date(year, month, day)),
    );
  // RFC 822 ±hhmm: hours 00-23, minutes 00-59.
  const offset = fc.integer({ min: -1439, max: 1439 });
  const seconds = fc.integer({ min: 0, max: 86_399 });
  const expression: fc.Arbitrary<TimeExpression> = fc.record(
    {
      date: fc.option(calendarDate, { nil: null }),
      seconds,
      offsetMinutes: fc.option(offset, { nil: null }),
    },
    // Parsed values are plain objects; strict deepEqual compares prototypes too.
    { noNullPrototype: true },
  );

  it("property: parseDateTime(formatTimeExpression(e)) equals e", () => {
    fc.assert(
      fc.property(expression, (e) => {
        assert.deepEqual(expectOk(parseDateTime(formatTimeExpression(e))), e);
      }),
      { numRuns: RUNS },
    );
  });

  // The spans parseTimeSpan can give: both ends dated or neither, zones on both ends or neither,
  // a dated end not before its start.
  const span: fc.Arbitrary<TimeSpan> = fc
    .record({
      withDates: fc.boolean(),
      a: calendarDate,
      b: calendarDate,
      sa: seconds,
      sb: seconds,
      zones: fc.option(fc.tuple(offset, offset), { nil: null }),
    })
    .map(({ withDates, a, b, sa, sb, zones }) => {
      const x: TimeExpression = {
        date: withDates ? a : null,
        seconds: sa,
        offsetMinutes: zones?.[0] ?? null,
      };
      const y: TimeExpression = {
        date: withDates ? b : null,
        seconds: sb,
        offsetMinutes: zones?.[1] ?? null,
      };
      if (!withDates) return { start: x, end: y };
      return instantOf(x as DatedTimeExpression) <= instantOf(y as DatedTimeExpression)
        ? { start: x, end: y }
        : { start: y, end: x };
    });

  it("property: parseTimeSpan(formatTimeSpan(s)) equals s", () => {
    fc.assert(
      fc.property(span, (s) => {
        assert.deepEqual(expectOk(parseTimeSpan(formatTimeSpan(s))), s);
      }),
      { numRuns: RUNS },
    );
  });
});
