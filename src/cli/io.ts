/** Output with back-pressure: millions of lines stream out without piling up in memory. */
import type { Writable } from "node:stream";

const FLUSH_AT = 64 * 1024;

export class LineWriter {
  private buffer = "";
  constructor(private readonly out: Writable) {}

  async line(text: string): Promise<void> {
    this.buffer += `${text}\n`;
    if (this.buffer.length >= FLUSH_AT) await this.flush();
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
