// ATP/0.1 messages read and written: the draft's §4.1 (version), §4.2.1 (URLs), §6 (request),
// §7 (response), §8 (header fields), §9 (status codes); every reading limit in limits.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ATP_STATUS,
  header,
  MAX_HEAD_BYTES,
  MAX_HEADER_COUNT,
  parseAtpUrl,
  type AtpStatus,
  readRequest,
  readResponse,
  statusClass,
  writeRequest,
  writeResponse,
} from "../../../src/protocol/atp/index.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const str = (b: Uint8Array): string => new TextDecoder().decode(b);

describe("requests (§6, §8)", () => {
  const cases: readonly (readonly [
    name: string,
    wire: string,
    want: string | { status: number; code: string },
  ])[] = [
    [
      "DISPATCH with a body (§6.1.1)",
      "DISPATCH /joe ATP/0.1\r\nAgent-System: heed\r\nContent-Length: 5\r\n\r\nhello",
      "DISPATCH /joe body=hello",
    ],
    [
      "RETRACT of #id (§6.2.1.2)",
      "RETRACT #2874678383 ATP/0.1\r\nAgent-Id: 2874678383\r\n\r\n",
      "RETRACT #2874678383 body=",
    ],
    [
      "method names are case-insensitive (§3)",
      "fetch /agents/a.js atp/0.1\r\n\r\n",
      "FETCH /agents/a.js body=",
    ],
    [
      "bare LF line ends are tolerated",
      "MESSAGE /joe#1 ATP/0.1\nContent-Length: 2\n\nhi",
      "MESSAGE /joe#1 body=hi",
    ],
    [
      "an extension method is read (§6.1); the host decides",
      "PING / ATP/0.1\r\n\r\n",
      "PING / body=",
    ],
    ["a later minor version is read (§4.1)", "PING / ATP/0.2\r\n\r\n", "PING / body="],
    ["no version", "DISPATCH /joe\r\n\r\n", { status: 300, code: "bad-request-line" }],
    ["HTTP, not ATP", "GET / HTTP/1.0\r\n\r\n", { status: 300, code: "bad-request-line" }],
    [
      "another major version: 400 (§9.4 example)",
      "DISPATCH / ATP/1.0\r\n\r\n",
      { status: 400, code: "unsupported-version" },
    ],
    [
      "a method that is not a token",
      "DIS(PATCH / ATP/0.1\r\n\r\n",
      { status: 300, code: "bad-method" },
    ],
    [
      "a header line without a colon",
      "PING / ATP/0.1\r\nAgent-System heed\r\n\r\n",
      { status: 300, code: "bad-header" },
    ],
    [
      "Content-Length not a number (§8.8)",
      "DISPATCH / ATP/0.1\r\nContent-Length: 1e3\r\n\r\n",
      { status: 300, code: "bad-content-length" },
    ],
    [
      "two different Content-Lengths",
      "DISPATCH / ATP/0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
      { status: 300, code: "bad-content-length" },
    ],
  ];
  for (const [name, wire, want] of cases) {
    it(name, () => {
      const read = readRequest(bytes(wire));
      if (typeof want === "string") {
        assert.equal(read.kind, "message", JSON.stringify(read));
        if (read.kind !== "message") return;
        const { method, uri, body } = read.message;
        assert.equal(`${method} ${uri} body=${str(body)}`, want);
        assert.equal(read.consumed, bytes(wire).length);
      } else {
        assert.equal(read.kind, "error");
        if (read.kind !== "error") return;
        assert.deepEqual({ status: read.status, code: read.code }, want);
      }
    });
  }

  it("RFC 822 continuation lines are joined, names looked up in any case", () => {
    const read = readRequest(bytes("PING / ATP/0.1\r\nUser-Agent: heed\r\n  crawler\r\n\r\n"));
    assert.equal(read.kind, "message");
    if (read.kind === "message")
      assert.equal(header(read.message.headers, "user-agent"), "heed crawler");
  });

  it("is incomplete until the head and the whole body have arrived", () => {
    const wire = bytes("DISPATCH /joe ATP/0.1\r\nContent-Length: 10\r\n\r\n0123456789");
    for (const cut of [0, 5, 30, wire.length - 1]) {
      assert.equal(readRequest(wire.subarray(0, cut)).kind, "incomplete", `cut at ${cut}`);
    }
    assert.equal(readRequest(wire).kind, "message");
  });

  it(`refuses a head over ${MAX_HEAD_BYTES} bytes, even before it ends`, () => {
    const long = `PING / ATP/0.1\r\nX-Pad: ${"a".repeat(MAX_HEAD_BYTES)}`;
    const read = readRequest(bytes(long));
    assert.equal(read.kind === "error" ? read.code : read.kind, "head-too-large");
    const limited = readRequest(bytes("PING / ATP/0.1\r\nX: 12345\r\n\r\n"), { maxHeadBytes: 20 });
    assert.equal(limited.kind === "error" ? limited.status : null, ATP_STATUS.BAD_REQUEST);
  });

  it(`refuses more than ${MAX_HEADER_COUNT} header fields`, () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `X-${i}: v\r\n`).join("");
    assert.equal(
      readRequest(bytes(`PING / ATP/0.1\r\n${fields(MAX_HEADER_COUNT)}\r\n`)).kind,
      "message",
    );
    const over = readRequest(bytes(`PING / ATP/0.1\r\n${fields(MAX_HEADER_COUNT + 1)}\r\n`));
    assert.equal(over.kind === "error" ? over.code : over.kind, "too-many-headers");
  });

  it("refuses a body over the limit from its Content-Length alone, with 301 FORBIDDEN", () => {
    const read = readRequest(bytes("DISPATCH / ATP/0.1\r\nContent-Length: 1001\r\n\r\n"), {
      maxBodyBytes: 1000,
    });
    assert.equal(read.kind, "error");
    if (read.kind === "error") assert.deepEqual([read.status, read.code], [301, "body-too-large"]);
  });
});

