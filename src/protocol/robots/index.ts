export {
  BASIS_TEXT,
  type Decision,
  type DecisionReason,
  type DefaultBasis,
  type GroupSummary,
  siteWideDecision,
} from "./decision.js";
export type { Diagnostic, Severity } from "./diagnostic.js";
export { HTML_START, htmlPageLine } from "./html-page.js";
export { chooseDialect, DIALECTS, type Dialect, type DialectChoice } from "./dialect.js";
export {
  type CacheHeaders,
  cacheLifetime,
  type FetchAnswer,
  type FetchVerdict,
  MAX_CACHE_MS,
  MAX_ROBOTS_REDIRECTS,
  retryDelay,
  robotsFetchVerdict,
  type UnreachableRule,
  unreachableRule,
} from "./fetch-rules.js";
export { type AgentLine, type Group, Rule, type Sitemap } from "./groups.js";
export { CANONICAL_KEYS, type KeyedKind, type LineKind } from "./keys.js";
export { MAX_LINE_LENGTH, MAX_ROBOTS_BYTES } from "./limits.js";
export {
  type CommentStyle,
  type ReadOptions,
  type RobotsLine,
  type RobotsText,
  readRobotsText,
} from "./line-reader.js";
export {
  type LintFinding,
  type LintOptions,
  type LintReport,
  lintFetchVerdict,
  lintPolicy,
  lintRobots,
} from "./lint.js";
export { isRobotsSitemap } from "./lint/lines.js";
export { PathPattern, type PatternOptions } from "./path-pattern.js";
export { canonicalize } from "./percent-encoding.js";
export { type ParseOptions, parseRobots, type Robot, RobotsPolicy } from "./policy.js";
export type { Selection } from "./selection.js";
export { productToken } from "./product-token.js";
export { type RequestPath, requestPath } from "./request-path.js";
export {
  type AccessPlan,
  type ChangeFrequency,
  EMPTY_PLAN,
  type FromLine,
  type RateWindow,
  type TimeRule,
} from "./plan.js";
export { buildRegp, regp, RegpBuildError } from "./regp/builder.js";
export { type RegpDocument, readRegpDocument } from "./regp/document.js";
export * from "./mobile-agent/index.js";
export { linkLicenses, MAX_LICENSES, type NamedLicense, robotsLicenses } from "./license.js";
