// Robots whose heads are kept, and their bytes: a batch asks as a few robots, and the bounds
// keep memory flat when it asks as thousands, or with names of tens of kilobytes.
const AGENTS_KEPT = 1024;
const HEAD_BYTES_KEPT = 4 * 1024 * 1024;

/**
 * The start of a quick `--batch` answer line, up to its URL: `{"allowed":true,"agent":"…","url":"`
 * in JSON, `allowed ` in text. Made once per robot name, which the quick path has checked
 * needs no JSON escape. Each head is memory of its own: heads outlive the files, and a piece
 * of a shared slab would keep the whole slab.
 */
export class AnswerHeads {
  private readonly byAgent = new Map<string, readonly [Uint8Array, Uint8Array]>();
  private bytes = 0;
  private readonly text: readonly [Uint8Array, Uint8Array] = [
    Buffer.from("allowed "),
    Buffer.from("disallowed "),
  ];

  constructor(private readonly json: boolean) {}

  of(agent: string, allowed: boolean): Uint8Array {
    if (!this.json) return this.text[allowed ? 0 : 1];
    let heads = this.byAgent.get(agent);
    if (heads === undefined) {
      if (this.byAgent.size >= AGENTS_KEPT || this.bytes >= HEAD_BYTES_KEPT) {
        this.byAgent.clear();
        this.bytes = 0;
      }
      heads = [
        Buffer.from(`{"allowed":true,"agent":"${agent}","url":"`, "latin1"),
        Buffer.from(`{"allowed":false,"agent":"${agent}","url":"`, "latin1"),
      ];
      this.bytes += heads[0].length + heads[1].length;
      this.byAgent.set(agent, heads);
    }
    return heads[allowed ? 0 : 1];
  }

  /** The bytes of the heads kept now. */
  get keptBytes(): number {
    return this.bytes;
  }
}
