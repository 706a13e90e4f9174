/**
 * The input of `heed check --batch` as chunks of whole lines, still in bytes: the answerer
 * finds each line's fields in place and makes strings only of what it asks about. A line
 * longer than the cap is never kept whole: it becomes a chunk of its own that says so, and
 * the lines after it are read as usual (one endless line costs no more memory than the cap).
 */
import { MAX_QUERY_LINE_BYTES } from "../query-lines.js";

export const LF = 0x0a;
export const CR = 0x0d;

/** Whole input lines, each ending in `\n`, `\r\n` or `\r` (the last line of the input may have no end). */
export interface BatchChunk {
  readonly bytes: Uint8Array;
  /** The 1-based number of the chunk's first line in the input. */
  readonly firstLine: number;
  /** The chunk is one line longer than the cap, whose bytes were dropped (`bytes` is empty). */
  readonly tooLong: boolean;
}

/**
 * Chunks of whole lines from `pieces` (the input as it is read), numbered from line 1.
 * `maxBytes` caps a line, its end not counted.
 */
export async function* batchChunks(
  pieces: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array>,
  maxBytes: number = MAX_QUERY_LINE_BYTES,
): AsyncGenerator<BatchChunk> {
  let line = 1;
  // A line begun in an earlier piece: its bytes so far, or null when it passed the cap.
  let carried: Uint8Array[] = [];
  let carriedBytes = 0;
  let skipping = false;
  // The last piece ended in CR: an LF first in the next piece ends the same line.
  let afterCr = false;

  // Before the first byte: a UTF-8 byte order mark there (as some editors save a file) is not
  // part of the first line's robots-file field.
  let atStart = true;
  // The first bytes, while they may be the start of that mark: a pipe hands on what was
  // written so far, which may be one or two of its three bytes.
  let head: Uint8Array | null = null;

  for await (const piece of pieces) {
    let bytes = typeof piece === "string" ? Buffer.from(piece) : piece;
    if (bytes.length === 0) continue;
    if (atStart) {
      if (head !== null) bytes = Buffer.concat([head, bytes]);
      if (bytes.length < BOM.length && BOM.subarray(0, bytes.length).equals(bytes)) {
        head = Uint8Array.prototype.slice.call(bytes);
        continue;
      }
      head = null;
    }
    let start = afterCr && bytes[0] === LF ? 1 : 0;
    if (atStart && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    atStart = false;
    afterCr = false;
    if (carriedBytes > 0 || skipping) {
      const end = lineEnd(bytes, start);
      if (end < 0) {
        // The line goes on past this piece.
        carry(bytes.subarray(start));
        continue;
      }
      const next = afterEnd(bytes, end);
      if (skipping || carriedBytes + (end - start) > maxBytes) {
        yield { bytes: EMPTY, firstLine: line, tooLong: true };
      } else {
        carried.push(bytes.subarray(start, next));
        yield { bytes: Buffer.concat(carried), firstLine: line, tooLong: false };
      }
      line++;
      carried = [];
      carriedBytes = 0;
      skipping = false;
      start = next;
      if (next === bytes.length && bytes[next - 1] === CR) afterCr = true;
    }
    const last = lastLineEnd(bytes, start);
    if (last >= start) {
      const whole = bytes.subarray(start, last + 1);
      yield { bytes: whole, firstLine: line, tooLong: false };
      line += countLines(whole);
      start = last + 1;
      if (start === bytes.length && bytes[last] === CR) afterCr = true;
    }
    if (start < bytes.length) carry(bytes.subarray(start));
  }
  // Input of one or two bytes that began like the mark: a line like any other.
  if (head !== null) yield { bytes: head, firstLine: line, tooLong: false };
  else if (skipping) yield { bytes: EMPTY, firstLine: line, tooLong: true };
  else if (carriedBytes > 0)
    yield { bytes: Buffer.concat(carried), firstLine: line, tooLong: false };

  function carry(rest: Uint8Array): void {
    if (skipping || rest.length === 0) return;
    if (carriedBytes + rest.length > maxBytes) {
      // Past the cap: drop what was kept and everything up to the line's end.
      skipping = true;
      carried = [];
      carriedBytes = 0;
      return;
    }
    // A copy: the reader may reuse its buffer, and a small slice must not pin a large one.
    carried.push(Uint8Array.prototype.slice.call(rest));
    carriedBytes += rest.length;
  }
}

const EMPTY = new Uint8Array(0);
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The first line end (`\n` or `\r`) at or after `from`, or -1. Searches the rest: call once. */
function lineEnd(bytes: Uint8Array, from: number): number {
  return new LineEnds(bytes).next(from);
}

/**
 * Line ends (`\n` or `\r`) found front to back. Each kind's next position is kept until passed,
 * so that input of one kind (CR only, say) is not searched to its end for the other kind at
 * every line: the whole pass looks at each byte at most twice.
 */
export class LineEnds {
  private lf = -2;
  private cr = -2;

  constructor(private readonly bytes: Uint8Array) {}

  /** The first line end at or after `from`, or -1; `from` must not go back between calls. */
  next(from: number): number {
    if (this.lf !== -1 && this.lf < from) this.lf = this.bytes.indexOf(LF, from);
    if (this.cr !== -1 && this.cr < from) this.cr = this.bytes.indexOf(CR, from);
    const { lf, cr } = this;
    return lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
  }
}

/** Just past the line end at `end` (`\r\n` counts as one). */
export function afterEnd(bytes: Uint8Array, end: number): number {
  return bytes[end] === CR && bytes[end + 1] === LF ? end + 2 : end + 1;
}

/** The last line end at or after `from`: the last `\n` or `\r`, or -1. */
function lastLineEnd(bytes: Uint8Array, from: number): number {
  const last = Math.max(bytes.lastIndexOf(LF), bytes.lastIndexOf(CR));
  return last < from ? -1 : last;
}

/** How many lines end in `bytes` (`\r\n` counts once); a last line without an end counts too. */
export function countLines(bytes: Uint8Array): number {
  let n = 0;
  let at = 0;
  if (bytes.indexOf(CR) < 0) {
    for (let i = bytes.indexOf(LF); i >= 0; i = bytes.indexOf(LF, i + 1)) {
      n++;
      at = i + 1;
    }
  } else {
    const ends = new LineEnds(bytes);
    for (let i = ends.next(0); i >= 0; i = ends.next(at)) {
      n++;
      at = afterEnd(bytes, i);
    }
  }
  return at < bytes.length ? n + 1 : n;
}
