/**
 * Output lines written straight into UTF-8 bytes, for `heed check --batch`: a batch writes a
 * line per query, millions of them. Strings built by concatenation are ropes that must be
 * copied flat before they can be encoded, and JSON.stringify on Node 20 walks each object
 * generically; both cost more than answering the query. Here each value is written once into
 * one growing buffer that a worker thread can hand over whole: short strings a character at a
 * time, long ones by Buffer's native encoder, which costs the same for 10 characters as for 150.
 */

const HEX = "0123456789abcdef";

// From this many UTF-16 units a string is written by Buffer.write rather than a loop.
const NATIVE_FROM = 24;

export class LineBytes {
  // Never from Buffer's shared pool: the memory may move to another thread whole.
  private bytes: Buffer;
  private used = 0;
  private nextSize = 0;

  /** `reuse`: memory written before and done with, when it is large enough. */
  constructor(size = 64 * 1024, reuse?: ArrayBuffer) {
    // Memory used again saves the system's work of handing out fresh pages, which for
    // answers of tens of megabytes cost more than writing them.
    this.bytes =
      reuse !== undefined && reuse.byteLength >= size
        ? Buffer.from(reuse)
        : Buffer.allocUnsafeSlow(size);
    // Written here as well as by take(): a field written once is taken by V8's compiler to be
    // constant, and the code that took it so is thrown away when take() writes it again.
    this.nextSize = size;
  }

  /** `text` as it is, in UTF-8 (lone surrogates as U+FFFD, as Buffer.write has them). */
  text(text: string): void {
    this.room(text.length * 3);
    if (text.length >= NATIVE_FROM) {
      this.used += utf8Write(this.bytes, text, this.used);
      return;
    }
    let used = this.used;
    const bytes = this.bytes;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        bytes[used++] = c;
        continue;
      }
      used = this.encode(text, i, c, used, false);
      if (c >= 0xd800 && c <= 0xdbff && isLow(text.charCodeAt(i + 1))) i++;
    }
    this.used = used;
  }

  /** A piece made once and written as it is, many times (see PieceSlab). */
  piece(piece: Uint8Array): void {
    this.room(piece.length);
    this.bytes.set(piece, this.used);
    this.used += piece.length;
  }

  /** The bytes `from[start, end)` as they are. */
  span(from: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.room(n);
    if (n <= LOOP_COPY_UP_TO) {
      this.used = copyBytes(this.bytes, this.used, from, start, end);
      return;
    }
    // Through a view: a plain Uint8Array, not `from.subarray`, which makes a Buffer through its
    // constructor in JavaScript.
    this.bytes.set(new Uint8Array(from.buffer, from.byteOffset + start, n), this.used);
    this.used += n;
  }

  /** `text` as a JSON string literal, quotes included, exactly as JSON.stringify writes it. */
  json(text: string): void {
    // At most 6 bytes a UTF-16 unit (`\u001f`, or a lone surrogate escaped), and the quotes.
    this.room(text.length * 6 + 2);
    const bytes = this.bytes;
    let used = this.used;
    bytes[used++] = 0x22;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x20 && c < 0x80) {
        if (c === 0x22 || c === 0x5c) bytes[used++] = 0x5c;
        bytes[used++] = c;
      } else if (c < 0x20) {
        used = escapeControl(bytes, used, c);
      } else {
        used = this.encode(text, i, c, used, true);
        if (c >= 0xd800 && c <= 0xdbff && isLow(text.charCodeAt(i + 1))) i++;
      }
    }
    bytes[used++] = 0x22;
    this.used = used;
  }

  /** A number as JSON writes it (finite numbers only reach here). */
  number(value: number): void {
    // Line numbers and the like: digits written in place, no string made.
    if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff) {
      this.text(String(value));
      return;
    }
    this.room(10);
    const bytes = this.bytes;
    let at = this.used + digitCount(value);
    this.used = at;
    // Integer division: Math.floor of a float division costs three times as much.
    let rest = value;
    while (rest >= 10) {
      const tenth = (rest / 10) | 0;
      bytes[--at] = 0x30 + rest - tenth * 10;
      rest = tenth;
    }
    bytes[at - 1] = 0x30 + rest;
  }

  /** How many bytes were written since the last take. */
  get size(): number {
    return this.used;
  }

  /** Ends the current line. */
  end(): void {
    this.room(1);
    this.bytes[this.used++] = 0x0a;
  }

  /** What was written since the last clear, until the next write. */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.used);
  }

  /** Starts afresh in the same memory. */
  clear(): void {
    this.used = 0;
  }

  /** What was written so far; the writer starts afresh in new memory of about the same size. */
  take(): Uint8Array {
    const written = this.bytes.subarray(0, this.used);
    // New memory when there is more to write, as much as was written.
    this.nextSize = Math.max(this.used, 1024);
    this.bytes = EMPTY;
    this.used = 0;
    return written;
  }

  /**
   * Writes the non-ASCII unit `c` at `text[i]` (with its low surrogate when it starts a pair)
   * at `used`; returns the new end. A lone surrogate is `\udxxx` in JSON (JSON.stringify's
   * well-formed output) and U+FFFD in plain text.
   */
  private encode(text: string, i: number, c: number, used: number, json: boolean): number {
    const bytes = this.bytes;
    if (c < 0x800) {
      bytes[used++] = 0xc0 | (c >> 6);
      bytes[used++] = 0x80 | (c & 0x3f);
      return used;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = text.charCodeAt(i + 1);
      if (c <= 0xdbff && isLow(low)) {
        const point = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        bytes[used++] = 0xf0 | (point >> 18);
        bytes[used++] = 0x80 | ((point >> 12) & 0x3f);
        bytes[used++] = 0x80 | ((point >> 6) & 0x3f);
        bytes[used++] = 0x80 | (point & 0x3f);
        return used;
      }
      if (json) {
        bytes[used++] = 0x5c;
        bytes[used++] = 0x75;
        for (let shift = 12; shift >= 0; shift -= 4) {
          bytes[used++] = HEX.charCodeAt((c >> shift) & 0xf);
        }
        return used;
      }
      c = 0xfffd;
    }
    bytes[used++] = 0xe0 | (c >> 12);
    bytes[used++] = 0x80 | ((c >> 6) & 0x3f);
    bytes[used++] = 0x80 | (c & 0x3f);
    return used;
  }

  private room(n: number): void {
    if (this.used + n <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafeSlow(
      Math.max(this.bytes.length * 2, this.used + n, this.nextSize),
    );
    this.bytes.copy(bigger, 0, 0, this.used);
    this.bytes = bigger;
  }
}

