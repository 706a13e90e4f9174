import { expectedLength, type ReadLimits } from "./reader.js";

/**
 * A message's bytes as they arrive from a stream. Until the head names a Content-Length every
 * chunk is worth a read; after that, only the chunk that completes the message is, so that a
 * large body is not read again at each of its chunks.
 */
export class MessageBuffer {
  private parts: Uint8Array[] = [];
  private size = 0;
  private expected: number | null = null;

  constructor(private readonly limits: ReadLimits = {}) {}

  /** Adds a chunk; returns the bytes so far when they may hold the whole message, else null. */
  push(chunk: Uint8Array): Uint8Array | null {
    this.parts.push(chunk);
    this.size += chunk.byteLength;
    if (this.expected === null) this.expected = expectedLength(this.bytes(), this.limits);
    return this.expected !== null && this.size < this.expected ? null : this.bytes();
  }

  get length(): number {
    return this.size;
  }

  /** Everything so far, as one array. */
  bytes(): Uint8Array {
    if (this.parts.length !== 1) {
      const all = new Uint8Array(this.size);
      let at = 0;
      for (const part of this.parts) {
        all.set(part, at);
        at += part.byteLength;
      }
      this.parts = [all];
    }
    return this.parts[0] as Uint8Array;
  }
}
