import type { Decision } from "../../protocol/robots/decision.js";
import { decisionText, type Rules, writeJsonMiddle } from "../check-answer.js";
import { LineBytes } from "../line-bytes.js";
import { FileField } from "./file-field.js";
import type { PieceSlab } from "./piece-slab.js";

// Robots whose middles are kept for one file.
const TOKENS_KEPT = 256;
// And at most this many middles in all: one robot's lines may be decided by each of the tens of
// thousands of rules a 500 KiB file holds, and 256 robots times those is gigabytes.
const MIDDLES_KEPT = 16 * 1024;

/**
 * The middle of a `--batch` answer line, from the end of the URL to the input line's number:
 * what the decision says (dialect, line, rule, reason, delay, token, group) and the robots-file
 * field, the same for every URL of one file that one robot's same line decides. Made once per
 * file, robot and deciding line, and written as bytes for the next lines decided alike. The
 * middles of the file being answered are kept; a batch names its files in runs.
 */
export class DecisionMiddles {
  private rules: Rules | null = null;
  private file = "";
  /** Per product token, per decision key. */
  private readonly byToken = new Map<string, Map<number, Uint8Array>>();
  private count = 0;
  private readonly scratch = new LineBytes(1024);
  private readonly fileField: FileField;

  constructor(
    private readonly json: boolean,
    private readonly slab: PieceSlab,
  ) {
    this.fileField = new FileField(json);
  }

  /** The middle of `d`'s line, for the robots file `file` whose rules are `rules`. */
  write(out: LineBytes, rules: Rules, file: string, d: Decision): void {
    const key = keyOf(d);
    if (key === 0) {
      this.make(out, file, d);
      return;
    }
    // A file's run of lines may name any number of robots: the middles kept are bounded.
    if (
      rules !== this.rules ||
      file !== this.file ||
      this.byToken.size >= TOKENS_KEPT ||
      this.count >= MIDDLES_KEPT
    ) {
      this.rules = rules;
      this.file = file;
      this.byToken.clear();
      this.count = 0;
    }
    let byKey = this.byToken.get(d.agent);
    if (byKey === undefined) {
      byKey = new Map();
      this.byToken.set(d.agent, byKey);
    }
    let middle = byKey.get(key);
    if (middle === undefined) {
      this.make(this.scratch, file, d);
      middle = this.slab.copyOf(this.scratch.view());
      this.scratch.clear();
      byKey.set(key, middle);
      this.count++;
    }
    out.piece(middle);
  }

  /** How many middles are kept now. */
  get kept(): number {
    return this.count;
  }

  private make(out: LineBytes, file: string, d: Decision): void {
    if (this.json) {
      out.text('"');
      writeJsonMiddle(out, d);
      out.text(this.fileField.of(file));
    } else {
      out.text(this.fileField.of(file));
      out.text(` (${decisionText(d)})`);
    }
  }
}

/**
 * What tells apart the decisions of one robot in one file that share their middle: the
 * deciding line, or which default; 0 for a decision whose middle is written afresh (an
 * error, a time window, REGP's per-URL plans).
 */
function keyOf(d: Decision): number {
  if (d.error !== undefined || d.detail !== undefined) return 0;
  if (d.dialect === "regp" || (d.next !== undefined && d.next !== null)) return 0;
  switch (d.reason) {
    case "rule":
      return d.line ?? 0;
    case "default":
      return d.basis === "no-group" ? -1 : d.basis === "no-matching-rule" ? -2 : 0;
    case "robots-txt":
      return -3;
    default:
      return 0;
  }
}