const EMPTY = Buffer.alloc(0);

// A span this short (a batch's URL, some 60 bytes) is copied by a loop: a view and a native
// copy cost an object each, and on the real batch took twice the loop's time once both were
// compiled, a third more before.
const LOOP_COPY_UP_TO = 256;

/** `from[start, end)` written into `to` at `at`; returns the end of what was written. */
function copyBytes(
  to: Uint8Array,
  at: number,
  from: Uint8Array,
  start: number,
  end: number,
): number {
  for (let i = start; i < end; i++) to[at++] = from[i] as number;
  return at;
}

/**
 * Buffer's own UTF-8 writer and Latin-1 reader, as Buffer.write and toString call them once
 * their arguments are checked: for the short strings of an answer line, the checks cost more
 * than the copy. Both are on Buffer.prototype since Node's first releases; if ever absent, the
 * documented calls serve.
 */
interface NativeBuffer {
  utf8Write?: (text: string, offset: number) => number;
  latin1Slice?: (start: number, end: number) => string;
}
const NATIVE = Buffer.prototype as unknown as NativeBuffer;

function utf8Write(bytes: Buffer, text: string, offset: number): number {
  return NATIVE.utf8Write === undefined
    ? bytes.write(text, offset, "utf8")
    : NATIVE.utf8Write.call(bytes, text, offset);
}

/** `bytes[from, to)` read as Latin-1 (for bytes known to be ASCII). */
export function latin1(bytes: Buffer, from: number, to: number): string {
  return NATIVE.latin1Slice === undefined
    ? bytes.toString("latin1", from, to)
    : NATIVE.latin1Slice.call(bytes, from, to);
}

/** Decimal digits of `value`, from 0 to 2^31 - 1. */
function digitCount(value: number): number {
  // A loop, not a tree of comparisons: V8 compiles the branches a batch has taken so far, and
  // its first line number of six digits would throw the compiled code of its callers away.
  let n = 1;
  while (n < 10 && value >= (POWERS_OF_TEN[n] as number)) n++;
  return n;
}

const POWERS_OF_TEN = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000];

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** JSON's escape of a control character: `\n` and its kind, else `\u00xx`. */
function escapeControl(bytes: Uint8Array, used: number, c: number): number {
  bytes[used++] = 0x5c;
  const short = SHORT_ESCAPES[c];
  if (short !== undefined) {
    bytes[used++] = short;
    return used;
  }
  bytes[used++] = 0x75;
  bytes[used++] = 0x30;
  bytes[used++] = 0x30;
  bytes[used++] = HEX.charCodeAt(c >> 4);
  bytes[used++] = HEX.charCodeAt(c & 0xf);
  return used;
}

// \b \t \n \f \r
const SHORT_ESCAPES: Record<number, number> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };
