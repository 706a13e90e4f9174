/**
 * Limits on what RUP text may cost to read. Each is a named constant with its reason, so that
 * callers and tests refer to the same number.
 */

/** A /rupinfo.txt holds six short fields; 64 KiB is far more than any honest one needs. */
export const MAX_RUPINFO_BYTES = 64 * 1024;

/** Longest line read whole in a /rupinfo.txt or a report: eight long URLs with room to spare. */
export const MAX_LINE_LENGTH = 16 * 1024;

/** Patterns one Exclude or IncludeOnly list may hold: a site offers a handful, not thousands. */
export const MAX_PATTERNS = 256;

/** Longest URL pattern (a regular expression): long ones cost match time on every path. */
export const MAX_PATTERN_LENGTH = 512;

/** Values one Latency list may offer. */
export const MAX_LATENCIES = 64;

/**
 * The count in `N-unit`: 10,000 days is 27 years, longer than any log is kept; a larger
 * count only overflows date arithmetic.
 */
export const MAX_LATENCY_COUNT = 10_000;

/**
 * A report's size: 100,000 changed paths of 300 bytes each fit in 32 MiB; a larger report is
 * read up to here and the rest reported, so that the robot recovers the rest with GetIndex.
 */
export const MAX_REPORT_BYTES = 32 * 1024 * 1024;

/** Change lines one report may hold before reading stops (each line names one or more paths). */
export const MAX_REPORT_LINES = 200_000;

/** Paths one report may list in all. */
export const MAX_REPORT_PATHS = 1_000_000;

/**
 * Written report lines are wrapped before this many characters: SMTP lines stop at 998
 * (RFC 5321 §4.5.3.1.6), and a short line needs no transfer encoding on the way.
 */
export const REPORT_WRAP = 900;

/** An action request (form or query) is a few short fields: 8 KiB holds every one of them. */
export const MAX_REQUEST_BYTES = 8 * 1024;

/** RFC 5321 §4.5.3.1: a path (and so an address) is at most 256 octets; 254 once the brackets go. */
export const MAX_EMAIL_LENGTH = 254;
