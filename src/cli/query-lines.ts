/**
 * The input of `heed check --queries` and `--batch`: lines read in large chunks, numbered, and
 * capped in length while they stream, so that one endless line costs no more memory than the
 * cap. Blank lines and `#` comment lines are skipped (DESIGN §6) but still counted, so that an
 * error can name the line of the file it came from.
 */

/**
 * Longest query line, in bytes. A query is a file name, an agent and a URL; 64 KiB holds the
 * longest URLs in use many times over. A longer line is answered with an error and skipped
 * without being kept.
 */
export const MAX_QUERY_LINE_BYTES = 64 * 1024;

export interface QueryLine {
  /** 1-based line number in the input. */
  readonly number: number;
  /** The line without its end (`\n`, `\r\n` or `\r`); "" when it was too long. */
  readonly text: string;
  /** The line was longer than the cap; `text` is empty and the line must be answered with an error. */
  readonly tooLong: boolean;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Yields the query lines of `input` a chunk at a time (each array holds the lines that ended
 * in one chunk), comment and blank lines left out.
 */
export async function* queryLines(
  input: AsyncIterable<Uint8Array | string>,
  maxBytes: number = MAX_QUERY_LINE_BYTES,
  /** Lines left out (still counted); default: blank lines and `#` comments. */
  skipped: (text: string) => boolean = isSkipped,
): AsyncGenerator<QueryLine[]> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let number = 0;
  let afterCr = false;
  let out: QueryLine[] = [];

  const finish = (text: string, tooLong: boolean): void => {
    number++;
    if (tooLong) {
      out.push({ number, text: "", tooLong: true });
      return;
    }
    if (skipped(text)) return;
    out.push({ number, text, tooLong: false });
  };

  for await (const piece of input) {
    const chunk =
      typeof piece === "string"
        ? Buffer.from(piece)
        : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    let start = 0;
    if (afterCr && chunk[0] === LF) start = 1;
    afterCr = false;
    // Line ends found by indexOf (memchr), not byte by byte in script.
    let lf = chunk.indexOf(LF, start);
    let cr = chunk.indexOf(CR, start);
    while (lf >= 0 || cr >= 0) {
      let i = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      const c = chunk[i];
      // A line ends here: what was pending plus chunk[start, i).
      if (skipping) {
        finish("", true);
      } else if (pendingBytes + (i - start) > maxBytes) {
        finish("", true);
      } else if (pending.length === 0) {
        finish(chunk.toString("utf8", start, i), false);
      } else {
        pending.push(chunk.subarray(start, i));
        finish(Buffer.concat(pending).toString("utf8"), false);
      }
      pending = [];
      pendingBytes = 0;
      skipping = false;
      if (c === CR) {
        if (i + 1 < chunk.length) {
          if (chunk[i + 1] === LF) i++;
        } else afterCr = true;
      }
      start = i + 1;
      if (lf >= 0 && lf < start) lf = chunk.indexOf(LF, start);
      if (cr >= 0 && cr < start) cr = chunk.indexOf(CR, start);
    }
    if (start < chunk.length && !skipping) {
      const rest = chunk.length - start;
      if (pendingBytes + rest > maxBytes) {
        // Past the cap: drop what was kept and everything up to the line's end.
        skipping = true;
        pending = [];
        pendingBytes = 0;
      } else {
        // A copy: the stream may reuse its buffer, and a small slice must not pin a large one.
        pending.push(Buffer.from(chunk.subarray(start)));
        pendingBytes += rest;
      }
    }
    if (out.length > 0) {
      yield out;
      out = [];
    }
  }
  if (skipping) finish("", true);
  else if (pendingBytes > 0) finish(Buffer.concat(pending).toString("utf8"), false);
  if (out.length > 0) yield out;
}

/** DESIGN §6: blank lines and lines starting with `#` are not query lines. */
function isSkipped(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09) continue;
    return c === 0x23;
  }
  return true;
}
