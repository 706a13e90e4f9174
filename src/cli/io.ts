/** Output with back-pressure: millions of lines stream out without piling up in memory. */
import type { Writable } from "node:stream";

const FLUSH_AT = 64 * 1024;

export class LineWriter {
  private buffer = "";
  constructor(
    private readonly out: Writable,
    private readonly flushAt: number = FLUSH_AT,
  ) {}

  async line(text: string): Promise<void> {
    this.add(text);
    await this.ready();
  }

  /** Adds a line without waiting; call {@link ready} often enough to keep memory bounded. */
  add(text: string): void {
    this.buffer += `${text}\n`;
  }

  /** The buffer is large enough to write out. */
  get full(): boolean {
    return this.buffer.length >= this.flushAt;
  }

  /** Writes the buffer out once it is large, waiting for the stream to drain if it must. */
  async ready(): Promise<void> {
    if (this.buffer.length >= this.flushAt) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer === "") return;
    const chunk = this.buffer;
    this.buffer = "";
    if (!this.out.write(chunk))
      await new Promise<void>((resolve) => this.out.once("drain", resolve));
  }
}

/** What a command needs from the process; tests give their own. */
export interface Io {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdin: NodeJS.ReadableStream;
  readonly cwd: string;
}
