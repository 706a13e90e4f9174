/** Output with back-pressure: millions of lines stream out without piling up in memory. */
import type { Writable } from "node:stream";

const FLUSH_AT = 64 * 1024;
// Room past the flush mark, so that a line added to a nearly full buffer rarely makes it grow.
const SLACK = 64 * 1024;

export class LineWriter {
  // Lines are written into bytes as they come: no large string is built, flattened and dropped.
  private bytes: Buffer;
  private used = 0;
  constructor(
    private readonly out: Writable,
    private readonly flushAt: number = FLUSH_AT,
  ) {
    this.bytes = Buffer.allocUnsafe(flushAt + SLACK);
  }

  async line(text: string): Promise<void> {
    this.add(text);
    await this.ready();
  }

  /** Adds a line without waiting; call {@link ready} often enough to keep memory bounded. */
  add(text: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8; a line that might not fit gets room first.
    const room = text.length * 3 + 1;
    if (this.used + room > this.bytes.length) this.grow(room);
    this.used += this.bytes.write(text, this.used, "utf8");
    this.bytes[this.used++] = 0x0a;
  }

  /**
   * Adds lines already encoded (each ending in `\n`), which the writer may keep as they are:
   * the caller must not change them afterwards. Call {@link ready} as after {@link add}.
   * `written`, if given, is called once the bytes are no longer needed, when that is known:
   * the caller may then write into that memory again.
   */
  async addBytes(bytes: Uint8Array, written?: () => void): Promise<void> {
    if (bytes.length < this.flushAt / 4) {
      if (this.used + bytes.length > this.bytes.length) this.grow(bytes.length);
      this.bytes.set(bytes, this.used);
      this.used += bytes.length;
      written?.();
      return;
    }
    // A large piece goes out as it is, after what was already waiting: no copy.
    await this.flush();
    // As in flush: a reader gone away must not leave the command waiting for "drain".
    if (this.out.destroyed) return;
    // A stream on a file descriptor is done with the bytes when it calls back: the system has
    // them. Another stream may still hold them (a PassThrough hands them on as they are).
    const done =
      written === undefined || !onDescriptor(this.out)
        ? undefined
        : (error?: Error | null) => {
            if (error === undefined || error === null) written();
          };
    if (!this.out.write(bytes, done)) await drained(this.out);
    // A stream calls back on a later turn of the event loop, even when it wrote at once:
    // give it that turn, or a caller that never waits on I/O gets its memory back only at
    // the end.
    else if (done !== undefined) await new Promise((resolve) => setImmediate(resolve));
  }

  /** The buffer is large enough to write out. */
  get full(): boolean {
    return this.used >= this.flushAt;
  }

  /** Writes the buffer out once it is large, waiting for the stream to drain if it must. */
  async ready(): Promise<void> {
    if (this.used >= this.flushAt) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const chunk = this.bytes.subarray(0, this.used);
    // The stream keeps the chunk until written: the next lines go to new memory.
    this.bytes = Buffer.allocUnsafe(this.flushAt + SLACK);
    this.used = 0;
    // A reader gone away (`heed … | head`): the rest is dropped, and the command still ends
    // with its own status instead of waiting for a "drain" that never comes.
    if (this.out.destroyed) return;
    if (!this.out.write(chunk)) await drained(this.out);
  }

  private grow(room: number): void {
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + room));
    this.bytes.copy(bigger, 0, 0, this.used);
    this.bytes = bigger;
  }
}

/** Resolves when the stream can take more, or when it broke or closed and never will. */
function onDescriptor(out: Writable): boolean {
  return typeof (out as { fd?: unknown }).fd === "number";
}

function drained(out: Writable): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      out.off("drain", done);
      out.off("close", done);
      out.off("error", done);
      resolve();
    };
    out.on("drain", done);
    out.on("close", done);
    out.on("error", done);
  });
}

/** What a command needs from the process; tests give their own. */
export interface Io {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdin: NodeJS.ReadableStream;
  readonly cwd: string;
  /**
   * Given only when the command is a process of its own (`heed`): lowers the priority of the
   * process's helper threads (helper-threads.ts), which a command run inside another program
   * must leave alone.
   */
  readonly lowerHelperThreads?: () => void;
}
