/**
 * Content-Usage and Content-Signal lines of a robots.txt, read from the policy's groups.
 *
 * The tokenizer hands these lines on as extensions (robots/scan.ts reads them like any other
 * key it does not interpret, and each group keeps its own); nothing here runs while a file is
 * parsed. A line's value is read the first time a query needs it, then kept.
 *
 * draft-ietf-aipref-attach-05 §3: a Content-Usage rule belongs to a group and applies to the
 * robots the group applies to; among the rules of the chosen group(s) whose path matches, the
 * longest path decides, as for Allow and Disallow (RFC 9309 §2.2.2); rules with paths of the
 * same length all apply and are combined as vocab-07 §5.1 says (the most restrictive wins); a
 * rule with no path matches every path, with length 0. Preferences apply only to URLs the
 * robot may crawl. The order of rules in a group carries no meaning. Content-Signal lines are
 * read the same way (heed's reading; content-signal.ts).
 */
import type { RobotsLine } from "../robots/line-reader.js";
import { characterMask, PathPattern } from "../robots/path-pattern.js";
import type { RobotsPolicy } from "../robots/policy.js";
import { productToken } from "../robots/product-token.js";
import { MAX_LINE_LENGTH } from "../robots/limits.js";
import { requestPath } from "../robots/request-path.js";
import { readContentSignal } from "./content-signal.js";
import { readContentUsage, type StatementReading, splitRuleValue } from "./content-usage.js";
import { MAX_USAGE_LINES } from "./limits.js";
import { type Statement, shortText, type UsageForm } from "./vocabulary.js";

/** A Content-Usage or Content-Signal line, read. */
export interface UsageRule {
  readonly form: Extract<UsageForm, "content-usage" | "content-signal">;
  readonly line: number;
  /** The path as written, or null when the rule has none. */
  readonly path: string | null;
  readonly pattern: PathPattern | null;
  /** Length of the path in octets (RFC 9309 §2.2.2); 0 with no path. */
  readonly specificity: number;
  readonly reading: StatementReading;
}

/** The key of a line that carries usage preferences, or null. */
export function usageForm(line: RobotsLine): UsageRule["form"] | null {
  if (line.kind !== "extension") return null;
  const key = line.key.toLowerCase();
  return key === "content-usage"
    ? "content-usage"
    : key === "content-signal"
      ? "content-signal"
      : null;
}

const rulesOfLine = new WeakMap<RobotsLine, UsageRule>();
const linesOfPolicy = new WeakMap<RobotsPolicy, ReadonlySet<RobotsLine>>();

/** The usage lines of a file that are read: the first {@link MAX_USAGE_LINES}. */
export function usageLines(policy: RobotsPolicy): ReadonlySet<RobotsLine> {
  let lines = linesOfPolicy.get(policy);
  if (lines === undefined) {
    const kept = new Set<RobotsLine>();
    for (const line of policy.extensions) {
      if (usageForm(line) === null) continue;
      if (kept.size >= MAX_USAGE_LINES) break;
      kept.add(line);
    }
    lines = kept;
    linesOfPolicy.set(policy, lines);
  }
  return lines;
}

/** Does the file say anything about usage at all? Cheap after the first call. */
export function hasUsageLines(policy: RobotsPolicy): boolean {
  return usageLines(policy).size > 0;
}

/** Reads one usage line (once; later calls return the same value). */
export function usageRule(line: RobotsLine, policy: RobotsPolicy): UsageRule | null {
  const form = usageForm(line);
  if (form === null) return null;
  let rule = rulesOfLine.get(line);
  if (rule === undefined) {
    const { path, statement } = splitRuleValue(line.value);
    const source = {
      form,
      place: "robots.txt" as const,
      line: line.number,
      name: form,
      text: shortText(line.text),
    };
    const reading = line.truncated
      ? cutLine(source)
      : form === "content-usage"
        ? readContentUsage(statement, source)
        : readContentSignal(statement, source);
    const options = { wildcards: policy.dialect !== "koster1996" };
    const pattern = path === null || path === "" ? null : new PathPattern(path, options);
    rule = {
      form,
      line: line.number,
      path,
      pattern,
      specificity: pattern === null ? 0 : pattern.specificity,
      reading,
    };
    rulesOfLine.set(line, rule);
  }
  return rule;
}

/**
 * A line the line reader cut at {@link MAX_LINE_LENGTH}: what is left of its statement may be
 * part of one (`train-ai=n` of `train-ai=n-…`), so none of it is read, and the warning says the
 * line is over the limit: its real length was never read.
 */
function cutLine(source: Statement["source"]): StatementReading {
  return {
    statement: { source, preferences: {}, unknown: [] },
    diagnostics: [
      {
        severity: "warning",
        code: "usage-too-long",
        message: `the line is over ${MAX_LINE_LENGTH} characters and was cut there, so its statement is not read and every preference is unknown`,
        limit: MAX_LINE_LENGTH,
      },
    ],
  };
}

// The usage rules of a selection (the groups chosen for one robot), read once per selection.
const rulesOfSelection = new WeakMap<object, readonly UsageRule[]>();

/**
 * The usage rules of the groups that apply to the robot (RFC 9309 §2.2.1, or Koster 1996's
 * first record), longest path first. Robots that get the same groups get the same array.
 */
export function usageRulesFor(policy: RobotsPolicy, agent: string): readonly UsageRule[] {
  const selection = policy.select(productToken(agent));
  let rules = rulesOfSelection.get(selection);
  if (rules === undefined) {
    const kept = usageLines(policy);
    const list: UsageRule[] = [];
    for (const group of selection.groups) {
      for (const line of group.extensions) {
        if (!kept.has(line)) continue;
        const rule = usageRule(line, policy);
        if (rule !== null) list.push(rule);
      }
    }
    // Longest path first: a query stops below the first length that matched.
    rules = list.sort((a, b) => b.specificity - a.specificity);
    rulesOfSelection.set(selection, rules);
  }
  return rules;
}

/**
 * The rules of `rules` (longest path first, as {@link usageRulesFor} gives them) that apply to
 * `path`: for each form, every rule of the longest matching path, in file order. This is the
 * one reading of the lines: `heed check --purpose` answers from it and `heed lint` judges
 * conflicts by it, so the two cannot disagree.
 */
export function applyingRules(rules: readonly UsageRule[], path: string): UsageRule[] {
  const best: Record<UsageRule["form"], UsageRule[]> = {
    "content-usage": [],
    "content-signal": [],
  };
  const have = characterMask(path);
  for (const rule of rules) {
    const list = best[rule.form];
    const top = list[0];
    // Rules come longest first: once a form has matched, shorter rules of it cannot apply.
    if (top !== undefined && rule.specificity < top.specificity) continue;
    const pattern = rule.pattern;
    // A character the pattern needs is missing from the path: no match (policy.ts does the same).
    if (pattern !== null && ((pattern.mask & ~have) !== 0 || !pattern.matches(path))) continue;
    list.push(rule);
  }
  return [...best["content-usage"], ...best["content-signal"]].sort((a, b) => a.line - b.line);
}

/**
 * The statements of the file's usage lines that apply to `url` for `agent`: for each form,
 * every rule of the longest matching path. Under REGP there are none (REGP has no such lines).
 */
export function robotsStatements(
  policy: RobotsPolicy,
  url: string,
  agent: string,
): readonly StatementReading[] {
  if (policy.regp !== null || !hasUsageLines(policy)) return [];
  const path = requestPath(url);
  if (!path.ok) return [];
  return applyingRules(usageRulesFor(policy, agent), path.path).map((rule) => rule.reading);
}
