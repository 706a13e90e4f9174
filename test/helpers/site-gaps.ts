/**
 * What a test site's arrival log says about a crawl's pace: the arrivals for a failure's
 * message, and every gap between two requests, whatever was asked and by which process.
 */
import assert from "node:assert/strict";
import { TOLERANCE_MS } from "./crawl-harness.js";
import type { LoggedRequest } from "./synthetic-site.js";

/** `ms:path` for each arrival, from the first. */
export function arrivals(log: readonly LoggedRequest[]): string {
  const t0 = log[0]?.at ?? 0;
  return log.map((r) => `${r.at - t0}:${r.path}`).join(" ");
}

/** Every two consecutive arrivals at least `minMs` apart. */
export function assertGaps(log: readonly LoggedRequest[], minMs: number): void {
  for (let i = 1; i < log.length; i++) {
    const gap = log[i]!.at - log[i - 1]!.at;
    assert.ok(
      gap >= minMs - TOLERANCE_MS,
      `${log[i]!.path} came ${gap} ms after ${log[i - 1]!.path} (arrivals ${arrivals(log)})`,
    );
  }
}
