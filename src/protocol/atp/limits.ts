/** Limits on what reading one ATP message may cost; each with its reason. */

/**
 * The request or status line and all header fields together, in bytes. The draft defines nine
 * fields of short text (§8); 16 KiB is what HTTP servers commonly allow a whole head.
 */
export const MAX_HEAD_BYTES = 16 * 1024;

/** Header fields in one message. The draft defines nine; 64 leaves room for extensions. */
export const MAX_HEADER_COUNT = 64;

/**
 * A message body, by default: an agent's code and state on DISPATCH, its results on RETRACT.
 * heed's indexing agent is a few KiB of code; the index of a 10,000-page subtree is a few MiB.
 * 32 MiB holds that with room and keeps one connection from filling memory.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
