/** Exit codes of every heed command (DESIGN §6). */
export const EXIT_OK = 0;
/** Something was not allowed, or lint found errors. */
export const EXIT_NOT_ALLOWED = 1;
/** Bad input: a missing file, an unreachable URL, bad options. */
export const EXIT_BAD_INPUT = 2;
/**
 * The crawl's storage failed while a crawl ran: the store unreachable past its wait, lost, full
 * or read-only, or the WARC output full.
 */
export const EXIT_STORE = 3;
/** Stopped by Ctrl-C (SIGINT), as shells report 128 + 2. */
export const EXIT_INTERRUPTED = 130;

/** An error the user can act on; the CLI prints its message and exits with `exitCode`. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = EXIT_BAD_INPUT, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