describe("responses (§7, §9)", () => {
  it("reads a status line, headers and a body", () => {
    const read = readResponse(bytes("ATP/0.1 302 NOT FOUND\r\nContent-Length: 3\r\n\r\nnoX"));
    assert.equal(read.kind, "message");
    if (read.kind !== "message") return;
    assert.deepEqual(
      [read.message.status, read.message.reason, str(read.message.body)],
      [302, "NOT FOUND", "noX"],
    );
  });

  it("without Content-Length the body runs to the close (HTTP/1.0, §10)", () => {
    const wire = bytes("ATP/0.1 100 OKAY\r\n\r\nrest of it");
    const open = readResponse(wire);
    assert.equal(open.kind === "message" ? str(open.message.body) : open.kind, "");
    const closed = readResponse(wire, { ended: true });
    assert.equal(closed.kind === "message" ? str(closed.message.body) : closed.kind, "rest of it");
  });

  it("a connection closed inside the body is an error, not a short body", () => {
    const read = readResponse(bytes("ATP/0.1 100 OKAY\r\nContent-Length: 9\r\n\r\nabc"), {
      ended: true,
    });
    assert.equal(read.kind === "error" ? read.code : read.kind, "truncated");
  });

  it("a status line that is not one", () => {
    const read = readResponse(bytes("HTTP/1.1 200 OK\r\n\r\n"));
    assert.equal(read.kind === "error" ? read.code : read.kind, "bad-request-line");
    const bad = readResponse(bytes("ATP/0.1 OK\r\n\r\n"));
    assert.equal(bad.kind === "error" ? bad.code : bad.kind, "bad-status-line");
  });

  // ATP draft §9: the nine codes, their phrases and classes by first digit.
  const CODES: readonly (readonly [number, string, string])[] = [
    [100, "OKAY", "success"],
    [200, "MOVED", "redirection"],
    [300, "BAD REQUEST", "sender-error"],
    [301, "FORBIDDEN", "sender-error"],
    [302, "NOT FOUND", "sender-error"],
    [400, "INTERNAL RECIPIENT ERROR", "recipient-error"],
    [401, "NOT IMPLEMENTED", "recipient-error"],
    [402, "BAD GATEWAY", "recipient-error"],
    [403, "SERVICE UNAVAILABLE", "recipient-error"],
  ];
  for (const [code, phrase, kind] of CODES) {
    it(`${code} ${phrase} round-trips`, () => {
      const wire = writeResponse({ status: code as AtpStatus, body: "x" });
      assert.match(str(wire), new RegExp(`^ATP/0\\.1 ${code} ${phrase}\\r\\n`));
      const read = readResponse(wire);
      assert.equal(read.kind === "message" ? read.message.status : null, code);
      assert.equal(statusClass(code), kind);
    });
  }
});

describe("writing", () => {
  it("a request round-trips, Content-Length from the body, CRLF line ends", () => {
    const wire = writeRequest({
      method: "dispatch",
      uri: "/joe",
      headers: [
        ["Agent-System", "heed"],
        ["Content-Length", "999"],
      ],
      body: "ünï",
    });
    assert.equal(
      str(wire),
      "DISPATCH /joe ATP/0.1\r\nAgent-System: heed\r\nContent-Length: 5\r\n\r\nünï",
    );
    const read = readRequest(wire);
    assert.equal(read.kind === "message" ? str(read.message.body) : read.kind, "ünï");
  });

  it("refuses to write what would break the framing", () => {
    assert.throws(
      () => writeRequest({ method: "PING", uri: "/", headers: [["X", "a\r\nInjected: 1"]] }),
      { code: "ATP_INVALID_MESSAGE" },
    );
    assert.throws(() => writeRequest({ method: "PI NG", uri: "/" }), {
      code: "ATP_INVALID_MESSAGE",
    });
    assert.throws(() => writeRequest({ method: "PING", uri: "/a b" }), {
      code: "ATP_INVALID_MESSAGE",
    });
  });
});

describe("ATP URLs (§4.2.1)", () => {
  const cases: readonly (readonly [string, string | null])[] = [
    ["atp://joe.trl.ibm.com", "joe.trl.ibm.com 434  null"],
    ["atp://joe.trl.ibm.com:10434", "joe.trl.ibm.com 10434  null"],
    ["atp://joe.trl.ibm.com#2874678383", "joe.trl.ibm.com 434  2874678383"],
    ["atp://joe.trl.ibm.com/danny#2874678383", "joe.trl.ibm.com 434 /danny 2874678383"],
    [
      "atp://joe.trl.ibm.com/agents/classes/Hello.class",
      "joe.trl.ibm.com 434 /agents/classes/Hello.class null",
    ],
    ["ATP://127.0.0.1:4434", "127.0.0.1 4434  null"],
    ["atp://[::1]:9", "[::1] 9  null"],
    ["http://joe.trl.ibm.com", null],
    ["atp://h:0", null],
    ["atp://h:99999", null],
    ["atp://h#not-alnum", null],
  ];
  for (const [text, want] of cases) {
    it(text, () => {
      const read = parseAtpUrl(text);
      if (want === null) assert.equal(read.ok, false);
      else {
        assert.ok(read.ok);
        const { host, port, path, agentId } = read.url;
        assert.equal(`${host} ${port} ${path} ${agentId}`, want);
      }
    });
  }
});
