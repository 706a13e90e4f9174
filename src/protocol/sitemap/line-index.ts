/**
 * Line numbers for character offsets of a text that arrives in chunks, in constant memory: only
 * the current and the previous chunk are kept, and newlines are counted once, moving forward.
 * Offsets are those of the tokenizer (UTF-16 code units from the start of the text).
 */
export class LineIndex {
  private current = "";
  private currentStart = 0;
  private currentLine = 1;
  private previous = "";
  private previousStart = 0;
  private previousLine = 1;
  // Newlines are counted up to `scanned`, which has line number `scanLine`.
  private scanned = 0;
  private scanLine = 1;

  push(chunk: string): void {
    const endLine = this.lineAt(this.currentStart + this.current.length);
    this.previous = this.current;
    this.previousStart = this.currentStart;
    this.previousLine = this.currentLine;
    this.currentStart += this.current.length;
    this.current = chunk;
    this.currentLine = endLine;
    this.scanned = this.currentStart;
    this.scanLine = endLine;
  }

  /**
   * Counts `n` newlines that the tokenizer does not see (text the fast path read): offsets from
   * here on are on lines `n` further down.
   */
  addLines(n: number): void {
    this.push("");
    this.currentLine += n;
    this.scanLine += n;
  }

  /** The 1-based line of the character at `offset`. */
  lineAt(offset: number): number {
    if (offset >= this.currentStart) {
      if (offset < this.scanned) {
        this.scanned = this.currentStart;
        this.scanLine = this.currentLine;
      }
      const text = this.current;
      const end = Math.min(offset, this.currentStart + text.length) - this.currentStart;
      let i = this.scanned - this.currentStart;
      let line = this.scanLine;
      for (;;) {
        const nl = text.indexOf("\n", i);
        if (nl < 0 || nl >= end) break;
        line++;
        i = nl + 1;
      }
      this.scanned = this.currentStart + end;
      this.scanLine = line;
      return line;
    }
    if (offset >= this.previousStart) {
      let line = this.previousLine;
      const end = offset - this.previousStart;
      let i = 0;
      for (;;) {
        const nl = this.previous.indexOf("\n", i);
        if (nl < 0 || nl >= end) break;
        line++;
        i = nl + 1;
      }
      return line;
    }
    // Older than two chunks: the tokenizer does not look back that far; the nearest known line.
    return this.previousLine;
  }
}
