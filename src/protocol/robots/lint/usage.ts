/**
 * Usage preference lines: Content-Usage (draft-ietf-aipref-attach-05 §3) and Content-Signal
 * (Cloudflare's Content Signals, draft-romm-aipref-contentsignals-00). Their syntax, their
 * vocabulary, their place in a group, and the two forms disagreeing in one file.
 * docs/usage-preferences.md explains each finding.
 */
import { FORMER_LABELS, MAX_USAGE_LINES, type UsageRule } from "../../usage/index.js";
import { splitRuleValue } from "../../usage/content-usage.js";
import { applyingRules, usageForm, usageRule, usageRulesFor } from "../../usage/robots-usage.js";
import { parseDictionary } from "../../usage/structured-dictionary.js";
import { CATEGORIES } from "../../usage/vocabulary.js";
import type { Group } from "../groups.js";
import type { RobotsLine } from "../line-reader.js";
import { type LintContext, quote } from "./finding.js";

const KEY_NAME = { "content-usage": "Content-Usage", "content-signal": "Content-Signal" } as const;

export function lintUsage(ctx: LintContext): void {
  const { policy } = ctx;
  const lines = policy.text.lines.filter((l) => usageForm(l) !== null);
  if (lines.length === 0) return;
  if (ctx.dialect === "regp") {
    ctx.add(
      lines[0]?.number ?? null,
      "info",
      "usage-regp",
      "Content-Usage and Content-Signal extend RFC 9309 groups; under REGP heed does not read them (docs/usage-preferences.md)",
    );
    return;
  }
  if (lines.length > MAX_USAGE_LINES) {
    ctx.add(
      lines[MAX_USAGE_LINES]?.number ?? null,
      "warning",
      "usage-too-many",
      `more than ${MAX_USAGE_LINES} Content-Usage and Content-Signal lines; heed reads the first ${MAX_USAGE_LINES}`,
    );
  }
  const inGroup = new Set<number>();
  for (const group of policy.groups) for (const l of group.extensions) inGroup.add(l.number);
  const rules = new Map<number, UsageRule>();
  for (const line of lines.slice(0, MAX_USAGE_LINES)) {
    const rule = usageRule(line, policy);
    if (rule === null) continue;
    rules.set(line.number, rule);
    checkLine(ctx, line, rule, inGroup.has(line.number));
  }
  checkConflicts(ctx, rules);
}

function checkLine(ctx: LintContext, line: RobotsLine, rule: UsageRule, inGroup: boolean): void {
  const name = KEY_NAME[rule.form];
  if (!inGroup) {
    ctx.add(
      line.number,
      "warning",
      "usage-outside-group",
      `${name} comes before any User-agent line: it belongs to no group and applies to no robot; put it in a group (User-agent: * for all)`,
    );
  }
  for (const d of rule.reading.diagnostics) {
    ctx.add(line.number, d.severity, d.code, `${name}: ${d.message}${hint(rule, d.code)}`);
  }
  if (rule.form === "content-usage") {
    for (const u of rule.reading.statement.unknown) {
      const former = FORMER_LABELS.get(u.label);
      ctx.add(
        line.number,
        former === undefined ? "info" : "warning",
        "usage-unknown-category",
        former === undefined
          ? `${quote(u.label)} is not a category of the vocabulary (train-ai, search); robots ignore it`
          : `${quote(u.label)} is not a category of the vocabulary: ${former}; robots ignore it`,
      );
    }
  }
}

/** A rewrite that would parse, for a Content-Usage value that does not. */
function hint(rule: UsageRule, code: string): string {
  if (rule.form !== "content-usage" || code !== "usage-syntax") return "";
  const value = splitRuleValue(
    rule.reading.statement.source.text.replace(/^[^:]*:\s*/, ""),
  ).statement;
  const lower = value.toLowerCase();
  if (lower !== value && parseDictionary(lower).ok) return `; write ${quote(lower)}`;
  const commas = value.replace(/;\s*|\s+(?=[a-z*][a-z0-9_.*-]*=)/gi, ", ");
  if (commas !== value && parseDictionary(commas.toLowerCase()).ok)
    return `; members are separated by commas: ${quote(commas.toLowerCase())}`;
  return "";
}

