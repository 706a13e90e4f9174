// Request-rate and Visit-time outside REGP: extensions RFC 9309 §2.2.4 permits, read from the
// groups chosen for a robot in RFC 9309 and Koster 1996 files, in the 1996 form (`1/5`,
// `0600-0845`, UT) and in REGP's (`1/5s`, `06:00-08:45`).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lintRobots, parseRobots } from "../../../src/index.js";
import { readRequestRate, readVisitTime } from "../../../src/protocol/robots/pace-extensions.js";

const SITE = "https://example.com";
const FILE =
  "User-agent: *\nDisallow: /private/\nRequest-rate: 1/5\nVisit-time: 0600-0845\n\n" +
  "User-agent: FastBot\nDisallow:\n";
/** 2026-03-05 at hh:mm UT. */
const at = (hh: number, mm: number): number => Date.UTC(2026, 2, 5, hh, mm);

describe("Request-rate and Visit-time in an RFC 9309 file", () => {
  const policy = parseRobots(FILE);

  it("plans one request every 5 s for the robots of the group", () => {
    const d = policy.check(`${SITE}/a`, "Googlebot");
    assert.equal(d.dialect, "rfc9309");
    assert.deepEqual(d.plan?.rates, [{ scope: "agent", requests: 1, seconds: 5, line: 3 }]);
    assert.equal(d.plan?.delaySeconds, 5);
    assert.deepEqual(d.plan?.times, [{ kind: "visit", text: "Visit-time: 0600-0845", line: 4 }]);
  });

  it("leaves a robot with its own group alone", () => {
    const d = policy.check(`${SITE}/a`, { agent: "FastBot", at: at(12, 0) });
    assert.equal(d.allowed, true);
    assert.deepEqual(d.plan?.rates, []);
    assert.equal(d.plan?.delaySeconds, 0);
  });

  it("allows inside the window and refuses outside it with when it opens", () => {
    assert.equal(policy.check(`${SITE}/a`, { agent: "Googlebot", at: at(7, 0) }).allowed, true);
    // 08:45 is the last minute inside (as REGP reads an end, docs/regp.md).
    assert.equal(policy.check(`${SITE}/a`, { agent: "Googlebot", at: at(8, 45) }).allowed, true);
    const d = policy.check(`${SITE}/a`, { agent: "Googlebot", at: at(9, 0) });
    assert.equal(d.allowed, false);
    assert.equal(d.reason, "time");
    assert.equal(d.line, 4);
    assert.equal(d.rule, "Visit-time: 0600-0845");
    assert.equal(d.next, Date.UTC(2026, 2, 6, 6, 0));
  });

  it("asks no time when none is given, and still refuses what the rules refuse", () => {
    assert.equal(policy.check(`${SITE}/a`, "Googlebot").allowed, true);
    assert.equal(
      policy.check(`${SITE}/private/x`, { agent: "Googlebot", at: at(7, 0) }).allowed,
      false,
    );
  });

  it("reads the same lines in a Koster 1996 file", () => {
    const koster = parseRobots(FILE, { dialect: "koster1996" });
    const d = koster.check(`${SITE}/a`, { agent: "Googlebot", at: at(5, 59) });
    assert.equal(d.reason, "time");
    assert.deepEqual(koster.check(`${SITE}/a`, "Googlebot").plan?.rates[0]?.seconds, 5);
  });

  it("takes the first valid Request-rate of the groups, as Crawl-delay", () => {
    const p = parseRobots(
      "User-agent: *\nRequest-rate: fast\nRequest-rate: 3/1m\nRequest-rate: 1/1\n",
    );
    assert.deepEqual(p.check(`${SITE}/`, "x").plan?.rates, [
      { scope: "agent", requests: 3, seconds: 60, line: 3 },
    ]);
  });

  it("reads several Visit-time lines as alternatives", () => {
    const p = parseRobots("User-agent: *\nVisit-time: 0100-0200\nVisit-time: 2200-2300\n");
    assert.equal(p.check(`${SITE}/`, { agent: "x", at: at(22, 30) }).allowed, true);
    assert.equal(p.check(`${SITE}/`, { agent: "x", at: at(12, 0) }).next, at(22, 0));
  });
});

describe("the values", () => {
  it("reads both forms of a rate", () => {
    assert.deepEqual(readRequestRate("1/5"), { ok: true, value: { requests: 1, seconds: 5 } });
    assert.deepEqual(readRequestRate(" 3 / 20m"), {
      ok: true,
      value: { requests: 3, seconds: 1200 },
    });
    for (const bad of ["0/5", "1/0", "1", "a/b", ""])
      assert.equal(readRequestRate(bad).ok, false, bad);
  });

  it("reads both forms of a window", () => {
    const span = readVisitTime("0600-0845");
    assert.ok(span.ok);
    assert.equal(span.value.start.seconds, 6 * 3600);
    assert.equal(span.value.end.seconds, 8 * 3600 + 45 * 60);
    assert.equal(readVisitTime("06:00-08:45").ok, true);
    for (const bad of ["2400-0100", "0660-0700", "06-08", ""])
      assert.equal(readVisitTime(bad).ok, false, bad);
  });
});

describe("lint", () => {
  it("says heed reads the lines, and why a value cannot be read", () => {
    const findings = lintRobots(
      "User-agent: *\nRequest-rate: 1/5\nVisit-time: 0600-0845\nRequest-rate: often\n",
    ).findings;
    const byLine = new Map(findings.map((f) => [f.line, f]));
    assert.equal(byLine.get(2)?.code, "pace-extension");
    assert.match(
      byLine.get(2)?.message ?? "",
      /heed reads it as an extension RFC 9309 permits \(at most 1 request\(s\) every 5 s/,
    );
    assert.equal(byLine.get(3)?.code, "pace-extension");
    assert.equal(byLine.get(4)?.code, "bad-request-rate");
    assert.match(byLine.get(4)?.message ?? "", /Request-rate "often": .*robots ignore the line/);
  });

  it("names both forms a Request-rate is read in, not only REGP's", () => {
    for (const bad of ["often", "1/5x", "0/5"]) {
      const message =
        lintRobots(`User-agent: *\nRequest-rate: ${bad}\n`).findings.find(
          (f) => f.code === "bad-request-rate",
        )?.message ?? "";
      assert.match(message, /such as 1\/5, or n\/\[k\]\(s\|m\|h\) such as 1\/5s/, bad);
    }
  });
});
