import { MAX_BODY_BYTES, MAX_HEAD_BYTES } from "./limits.js";
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
    // A declared body over the limit is read now, so that the reader refuses it at once
    // instead of after the whole body has been buffered.
    const most =
      (this.limits.maxBodyBytes ?? MAX_BODY_BYTES) +
      (this.limits.maxHeadBytes ?? MAX_HEAD_BYTES) +
      4;
    if (this.expected !== null && this.expected > most) return this.bytes();
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
