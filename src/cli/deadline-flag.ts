/**
 * `--deadline SECONDS`: the total time each fetch of a one-shot command (`heed check URL`,
 * `heed sitemap URL`, `heed datasets URL`) may take, in place of its default (robots.txt 30 s,
 * a sitemap 60 s, any other request 120 s: docs/fetching.md).
 */
import { CliError } from "./errors.js";

/** Longest deadline one may ask for: a day, past which a fetch is stuck, not slow. */
export const MAX_DEADLINE_SECONDS = 86_400;

export const DEADLINE_FLAG_HELP =
  "the total seconds each fetch may take, however it trickles in (default: robots.txt 30, a sitemap 60, other requests 120)";

/** The flag's value in ms, or undefined when it was not given. */
export function deadlineMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!/^\d+(?:\.\d+)?$/.test(value) || seconds <= 0 || seconds > MAX_DEADLINE_SECONDS)
    throw new CliError(
      `--deadline: expected seconds, a number above 0 and at most ${MAX_DEADLINE_SECONDS}, got "${value}"`,
    );
  return Math.max(1, Math.round(seconds * 1000));
}

/** `{ deadlineMs }` when the flag was given, for an options object. */
export function deadlineOf(value: string | undefined): { deadlineMs?: number } {
  const ms = deadlineMs(value);
  return ms === undefined ? {} : { deadlineMs: ms };
}
