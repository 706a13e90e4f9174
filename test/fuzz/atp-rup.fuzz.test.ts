// Fuzzing the ATP message readers (requests and responses, whole, cut and mutated) and the RUP
// readers (action requests, /rupinfo.txt, modification reports, the answers a robot reads):
// no exception escapes, and what comes out is bounded by the limits and the input.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  MAX_BODY_BYTES,
  MAX_HEADER_COUNT,
  parseAtpUrl,
  readRequest,
  readResponse,
  writeRequest,
  writeResponse,
} from "../../src/protocol/atp/index.js";
import {
  MAX_REPORT_PATHS,
  parseActionRequest,
  parseLatency,
  parseReport,
  parseRupInfo,
  readRegistrationKey,
  readSequenceNumber,
} from "../../src/protocol/rup/index.js";
import { HANG_GUARD_MS, anyText, fuzz, lineCount, pieceOf, textOf } from "./kit.js";

const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,11}$/);
const headerValue = fc.stringMatching(/^[ -~]{0,30}$/);
const headers = fc.array(fc.tuple(token, headerValue), { maxLength: 8 });
const body = fc.oneof(fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }));

/** A valid message, then cut, extended, or with bytes changed: what a network or a peer sends. */
function mutated(valid: fc.Arbitrary<Uint8Array>): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(
      valid,
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
      fc.option(fc.nat()),
      fc.uint8Array({ maxLength: 40 }),
    )
    .map(([bytes, changes, cut, tail]) => {
      const out = new Uint8Array([...bytes, ...tail]);
      for (const [at, value] of changes) if (out.length > 0) out[at % out.length] = value;
      return cut === null ? out : out.subarray(0, cut % (out.length + 1));
    });
}

const request = fc
  .record({
    method: fc.constantFrom("DISPATCH", "RETRACT", "FETCH", "MESSAGE", "X-NEW"),
    uri: fc.constantFrom("/", "/agents/1", "atp://h:831/a"),
    headers,
    body,
  })
  .map((r) => {
    try {
      return writeRequest(r);
    } catch {
      return new TextEncoder().encode(`${r.method} ${r.uri} ATP/0.1\r\n\r\n`);
    }
  });
const response = fc
  .record({ status: fc.constantFrom(200, 201, 400, 404, 500, 503), headers, body })
  .map((r) => {
    try {
      return writeResponse(r as Parameters<typeof writeResponse>[0]);
    } catch {
      return new TextEncoder().encode("ATP/0.1 200 OK\r\n\r\n");
    }
  });

describe("fuzz: ATP messages", () => {
  it(
    "requests and responses, whole, cut or mutated: read or refused, never thrown",
    { timeout: HANG_GUARD_MS },
    () => {
      const input = fc.oneof(
        mutated(request),
        mutated(response),
        fc.uint8Array({ maxLength: 600 }),
      );
      fuzz(fc.tuple(input, fc.boolean()), ([bytes, ended]) => {
        for (const read of [readRequest(bytes), readResponse(bytes, { ended })]) {
          if (read.kind === "message") {
            assert.ok(read.message.headers.length <= MAX_HEADER_COUNT);
            assert.ok(read.message.body.byteLength <= Math.min(MAX_BODY_BYTES, bytes.byteLength));
          }
        }
      });
    },
  );

  it("ATP URLs: read or refused, never thrown", { timeout: HANG_GUARD_MS }, () => {
    fuzz(
      fc.oneof(
        pieceOf(["atp://h:831/a", "atp://[::1]:1/", "atp://", "http://x/", "atp://u@h/"], 20),
        anyText(60),
      ),
      (text) => {
        parseAtpUrl(text);
      },
    );
  });
});

const REPORT_WORDS = [
  "SequenceNumber: 7",
  "SequenceNumber: -1",
  "SequenceNumber: 99999999999999999999",
  "URLBase: http://www.example.org/",
  "URLBase: nope",
  "",
  "New[2026-11-21T08:00:00Z]: /a.html, /b.html",
  "Change[2026-11-21T08:01:00Z]: /index.html",
  "Delete[2026-11-21T08:02:00Z]: /old.html",
  "Delete[never]: /x",
  "New[2026-11-21T08:00:00Z]:",
  "  /continued.html,",
  ", , ,",
];
const RUPINFO_WORDS = [
  "RUP-CGI: http://www.example.org/cgi-bin/rup",
  "Authentifier: none",
  "Latency: day, week, month",
  "Latency: 3-day",
  "Exclude: ^/tmp/, \\.cgi$",
  "IncludeOnly: ^/news/",
  "MaxQuerySpan: 2-month",
  "Exclude: (",
  "# c",
];
const fieldName = fc.constantFrom(
  "Action",
  "RobotEmail",
  "Latency",
  "Exclude",
  "IncludeOnly",
  "RegistrationKey",
  "RegisteredRobotEmail",
  "SequenceNumber",
  "Other",
);
const fieldValue = fc.oneof(
  fc.constantFrom(
    "Register",
    "Unregister",
    "ModifyPreferences",
    "GetIndex",
    "bot@example.org",
    "http://127.0.0.1:9/",
    "day",
    "2-week",
    "^/news/",
    "(",
    "1",
    "",
  ),
  anyText(40),
);

describe("fuzz: RUP", () => {
  it("action requests: a request or an error, never thrown", { timeout: HANG_GUARD_MS }, () => {
    fuzz(fc.array(fc.tuple(fieldName, fieldValue), { maxLength: 8 }), (fields) => {
      const parsed = parseActionRequest(fields);
      assert.equal(typeof parsed.ok, "boolean");
    });
  });

  it(
    "reports: read with findings bounded by lines, paths by the limit",
    { timeout: HANG_GUARD_MS },
    () => {
      fuzz(fc.oneof(textOf(pieceOf(REPORT_WORDS, 12), ["\n", "\r\n"]), anyText(300)), (text) => {
        const read = parseReport(text);
        assert.ok(read.diagnostics.length <= 4 * lineCount(text) + 8);
        const paths = read.report?.changes.reduce((n, c) => n + c.paths.length, 0) ?? 0;
        assert.ok(paths <= Math.min(MAX_REPORT_PATHS, text.length + 1));
      });
    },
  );

  it(
    "/rupinfo.txt, latencies and the answers a robot reads: never thrown",
    { timeout: HANG_GUARD_MS },
    () => {
      fuzz(fc.oneof(textOf(pieceOf(RUPINFO_WORDS, 12), ["\n", "\r\n"]), anyText(300)), (text) => {
        const read = parseRupInfo(text);
        assert.ok(read.diagnostics.length <= 4 * lineCount(text) + 8);
        parseLatency(text);
        parseLatency(text, { countRequired: true });
        readRegistrationKey(text);
        readSequenceNumber(text);
      });
    },
  );
});
