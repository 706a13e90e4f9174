/**
 * Limits on what a robots.txt may cost to read. Each is a named constant with its reason,
 * so that callers and tests refer to the same number.
 */

/** RFC 9309 §2.5: a parser must read at least 500 KiB; content after it is ignored. */
export const MAX_ROBOTS_BYTES = 500 * 1024;

/**
 * Longest line, in characters, that is read whole. A longer line is cut here and reported.
 * 16 KiB holds eight of the longest URLs browsers accept (2,083 characters) with room to spare.
 */
export const MAX_LINE_LENGTH = 16 * 1024;

/** Most User-agent values one group may list before further ones are ignored and reported. */
export const MAX_AGENTS_PER_GROUP = 1024;
