import { LineBytes } from "../line-bytes.js";
import type { PieceSlab } from "./piece-slab.js";

// Robots whose heads are kept: a batch asks as a few robots, and a bound keeps memory flat.
const AGENTS_KEPT = 1024;

/**
 * The start of a quick `--batch` answer line, up to its URL: `{"allowed":true,"agent":"…","url":"`
 * in JSON, `allowed ` in text. Made once per robot name, which the quick path has checked
 * needs no JSON escape.
 */
export class AnswerHeads {
  private readonly byAgent = new Map<string, readonly [Uint8Array, Uint8Array]>();
  private readonly scratch = new LineBytes(256);
  private readonly text: readonly [Uint8Array, Uint8Array];

  constructor(
    private readonly json: boolean,
    private readonly slab: PieceSlab,
  ) {
    this.text = [this.piece("allowed "), this.piece("disallowed ")];
  }

  of(agent: string, allowed: boolean): Uint8Array {
    if (!this.json) return this.text[allowed ? 0 : 1];
    let heads = this.byAgent.get(agent);
    if (heads === undefined) {
      if (this.byAgent.size >= AGENTS_KEPT) this.byAgent.clear();
      heads = [
        this.piece(`{"allowed":true,"agent":"${agent}","url":"`),
        this.piece(`{"allowed":false,"agent":"${agent}","url":"`),
      ];
      this.byAgent.set(agent, heads);
    }
    return heads[allowed ? 0 : 1];
  }

  private piece(text: string): Uint8Array {
    this.scratch.text(text);
    const piece = this.slab.copyOf(this.scratch.view());
    this.scratch.clear();
    return piece;
  }
}
