/**
 * What a site's rules say about one URL for the crawler: allowed with the plan to follow, or
 * refused — for now (a closed time window, an unreachable robots.txt) or for this crawl.
 */
import type { AccessPlan, Robot } from "../protocol/robots/index.js";
import { EMPTY_PLAN } from "../protocol/robots/plan.js";
import type { SiteView } from "./site-rules.js";

export interface Allowed {
  readonly allowed: true;
  readonly plan: AccessPlan;
  /** The deciding line, for the log and the WARC metadata. */
  readonly rule: string | null;
}

export interface Refused {
  readonly allowed: false;
  readonly why: string;
  /** When to come back, for a refusal that is "not now"; null for "never, in this crawl". */
  readonly retryAt: number | null;
  readonly plan: AccessPlan;
}

export type Verdict = Allowed | Refused;

export function decide(view: SiteView, url: string, robot: Robot): Verdict {
  switch (view.kind) {
    case "open":
      return { allowed: true, plan: EMPTY_PLAN, rule: view.detail };
    case "closed":
      return {
        allowed: false,
        why: view.detail,
        retryAt: view.forbidden ? null : view.retryAt,
        plan: EMPTY_PLAN,
      };
    case "rules": {
      const d = view.policy.check(url, robot);
      const plan = d.plan ?? EMPTY_PLAN;
      const why = d.rule === null ? (d.detail ?? d.basis ?? d.reason) : `line ${d.line}: ${d.rule}`;
      if (d.allowed) return { allowed: true, plan, rule: why };
      // A closed time window is "not now"; every other refusal is "never, in this crawl".
      const retryAt = d.reason === "time" ? (d.next ?? null) : null;
      return { allowed: false, why: `${d.reason}: ${why}`, retryAt, plan };
    }
  }
}
