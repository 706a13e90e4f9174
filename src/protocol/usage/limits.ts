/**
 * Limits on what reading a usage preference may cost. Each is a named constant with its
 * reason, so that callers and tests refer to the same number.
 */

/**
 * Longest statement of preference read (a Content-Usage or Content-Signal value, a header
 * value), in characters. A robots.txt line is cut at 16 KiB already; a header of more than
 * 8 KiB is refused by most servers, and no honest statement comes near either.
 */
export const MAX_PREFERENCE_LENGTH = 8 * 1024;

/**
 * Most members of one Structured Fields Dictionary, and most parameters of one member. RFC 9651
 * §3.2 and §3.1.2 ask parsers to support at least 1024 members and 256 parameters; more is
 * read as a failed parse (every preference unknown), which is what a parser at the minimum does.
 */
export const MAX_DICTIONARY_MEMBERS = 1024;
export const MAX_PARAMETERS = 256;

/**
 * Most Content-Usage and Content-Signal lines of one robots.txt that are read. A 500 KiB file
 * of the shortest such lines holds about 25,000; a file with more than this is not a policy.
 */
export const MAX_USAGE_LINES = 10_000;

/** Largest /.well-known/tdmrep.json read, in bytes: the size robots.txt is held to (RFC 9309 §2.5). */
export const MAX_TDMREP_BYTES = 500 * 1024;

/** Most rules of one tdmrep.json read; later ones are reported and ignored. */
export const MAX_TDMREP_RULES = 10_000;

/** Deepest JSON nesting accepted in tdmrep.json (it needs two: an array of objects). */
export const MAX_TDMREP_DEPTH = 16;
