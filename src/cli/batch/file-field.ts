import { LineBytes } from "../line-bytes.js";

/**
 * The robots-file field of a batch answer, `,"robots":"…"` in JSON and ` […]` in text, encoded
 * once for the run of lines that name the same file.
 */
export class FileField {
  private name: string | null = null;
  private bytes: Uint8Array = new Uint8Array(0);
  private readonly scratch = new LineBytes(1024);

  constructor(private readonly json: boolean) {}

  of(name: string): Uint8Array {
    if (name !== this.name) {
      if (this.json) {
        this.scratch.text(',"robots":');
        this.scratch.json(name);
      } else {
        this.scratch.text(` [${name}]`);
      }
      this.name = name;
      this.bytes = this.scratch.takeCopy();
    }
    return this.bytes;
  }
}
