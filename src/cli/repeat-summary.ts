/**
 * Findings of one kind printed a few times, then counted: a sitemap with 120 URLs out of scope
 * gives three lines and `… and 117 more [loc-out-of-scope]`, not 120 lines of 300 characters.
 */
import type { LineWriter } from "./io.js";

/** Lines of one code printed before the rest are only counted. */
export const SHOWN_PER_CODE = 3;

export class RepeatSummary {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly out: LineWriter,
    private readonly shown = SHOWN_PER_CODE,
  ) {}

  /** Prints `line` unless `code` has been printed `shown` times already. */
  async line(code: string, line: string): Promise<void> {
    const count = (this.counts.get(code) ?? 0) + 1;
    this.counts.set(code, count);
    if (count <= this.shown) await this.out.line(line);
  }

  /** One `… and N more [code]` line for every code that was cut. */
  async finish(): Promise<void> {
    for (const [code, count] of this.counts) {
      if (count > this.shown) await this.out.line(`… and ${count - this.shown} more [${code}]`);
    }
  }
}
