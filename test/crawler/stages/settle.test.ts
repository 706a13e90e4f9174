// settle.ts's decision tables: what a status asks (RFC 9110 §15: 5xx and 429 are the site's
// trouble, tried again; 3xx but 304 lead elsewhere) and how long a retry waits.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  RETRY_BASE_MS,
  retryDelay,
  type StatusAction,
  statusAction,
} from "../../../src/crawler/stages/settle.js";

describe("statusAction", () => {
  const table: [number, StatusAction][] = [
    [200, "page"],
    [204, "page"],
    [304, "page"],
    [301, "redirect"],
    [302, "redirect"],
    [307, "redirect"],
    [308, "redirect"],
    [404, "page"],
    [410, "page"],
    [429, "retry"],
    [500, "retry"],
    [503, "retry"],
    [599, "retry"],
  ];
  for (const [status, action] of table)
    it(`${status}: ${action}`, () => assert.equal(statusAction(status), action));
});

describe("retryDelay", () => {
  it("doubles from the base with each attempt", () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((n) => retryDelay(n, null)),
      [1, 2, 4, 8].map((k) => k * RETRY_BASE_MS),
    );
  });
  it("waits longer when Retry-After asks (RFC 9110 §10.2.3), never shorter", () => {
    assert.equal(retryDelay(0, 60_000), 60_000);
    assert.equal(retryDelay(3, 1), 8 * RETRY_BASE_MS);
  });
});
