/**
 * Usage preference lines: Content-Usage (draft-ietf-aipref-attach-05 §3) and Content-Signal
 * (Cloudflare's Content Signals, draft-romm-aipref-contentsignals-00). Their syntax, their
 * vocabulary, their place in a group, and the two forms disagreeing in one file.
 * docs/usage-preferences.md explains each finding.
 */
import { FORMER_LABELS, MAX_USAGE_LINES, type UsageRule } from "../../usage/index.js";
import { splitRuleValue } from "../../usage/content-usage.js";
import { usageForm, usageRule } from "../../usage/robots-usage.js";
import { parseDictionary } from "../../usage/structured-dictionary.js";
import { CATEGORIES } from "../../usage/vocabulary.js";
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
 * Content-Usage and Content-Signal lines of one group with the same path (or both without one)
 * that state opposite preferences for one category. Robots that read both combine them and the
 * restrictive one wins (draft-ietf-aipref-vocab-07 §5.1), so the permissive one does nothing.
 */
function checkConflicts(ctx: LintContext, rules: ReadonlyMap<number, UsageRule>): void {
  const reported = new Set<string>();
  for (const group of ctx.policy.groups) {
    const own = group.extensions.flatMap((l) => {
      const rule = rules.get(l.number);
      return rule === undefined ? [] : [rule];
    });
    for (let i = 0; i < own.length; i++) {
      for (let j = i + 1; j < own.length; j++) {
        const a = own[i] as UsageRule;
        const b = own[j] as UsageRule;
        if (a.form === b.form) continue;
        if ((a.pattern?.canonical ?? null) !== (b.pattern?.canonical ?? null)) {
          checkShadowed(ctx, a, b, reported);
          checkShadowed(ctx, b, a, reported);
          continue;
        }
        for (const category of CATEGORIES) {
          const va = a.reading.statement.preferences[category];
          const vb = b.reading.statement.preferences[category];
          if (va === undefined || vb === undefined || va === vb) continue;
          const later = a.line > b.line ? a : b;
          const earlier = later === a ? b : a;
          const key = `${earlier.line}:${later.line}:${category}`;
          if (reported.has(key)) continue;
          reported.add(key);
          ctx.add(
            later.line,
            "warning",
            "usage-conflict",
            `${KEY_NAME[later.form]} and the ${KEY_NAME[earlier.form]} of line ${earlier.line} disagree on ${category} for ${earlier.path ?? "every path"}: robots that read both take the restrictive one (disallowed)`,
          );
        }
      }
    }
  }
}

/**
 * `narrow` allows a category for its path, and `broad` (the other form, for every path or a
 * path that contains `narrow`'s) disallows it. Each form is settled by its own longest match,
 * then the two combine to the restrictive value, so the allowance never takes effect.
 */
function checkShadowed(
  ctx: LintContext,
  narrow: UsageRule,
  broad: UsageRule,
  reported: Set<string>,
): void {
  if (narrow.pattern === null) return;
  const inside =
    broad.pattern === null ||
    (broad.specificity < narrow.specificity &&
      broad.pattern.matches(narrow.pattern.canonical.replace(/\$$/, "")));
  if (!inside) return;
  for (const category of CATEGORIES) {
    if (narrow.reading.statement.preferences[category] !== "allowed") continue;
    if (broad.reading.statement.preferences[category] !== "disallowed") continue;
    const key = `${broad.line}:${narrow.line}:${category}`;
    if (reported.has(key)) continue;
    reported.add(key);
    ctx.add(
      narrow.line,
      "warning",
      "usage-conflict",
      `${KEY_NAME[narrow.form]} allows ${category} for ${narrow.path}, but the ${KEY_NAME[broad.form]} of line ${broad.line} disallows it for ${broad.path ?? "every path"}: robots that read both take the restrictive one, so ${narrow.path} stays disallowed`,
    );
  }
}
