/**
 * Usage preferences: what content may be used for once fetched (search, AI training, AI
 * input), in every form sites write them. Pure: text in, values out. docs/usage-preferences.md
 * describes the forms, heed's reading of each and how they combine.
 */
import type { RobotsPolicy } from "../robots/policy.js";
import { productToken } from "../robots/product-token.js";
import {
  combineStatements,
  type ResponseInputs,
  responseStatements,
  type UsageAnswer,
} from "./combine.js";
import { robotsStatements } from "./robots-usage.js";

export {
  type CategoryAnswer,
  combineStatements,
  limitDiagnostics,
  limitWarnings,
  MAX_UNKNOWN_SHOWN,
  mayUse,
  type ResponseInputs,
  responseStatements,
  sourcePlace,
  type UsageAnswer,
  usageJson,
  type VerdictOptions,
} from "./combine.js";
export { readContentSignal } from "./content-signal.js";
export {
  readContentUsage,
  type RuleValue,
  splitRuleValue,
  type StatementReading,
} from "./content-usage.js";
export * from "./limits.js";
export { type NoAiFlags, noAiStatement, readNoAi, readNoAiValue } from "./noai.js";
export {
  hasUsageLines,
  robotsStatements,
  type UsageRule,
  usageForm,
  usageLines,
  usageRule,
} from "./robots-usage.js";
export {
  type DictionaryMember,
  type DictionaryParse,
  type ItemType,
  parseDictionary,
} from "./structured-dictionary.js";
export {
  readTdmRepJson,
  type TdmAnswer,
  tdmAnswer,
  type TdmInputs,
  type TdmRepFile,
  type TdmRule,
  tdmRuleFor,
  tdmStatement,
} from "./tdmrep.js";
export {
  AIPREF_LABELS,
  CATEGORIES,
  type Category,
  FORMER_LABELS,
  type Preference,
  readPurpose,
  type Statement,
  type UsageDiagnostic,
  type UsageForm,
  type UsagePlace,
  type UsageSource,
  type UsageValue,
} from "./vocabulary.js";

export interface UsageQuery {
  readonly url: string;
  /** The robot's name (token or User-Agent header). */
  readonly agent: string;
  /** The site's robots.txt, when there is one. */
  readonly robots?: RobotsPolicy | null;
  /**
   * Whether robots.txt lets the robot crawl `url`: robots.txt preferences apply only then
   * (draft-ietf-aipref-attach-05 §3.1). Default: asked of `robots`.
   */
  readonly crawlable?: boolean;
  /** What the response said, when the URL was fetched. */
  readonly response?: Omit<ResponseInputs, "url" | "agent">;
}

/** Every preference that applies to `url` for the robot, combined (combine.ts). */
export function usageFor(query: UsageQuery): UsageAnswer {
  const robots = query.robots ?? null;
  const crawlable =
    query.crawlable ?? (robots === null ? true : robots.check(query.url, query.agent).allowed);
  const fromRobots =
    robots !== null && crawlable ? robotsStatements(robots, query.url, query.agent) : [];
  const token = productToken(query.agent).toLowerCase();
  const fromResponse =
    query.response === undefined
      ? []
      : responseStatements({ ...query.response, url: query.url, agent: token });
  return combineStatements([...fromRobots, ...fromResponse]);
}
