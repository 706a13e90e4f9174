/**
 * The connection limits of heed's HTTP servers by default (docs/connection-policy.md), apart
 * from the servers themselves: the command line names them in --help, and importing
 * connection-limits.ts for two numbers loaded node:http and node:net into every command's
 * start, a batch of local files included.
 */

/** A file descriptor each: far below a usual `ulimit -n` of 1024+. */
export const MAX_CONNECTIONS = 512;
/** Browsers open six per host; a proxy for a few users needs more. */
export const MAX_CONNECTIONS_PER_ADDRESS = 16;
