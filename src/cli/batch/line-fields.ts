/** Fields of a `heed check --batch` line found in place, in its bytes. */
import { latin1 } from "../line-bytes.js";

/** A robots-file field naming a local file (not `-`, not a URL). */
export function isLocal(file: string): boolean {
  return file !== "-" && !file.includes("://");
}

/** The first `byte` in `bytes[from, to)`, or -1; a line is short, and must not be searched past. */
export function indexOf(bytes: Uint8Array, byte: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (bytes[i] === byte) return i;
  return -1;
}

/** `bytes[from, to)` as text when every byte is printable ASCII other than `"` and `\`; else null. */
export function asciiText(bytes: Buffer, from: number, to: number): string | null {
  return isJsonSafe(bytes, from, to) ? latin1(bytes, from, to) : null;
}

/** Is every byte of `bytes[from, to)` printable ASCII other than `"` and `\`, as JSON writes it? */
export function isJsonSafe(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i] as number;
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** DESIGN §6: blank lines and lines starting with `#` are not query lines. */
export function isSkipped(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c === 0x20 || c === 0x09) continue;
    return c === 0x23;
  }
  return true;
}

export const TAB = 0x09;
