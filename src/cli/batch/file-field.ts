/**
 * The robots-file field of a batch answer and what follows it up to the input line's number:
 * `,"robots":"…","input":` in JSON, ` […]` in text. Made once for the run of lines that name
 * the same file.
 */
export class FileField {
  private name: string | null = null;
  private text = "";

  constructor(private readonly json: boolean) {}

  of(name: string): string {
    if (name !== this.name) {
      this.name = name;
      this.text = this.json ? `,"robots":${JSON.stringify(name)},"input":` : ` [${name}]`;
    }
    return this.text;
  }
}
