/**
 * A robots.txt named in a batch, read from a local file with blocking calls: with the file in
 * the page cache, as a batch's files mostly are, the read takes a few microseconds, and the
 * promise API's open, read and close cost several times more than parsing a small robots.txt.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { MAX_ROBOTS_BYTES } from "../../protocol/robots/limits.js";
import { readError } from "../read-error.js";
import { CliError } from "../errors.js";

// A batch reads no more of a robots.txt than parsing uses (RFC 9309 §2.5's 500 KiB) and one
// byte more to know the file was longer: a 1 GB file named in a batch costs 500 KiB, not 1 GB.
export const READ_BYTES = MAX_ROBOTS_BYTES + 1;

// Most robots.txt files are small: one read into this buffer, which the next read overwrites.
// Its bytes need not be copied out: parsing decodes them into text of its own and keeps no
// reference to them (the batch keeps the policy, not the bytes).
const SCRATCH = Buffer.allocUnsafe(16 * 1024);

function notRegular(file: string): CliError {
  return new CliError(`cannot read ${file}: not a regular file`);
}

/**
 * The first {@link READ_BYTES} of a local file, with one open and as few reads as it takes.
 * A small file's bytes are those of a buffer the next call reads into: use them (parse them)
 * before reading another file, and keep no reference to them.
 */
export function readBytes(file: string): Uint8Array {
  let fd: number;
  try {
    // Not blocking: a FIFO named in a batch opens at once instead of waiting for a writer
    // that may never come, and its read then fails: it is refused below.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
  }
  try {
    let buffer = SCRATCH;
    let got = 0;
    for (;;) {
      if (got === buffer.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 4, READ_BYTES));
        buffer.copy(bigger, 0, 0, got);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, got, buffer.length - got, got);
      got += n;
      if (n === 0 || got === READ_BYTES) break;
    }
    // Nothing read: an empty file, or a FIFO without a writer, which is refused. Asked only
    // then: a batch reads a million files, and most have bytes.
    if (got === 0 && !fstatSync(fd).isFile()) throw notRegular(file);
    // A plain view, not Buffer's subarray, which makes a Buffer through its JavaScript
    // constructor.
    return new Uint8Array(buffer.buffer, buffer.byteOffset, got);
  } catch (error) {
    if (error instanceof CliError) throw error;
    // A FIFO or terminal: reads at an offset fail on a pipe (ESPIPE), and without blocking
    // one with nothing to read yet says so (EAGAIN).
    const code = (error as { code?: unknown }).code;
    if (code === "ESPIPE" || code === "EAGAIN") throw notRegular(file);
    throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
  } finally {
    closeSync(fd);
  }
}