/**
 * A Content-Usage and a Content-Signal line that both apply to some URL for some robot and
 * state opposite preferences for one category. Robots that read both combine them and the
 * restrictive one wins (draft-ietf-aipref-vocab-07 §5.1), so the permissive one does nothing.
 * Which lines apply is decided by the reading `heed check --purpose` uses (robots-usage.ts:
 * the robot's merged groups, then each form's longest matching path), asked at each line's own
 * path for every robot the file names: lint warns exactly where check answers "disallowed"
 * against a line that says "allowed".
 */
function checkConflicts(ctx: LintContext, read: ReadonlyMap<number, UsageRule>): void {
  const reported = new Set<string>();
  const asked = new Set<readonly UsageRule[]>();
  for (const token of namedTokens(ctx.policy.groups)) {
    const rules = usageRulesFor(ctx.policy, token);
    // Robots given the same groups get the same array: each selection is judged once.
    if (asked.has(rules)) continue;
    asked.add(rules);
    for (const rule of rules) {
      if (!read.has(rule.line)) continue;
      const here = applyingRules(rules, samplePath(rule));
      if (!here.includes(rule)) continue;
      for (const other of here) {
        if (other.form !== rule.form) reportConflict(ctx, rule, other, reported);
      }
    }
  }
}

/** Every product token a group names, `*` included: each robot the file treats apart. */
function namedTokens(groups: readonly Group[]): Set<string> {
  const tokens = new Set<string>();
  for (const group of groups) {
    if (group.extensions.length === 0) continue;
    for (const agent of group.agents) tokens.add(agent.token);
  }
  return tokens;
}

/** A path the rule's own pattern matches: its text with every `*` matching nothing. */
function samplePath(rule: UsageRule): string {
  return rule.pattern === null
    ? "/"
    : rule.pattern.canonical.replace(/\$$/, "").replaceAll("*", "");
}

/** Warns of `rule` and `other` (both applying to one path) where they disagree. */
function reportConflict(
  ctx: LintContext,
  rule: UsageRule,
  other: UsageRule,
  reported: Set<string>,
): void {
  const samePath = (rule.pattern?.canonical ?? null) === (other.pattern?.canonical ?? null);
  for (const category of CATEGORIES) {
    const mine = rule.reading.statement.preferences[category];
    const theirs = other.reading.statement.preferences[category];
    if (mine === undefined || theirs === undefined || mine === theirs) continue;
    if (samePath) {
      const later = rule.line > other.line ? rule : other;
      const earlier = later === rule ? other : rule;
      const key = `${earlier.line}:${later.line}:${category}`;
      if (reported.has(key)) continue;
      reported.add(key);
      ctx.add(
        later.line,
        "warning",
        "usage-conflict",
        `${KEY_NAME[later.form]} and the ${KEY_NAME[earlier.form]} of line ${earlier.line} disagree on ${category} for ${earlier.path ?? "every path"}: robots that read both take the restrictive one (disallowed)`,
      );
      continue;
    }
    if (mine !== "allowed") continue;
    const where = rule.path ?? "every path";
    const key = `${other.line}:${rule.line}:${category}`;
    if (reported.has(key)) continue;
    reported.add(key);
    ctx.add(
      rule.line,
      "warning",
      "usage-conflict",
      `${KEY_NAME[rule.form]} allows ${category} for ${where}, but the ${KEY_NAME[other.form]} of line ${other.line} disallows it for ${other.path ?? "every path"}: robots that read both take the restrictive one, so ${where} stays disallowed`,
    );
  }
}
