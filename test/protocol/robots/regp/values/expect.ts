// Assertions shared by the value-parser tests: a result is ok (and its value), or an error that
// is one line and names the bad part.
import assert from "node:assert/strict";
import type { ValueResult } from "../../../../../src/protocol/robots/regp/values/result.js";

export function expectOk<T>(result: ValueResult<T>): T {
  if (!result.ok) assert.fail(`expected ok, got error: ${result.error}`);
  return result.value;
}

/** Asserts `ok: false`, a one-line message, and that it mentions each of `mentions`. */
export function expectError(result: ValueResult<unknown>, ...mentions: readonly string[]): string {
  if (result.ok) assert.fail(`expected an error, got ${JSON.stringify(result.value)}`);
  assert.ok(!/[\r\n]/.test(result.error), `error is one line: ${JSON.stringify(result.error)}`);
  assert.ok(
    result.error.startsWith("expected") || result.error.includes("expected"),
    `"expected …" style: ${result.error}`,
  );
  for (const m of mentions) {
    assert.ok(
      result.error.includes(m),
      `error ${JSON.stringify(result.error)} should mention ${JSON.stringify(m)}`,
    );
  }
  return result.error;
}
