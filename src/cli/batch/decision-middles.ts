import type { Decision } from "../../protocol/robots/decision.js";
import { decisionText, type Rules, writeJsonMiddle } from "../check-answer.js";
import { LineBytes } from "../line-bytes.js";

// Robots whose middles are kept for one file.
const TOKENS_KEPT = 256;
// And at most this many middles in all: one robot's lines may be decided by each of the tens of
// thousands of rules a 500 KiB file holds, and 256 robots times those is gigabytes.
const MIDDLES_KEPT = 16 * 1024;

/**
 * The middle of a `--batch` answer line, from the end of the URL to the robots-file field:
 * what the decision says (dialect, line, rule, reason, delay, token, group), the same for every
 * URL of one file that one robot's same line decides. Made once per file, robot and deciding
 * line, and written as it is for the next lines decided alike. The middles of the file being
 * answered are kept; a batch names its files in runs.
 */
export class DecisionMiddles {
  private rules: Rules | null = null;
  /** Per product token, per decision key. */
  private readonly byToken = new Map<string, Map<number, string>>();
  private count = 0;
  private readonly scratch = new LineBytes(1024);

  constructor(private readonly json: boolean) {}

  write(out: LineBytes, rules: Rules, d: Decision): void {
    const key = keyOf(d);
    if (key === 0) {
      out.text(this.make(d));
      return;
    }
    // A file's run of lines may name any number of robots: the middles kept are bounded.
    if (rules !== this.rules || this.byToken.size >= TOKENS_KEPT || this.count >= MIDDLES_KEPT) {
      this.rules = rules;
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
      middle = this.make(d);
      byKey.set(key, middle);
      this.count++;
    }
    out.text(middle);
  }

  /** How many middles are kept now. */
  get kept(): number {
    return this.count;
  }

  private make(d: Decision): string {
    if (!this.json) return ` (${decisionText(d)})`;
    this.scratch.text('"');
    writeJsonMiddle(this.scratch, d);
    return this.scratch.takeText();
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
