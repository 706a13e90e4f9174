// The gate of `heed ui` (src/web/request-gate.ts): who may talk to the server. Table-driven;
// each row is an attack a web page elsewhere could try from the user's browser, or a request
// the page itself makes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gate, hostRule, isLoopback } from "../../src/web/request-gate.js";

const PORT = 8377;

type Row = [
  name: string,
  listen: string,
  method: string,
  headers: Record<string, string>,
  needsUiHeader: boolean,
  status: number | null,
];

const ROWS: readonly Row[] = [
  ["the page itself", "127.0.0.1", "GET", { host: "127.0.0.1:8377" }, false, null],
  ["the page at localhost", "127.0.0.1", "GET", { host: "localhost:8377" }, false, null],
  ["the page at [::1]", "127.0.0.1", "GET", { host: "[::1]:8377" }, false, null],
  ["Host in capitals", "127.0.0.1", "GET", { host: "LOCALHOST:8377" }, false, null],
  ["HEAD", "127.0.0.1", "HEAD", { host: "127.0.0.1:8377" }, false, null],
  [
    "the page's own fetch",
    "127.0.0.1",
    "GET",
    {
      host: "127.0.0.1:8377",
      origin: "http://127.0.0.1:8377",
      "sec-fetch-site": "same-origin",
      "x-heed-ui": "1",
    },
    true,
    null,
  ],
  [
    "typed in the address bar",
    "127.0.0.1",
    "GET",
    { host: "127.0.0.1:8377", "sec-fetch-site": "none" },
    false,
    null,
  ],
  // DNS rebinding: evil.example resolves to 127.0.0.1; the browser sends its name.
  ["rebound name", "127.0.0.1", "GET", { host: "evil.example:8377" }, false, 421],
  ["rebound name, no port", "127.0.0.1", "GET", { host: "evil.example" }, false, 421],
  ["another port", "127.0.0.1", "GET", { host: "127.0.0.1:8378" }, false, 421],
  ["no Host", "127.0.0.1", "GET", {}, false, 421],
  [
    "localhost.evil.example",
    "127.0.0.1",
    "GET",
    { host: "localhost.evil.example:8377" },
    false,
    421,
  ],
  // CSRF: a page elsewhere posts or fetches.
  ["POST", "127.0.0.1", "POST", { host: "127.0.0.1:8377" }, false, 405],
  ["DELETE", "127.0.0.1", "DELETE", { host: "127.0.0.1:8377" }, false, 405],
  [
    "another origin",
    "127.0.0.1",
    "GET",
    { host: "127.0.0.1:8377", origin: "http://evil.example" },
    false,
    403,
  ],
  [
    "same host, https origin",
    "127.0.0.1",
    "GET",
    { host: "127.0.0.1:8377", origin: "https://127.0.0.1:8377" },
    false,
    403,
  ],
  [
    "opaque origin (sandboxed frame)",
    "127.0.0.1",
    "GET",
    { host: "127.0.0.1:8377", origin: "null" },
    false,
    403,
  ],
  ["a malformed origin", "127.0.0.1", "GET", { host: "127.0.0.1:8377", origin: "::" }, false, 403],
  [
    "cross-site fetch metadata",
    "127.0.0.1",
    "GET",
    { host: "127.0.0.1:8377", "sec-fetch-site": "cross-site" },
    false,
    403,
  ],
  [
    "same-site fetch metadata (another port)",
    "127.0.0.1",
    "GET",
    { host: "127.0.0.1:8377", "sec-fetch-site": "same-site" },
    false,
    403,
  ],
  // <img src="http://127.0.0.1:8377/api/robots?site=…">: no Origin, no custom header.
  ["a fetch without the UI header", "127.0.0.1", "GET", { host: "127.0.0.1:8377" }, true, 403],
  [
    "a fetch with the UI header spelt wrong",
    "127.0.0.1",
    "GET",
    { host: "127.0.0.1:8377", "x-heed-ui": "yes" },
    true,
    403,
  ],
  // Listening on every address: any IP literal, never a name.
  ["0.0.0.0 by its LAN address", "0.0.0.0", "GET", { host: "192.168.1.5:8377" }, false, null],
  ["0.0.0.0 by an IPv6 address", "0.0.0.0", "GET", { host: "[fd00::5]:8377" }, false, null],
  ["0.0.0.0 by a name", "0.0.0.0", "GET", { host: "evil.example:8377" }, false, 421],
  ["0.0.0.0 another port", "0.0.0.0", "GET", { host: "192.168.1.5:1" }, false, 421],
  ["one LAN address", "192.168.1.5", "GET", { host: "192.168.1.5:8377" }, false, null],
  ["one LAN address, localhost", "192.168.1.5", "GET", { host: "localhost:8377" }, false, 421],
  ["IPv6 loopback listener", "::1", "GET", { host: "[::1]:8377" }, false, null],
];

describe("heed ui's request gate", () => {
  for (const [name, listen, method, headers, needsUiHeader, status] of ROWS) {
    it(`${name}: ${status === null ? "admitted" : status}`, () => {
      const verdict = gate({ method, headers, needsUiHeader }, hostRule(listen, PORT));
      if (status === null) assert.deepEqual(verdict, { ok: true });
      else {
        assert.equal(verdict.ok, false);
        assert.equal(verdict.ok === false && verdict.status, status);
      }
    });
  }

  it("knows loopback addresses", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"])
      assert.ok(isLoopback(host), host);
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "example.com", "128.0.0.1"])
      assert.ok(!isLoopback(host), host);
  });
});
