// Action requests and answers (seeds/001 §3.1.2, §3.3.1-§3.3.4).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  actionFields,
  checkOffer,
  emailProblem,
  MAX_PATTERN_LENGTH,
  MAX_PATTERNS,
  parseActionRequest,
  parseRupInfo,
  readRegistrationKey,
  readSequenceNumber,
  registrationAnswer,
  sequenceAnswer,
} from "../../../src/protocol/rup/index.js";

const form = (query: string): [string, string][] => [...new URLSearchParams(query)];

describe("parseActionRequest", () => {
  // Every action with the key/value pairs the seed lists for it.
  const GOOD: readonly [source: string, query: string, action: string][] = [
    ["§3.1.2", "Action=Register&RobotEmail=bot@example.org", "Register"],
    [
      "§3.1.2",
      "Action=Register&RobotEmail=bot@example.org&Latency=3-day&Exclude=^/tmp/ ^/cgi/",
      "Register",
    ],
    ["§3.1.2", "Action=Register&RobotEmail=bot@example.org&IncludeOnly=^/news/", "Register"],
    [
      "§3.3.1",
      "Action=Unregister&RegistrationKey=k&RegisteredRobotEmail=bot@example.org",
      "Unregister",
    ],
    [
      "§3.3.2",
      "Action=ModifyPreferences&RegistrationKey=k&RegisteredRobotEmail=bot@example.org&RobotEmail=new@example.org&Latency=week",
      "ModifyPreferences",
    ],
    [
      "§3.3.3",
      "Action=GetSequenceNumber&RegistrationKey=k&RegisteredRobotEmail=bot@example.org",
      "GetSequenceNumber",
    ],
    ["§3.3.4", "Action=GetIndex&Span=2-week", "GetIndex"],
    [
      "heed's webhook extra: a URL in place of the address",
      "Action=Register&RobotEmail=https://robot.test/hook",
      "Register",
    ],
  ];
  for (const [source, query, action] of GOOD) {
    it(`seeds/001 ${source}: ${query}`, () => {
      const r = parseActionRequest(form(query));
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.request.action, action);
      // The fields written back read the same.
      const again = parseActionRequest(actionFields(r.request));
      assert.deepEqual(again, r);
    });
  }

  it("reads the preferences of a registration", () => {
    const r = parseActionRequest(
      form("Action=Register&RobotEmail=bot@example.org&Latency=3-day&Exclude=^/tmp/  ^/cgi/"),
    );
    assert.ok(r.ok);
    assert.deepEqual(r.request, {
      action: "Register",
      robotEmail: "bot@example.org",
      latency: { count: 3, unit: "day" },
      filter: { kind: "exclude", patterns: ["^/tmp/", "^/cgi/"] },
    });
  });

  const BAD: readonly [name: string, query: string, status: number, field: string | null][] = [
    ["no Action", "RobotEmail=bot@example.org", 400, "Action"],
    ["an Action not implemented (§3.1.2: 501)", "Action=Reindex", 501, "Action"],
    ["Register without RobotEmail", "Action=Register", 400, "RobotEmail"],
    [
      "an invalid e-mail address (§3.1.2)",
      "Action=Register&RobotEmail=not-an-address",
      400,
      "RobotEmail",
    ],
    [
      "Exclude with IncludeOnly (§3.1.2: not both)",
      "Action=Register&RobotEmail=b@e.org&Exclude=^/a/&IncludeOnly=^/b/",
      400,
      "IncludeOnly",
    ],
    ["an unknown latency", "Action=Register&RobotEmail=b@e.org&Latency=fortnight", 400, "Latency"],
    ["a bad pattern", "Action=Register&RobotEmail=b@e.org&Exclude=([", 400, "Exclude"],
    ["an empty pattern list", "Action=Register&RobotEmail=b@e.org&Exclude=%20", 400, "Exclude"],
    [
      "a field given twice",
      "Action=Register&RobotEmail=b@e.org&RobotEmail=c@e.org",
      400,
      "RobotEmail",
    ],
    [
      "a field the action does not take",
      "Action=GetIndex&Span=1-day&RobotEmail=b@e.org",
      400,
      "RobotEmail",
    ],
    [
      "Unregister without its key",
      "Action=Unregister&RegisteredRobotEmail=b@e.org",
      400,
      "RegistrationKey",
    ],
    [
      "ModifyPreferences without the registered address",
      "Action=ModifyPreferences&RegistrationKey=k",
      400,
      "RegisteredRobotEmail",
    ],
    [
      "GetSequenceNumber with an empty key",
      "Action=GetSequenceNumber&RegistrationKey=&RegisteredRobotEmail=b@e.org",
      400,
      "RegistrationKey",
    ],
    ["GetIndex without Span", "Action=GetIndex", 400, "Span"],
    [
      "GetIndex with a bare unit (§3.3.4: integer-latvalue)",
      "Action=GetIndex&Span=week",
      400,
      "Span",
    ],
    ["GetIndex with a bad span", "Action=GetIndex&Span=two-weeks", 400, "Span"],
  ];
  for (const [name, query, status, field] of BAD) {
    it(`${name}: ${status}`, () => {
      const r = parseActionRequest(form(query));
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.status, status);
      assert.equal(r.field, field);
      assert.ok(r.message.length > 10);
    });
  }

  it(`limit: at most MAX_PATTERNS patterns, each at most MAX_PATTERN_LENGTH long`, () => {
    const many = Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => `^/p${i}/`).join(" ");
    assert.equal(
      parseActionRequest([
        ["Action", "Register"],
        ["RobotEmail", "b@e.org"],
        ["Exclude", many],
      ]).ok,
      false,
    );
    const long = `^/${"a".repeat(MAX_PATTERN_LENGTH)}`;
    assert.equal(
      parseActionRequest([
        ["Action", "Register"],
        ["RobotEmail", "b@e.org"],
        ["Exclude", long],
      ]).ok,
      false,
    );
  });
});

