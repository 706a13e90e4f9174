// W3C datetimes (https://www.w3.org/TR/NOTE-datetime), sitemaps.org `<lastmod>`: every precision
// the note lists, the ranges of each part, and the slips webmasters make.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  formatW3cDatetime,
  parseW3cDatetime,
  rfc822ToW3c,
  w3cText,
} from "../../../src/protocol/sitemap/index.js";

describe("parseW3cDatetime", () => {
  it("reads every precision of the W3C note", () => {
    const cases: [string, string, string][] = [
      ["1997", "year", "1997-01-01T00:00:00.000Z"],
      ["1997-07", "month", "1997-07-01T00:00:00.000Z"],
      ["1997-07-16", "day", "1997-07-16T00:00:00.000Z"],
      ["1997-07-16T19:20+01:00", "minute", "1997-07-16T18:20:00.000Z"],
      ["1997-07-16T19:20:30+01:00", "second", "1997-07-16T18:20:30.000Z"],
      ["1997-07-16T19:20:30.45+01:00", "fraction", "1997-07-16T18:20:30.450Z"],
      ["2005-01-01T12:00:00Z", "second", "2005-01-01T12:00:00.000Z"],
      ["2005-06-03T04:20-08:00", "minute", "2005-06-03T12:20:00.000Z"],
    ];
    for (const [text, precision, iso] of cases) {
      const r = parseW3cDatetime(text);
      assert.ok(r.ok, `${text}: ${r.ok ? "" : r.error}`);
      assert.equal(r.value.precision, precision, text);
      assert.equal(new Date(r.value.epochMs).toISOString(), iso, text);
      assert.equal(w3cText(r.value), text, "written back as read");
    }
  });

  it("agrees with Date.parse on full datetimes", () => {
    for (const text of [
      "2024-02-29T23:59:59+14:00",
      "1970-01-01T00:00:00-12:30",
      "2000-12-31T00:00Z",
    ]) {
      const r = parseW3cDatetime(text);
      assert.ok(r.ok);
      assert.equal(r.value.epochMs, Date.parse(text), text);
    }
  });

  it("checks the ranges of month, day (leap years too), hour, minute, second and zone", () => {
    for (const [text, why] of [
      ["2005-13", "month 13"],
      ["2005-00-10", "month 00"],
      ["2005-02-29", "day 29"],
      ["1900-02-29", "day 29"],
      ["2005-04-31", "day 31"],
      ["2005-01-01T24:00Z", "hour 24"],
      ["2005-01-01T12:60Z", "minute 60"],
      ["2005-01-01T12:00:60Z", "second 60"],
      ["2005-01-01T12:00+24:00", "time zone"],
    ] as const) {
      const r = parseW3cDatetime(text);
      assert.equal(r.ok, false, text);
      if (!r.ok) assert.match(r.error, new RegExp(why), text);
    }
    assert.ok(parseW3cDatetime("2000-02-29").ok, "2000 is a leap year");
  });

  it("names the common slips", () => {
    const cases: [string, RegExp][] = [
      ["2005-01-01T12:00:00", /time zone/],
      ["2005-01-01 12:00:00Z", /joined by "T"/],
      ["2005-01-01T12:00:00+0100", /with a colon/],
      ["01/02/2005", /YYYY-MM-DD/],
      ["Mon, 27 Jun 2011 19:34:00 +0100", /RFC 822/],
      ["", /empty/],
      ["yesterday", /shape/],
    ];
    for (const [text, why] of cases) {
      const r = parseW3cDatetime(text);
      assert.equal(r.ok, false, text);
      if (!r.ok) assert.match(r.error, why, text);
    }
  });

  it("trims white space around the value", () => {
    assert.ok(parseW3cDatetime("  2005-01-01\n").ok);
  });
});

describe("formatW3cDatetime", () => {
  it("writes UTC, with milliseconds only when there are some", () => {
    assert.equal(formatW3cDatetime(Date.UTC(2015, 2, 19, 10, 0, 0)), "2015-03-19T10:00:00Z");
    assert.equal(formatW3cDatetime(Date.UTC(2015, 2, 19, 10, 0, 0, 5)), "2015-03-19T10:00:00.005Z");
    assert.equal(formatW3cDatetime(Date.UTC(2015, 2, 19), "day"), "2015-03-19");
  });
  it("refuses what a W3C datetime cannot hold", () => {
    assert.throws(() => formatW3cDatetime(Number.NaN), RangeError);
    assert.throws(() => formatW3cDatetime(Date.UTC(10_000, 0, 1)), RangeError);
  });
});

describe("rfc822ToW3c (RSS 2.0 <pubDate>)", () => {
  it("keeps the zone", () => {
    const r = rfc822ToW3c("Mon, 27 Jun 2011 19:34:00 +0100");
    assert.ok(r.ok);
    assert.equal(w3cText(r.value), "2011-06-27T19:34:00+01:00");
    assert.equal(r.value.epochMs, Date.parse("2011-06-27T18:34:00Z"));
  });
  it("reads GMT as Z and refuses a date without a day", () => {
    const r = rfc822ToW3c("27 Jun 2011 19:34 GMT");
    assert.ok(r.ok);
    assert.equal(w3cText(r.value), "2011-06-27T19:34:00Z");
    assert.equal(rfc822ToW3c("19:34 GMT").ok, false);
    assert.equal(rfc822ToW3c("2011-06-27").ok, false);
  });
});
