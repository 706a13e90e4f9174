/**
 * A thrown value as one line for the crawl log and events, whatever was thrown: code run by a
 * crawler author may throw a string, null, or an object whose `toString` itself throws.
 */

/** Longest description kept: a log line, not a dump. */
export const MAX_ERROR_CHARS = 500;

export function describeError(error: unknown): string {
  let text: string;
  try {
    if (error instanceof Error) text = error.message === "" ? error.name : error.message;
    else if (typeof error === "string") text = error;
    else if (error === null || error === undefined) text = String(error);
    else if (typeof error === "object") text = JSON.stringify(error) ?? "an object";
    else text = String(error);
  } catch {
    text = "a value that cannot be described";
  }
  // One line: a message may carry a stack or a page's text.
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_ERROR_CHARS ? `${line.slice(0, MAX_ERROR_CHARS)}…` : line || "(empty)";
}
