import type { Decision } from "../../protocol/robots/decision.js";
import { decisionText, type Rules, writeJsonMiddle } from "../check-answer.js";
import { LineBytes } from "../line-bytes.js";

// Pieces kept for one file at most this large; past it they are written afresh.
const KEPT_BYTES = 4 * 1024 * 1024;

/**
 * The middle of a `--batch` answer line, between the URL and the robots-file field: what the
 * decision says (dialect, line, rule, reason, delay, token, group), the same for every URL of
 * one file that one robot's same line decides. Written once per file, robot and deciding line
 * into one buffer, and copied from there for the next lines decided alike. The pieces of the
 * file being answered are kept; a batch names its files in runs.
 */
export class DecisionMiddles {
  private rules: Rules | null = null;
  /** Per product token, per decision key: where the piece lies, as start * 2^32 + end. */
  private readonly byToken = new Map<string, Map<number, number>>();
  private readonly kept = new LineBytes(64 * 1024);

  constructor(private readonly json: boolean) {}

  write(out: LineBytes, rules: Rules, d: Decision): void {
    const key = keyOf(d);
    if (key === 0) {
      this.writeFresh(out, d);
      return;
    }
    if (rules !== this.rules || this.kept.length > KEPT_BYTES) {
      this.rules = rules;
      this.byToken.clear();
      this.kept.clear();
    }
    let byKey = this.byToken.get(d.agent);
    if (byKey === undefined) {
      byKey = new Map();
      this.byToken.set(d.agent, byKey);
    }
    let at = byKey.get(key);
    if (at === undefined) {
      const start = this.kept.length;
      this.writeFresh(this.kept, d);
      at = start * 2 ** 32 + this.kept.length;
      byKey.set(key, at);
    }
    out.append(this.kept, Math.floor(at / 2 ** 32), at % 2 ** 32);
  }

  private writeFresh(out: LineBytes, d: Decision): void {
    if (this.json) {
      writeJsonMiddle(out, d);
    } else {
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
