/** The last file parsed and what it was parsed with: the same inputs again are not parsed again. */
import {
  type DialectChoice,
  type FetchVerdict,
  parseRobots,
  type RobotsPolicy,
} from "../../protocol/robots/index.js";

export interface ParseInputs {
  readonly text: string;
  readonly dialect: DialectChoice;
  readonly origin: string | null;
  readonly verdict: FetchVerdict | null;
}

export class ParseCache {
  private last: { key: string; policy: RobotsPolicy } | null = null;

  /** The policy for `inputs`, and whether it was parsed now (`fresh`) or kept. */
  parse(inputs: ParseInputs): { policy: RobotsPolicy; fresh: boolean } {
    const { text, dialect, origin } = inputs;
    // The verdict as JSON: a worker's message brings a copy of its own each time.
    const key = JSON.stringify([dialect, origin, inputs.verdict, text]);
    if (this.last?.key === key) return { policy: this.last.policy, fresh: false };
    const policy = parseRobots(text, { dialect, ...(origin === null ? {} : { origin }) });
    this.last = { key, policy };
    return { policy, fresh: true };
  }
}