describe("checkOffer (seeds/001 §3.1.2: values chosen from /rupinfo.txt)", () => {
  const info = parseRupInfo("RUP-CGI: /rup\nLatency: day, week\nExclude: ^/tmp/\n").info;
  assert.ok(info);
  const check = (query: string) => {
    const r = parseActionRequest(form(query));
    assert.ok(r.ok);
    return checkOffer(r.request, info);
  };
  it("accepts offered values", () => {
    assert.equal(check("Action=Register&RobotEmail=b@e.org&Latency=2-week&Exclude=^/tmp/"), null);
  });
  it("refuses a latency not offered", () => {
    assert.equal(check("Action=Register&RobotEmail=b@e.org&Latency=month")?.field, "Latency");
  });
  it("refuses a pattern not offered", () => {
    assert.equal(check("Action=Register&RobotEmail=b@e.org&Exclude=^/other/")?.status, 400);
  });
  it("IncludeOnly when the site offers none: 501", () => {
    assert.equal(check("Action=Register&RobotEmail=b@e.org&IncludeOnly=^/tmp/")?.status, 501);
  });
});

describe("answers", () => {
  it("RegistrationKey: string in an HTML document (§3.1.2), read back", () => {
    const html = registrationAnswer("k-1_x");
    assert.match(html, /<html>/);
    assert.match(html, /^RegistrationKey: k-1_x$/m);
    assert.equal(readRegistrationKey(html), "k-1_x");
    assert.equal(readRegistrationKey("<html>nothing</html>"), null);
  });
  it("SequenceNumber=integer (§3.3.3), read back, also from plain text", () => {
    assert.equal(readSequenceNumber(sequenceAnswer(42)), 42);
    assert.equal(readSequenceNumber("SequenceNumber=5\n"), 5);
    assert.equal(readSequenceNumber("SequenceNumber=five"), null);
  });
});

describe("emailProblem", () => {
  const CASES: readonly [address: string, ok: boolean][] = [
    ["bot@example.org", true],
    ["first.last+rup@mail.example.co.uk", true],
    ["robot@localhost", true],
    ["no-at-sign", false],
    ["@example.org", false],
    ["bot@", false],
    ["two@@example.org", false],
    ["bot@exa mple.org", false],
    ["bot@-bad-.org", false],
    [".dot@example.org", false],
    [`${"a".repeat(65)}@example.org`, false],
    [`b@${"a".repeat(250)}.org`, false],
  ];
  for (const [address, ok] of CASES) {
    it(`${address.slice(0, 40)}: ${ok ? "valid" : "refused"}`, () => {
      assert.equal(emailProblem(address) === null, ok);
    });
  }
});
