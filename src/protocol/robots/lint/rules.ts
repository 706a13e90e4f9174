/**
 * Rules that never decide. Every dialect tries a robot's rules in some order and the first
 * that matches decides: Koster 1996 in file order (seeds/004 §3.2.2), RFC 9309 longest first
 * with Allow before Disallow on a tie (§2.2.2), REGP last line first (seeds/003 §3.2.5). A
 * rule never decides when a rule tried before it matches every path it matches.
 *
 * "Matches every path it matches" is decided on a normal form of the canonical pattern, and
 * only where it is certain: equal normal forms, or an earlier plain prefix (no `*`, no `$`)
 * of the later pattern's literal head. Candidates are found with a trie over the plain
 * patterns, so a file of thousands of rules is checked in time linear in its size.
 */
import type { Dialect } from "../dialect.js";
import type { Group, Rule } from "../groups.js";
import { type LintContext, quote } from "./finding.js";
import type { GroupSpan } from "./groups.js";

/** What the check needs of a rule: classic {@link Rule}s and compiled REGP path lines alike. */
export interface RuleLike {
  readonly allow: boolean;
  readonly line: number;
  /** The line as written, comment removed. */
  readonly text: string;
  readonly pattern: { readonly canonical: string };
}

interface Shape<R extends RuleLike = RuleLike> {
  readonly rule: R;
  /** The canonical pattern with `**` collapsed, and a trailing `*` or `*$` dropped. */
  readonly normal: string;
  /** No `*` and no final `$`: the pattern is a plain prefix. */
  readonly plain: boolean;
  /** What every matching path starts with: the normal form up to its first `*` or final `$`. */
  readonly head: string;
}

function shape<R extends RuleLike>(rule: R, wildcards: boolean): Shape<R> {
  const canonical = rule.pattern.canonical;
  if (!wildcards) return { rule, normal: canonical, plain: true, head: canonical };
  let normal = canonical.replace(/\*{2,}/g, "*");
  for (;;) {
    if (normal.endsWith("*$")) normal = normal.slice(0, -2);
    else if (normal.endsWith("*")) normal = normal.slice(0, -1);
    else break;
  }
  // Every path starts with "/": `*` and `/*` match all, as `/` does.
  if (normal === "") normal = "/";
  const star = normal.indexOf("*");
  const anchored = normal.endsWith("$");
  const plain = star < 0 && !anchored;
  const head = star >= 0 ? normal.slice(0, star) : anchored ? normal.slice(0, -1) : normal;
  return { rule, normal, plain, head };
}

interface TrieNode<R extends RuleLike> {
  rule: Shape<R> | null;
  readonly next: Map<number, TrieNode<R>>;
}

/**
 * For rules in the order they are tried: each rule that never decides, with the first-tried
 * rule that takes every path from it.
 */
export function deadRules<R extends RuleLike>(order: readonly R[], wildcards: boolean): Map<R, R> {
  const dead = new Map<R, R>();
  const root: TrieNode<R> = { rule: null, next: new Map() };
  const byNormal = new Map<string, Shape<R>>();
  for (const rule of order) {
    const s = shape(rule, wildcards);
    const same = byNormal.get(s.normal);
    let killer: Shape<R> | null = same ?? null;
    let node: TrieNode<R> | undefined = root;
    for (let i = 0; i < s.head.length && killer === null; i++) {
      node = node.next.get(s.head.charCodeAt(i));
      if (node === undefined) break;
      killer = node.rule;
    }
    if (killer !== null) {
      dead.set(rule, killer.rule);
      continue;
    }
    byNormal.set(s.normal, s);
    if (!s.plain) continue;
    let at = root;
    for (let i = 0; i < s.normal.length; i++) {
      const c = s.normal.charCodeAt(i);
      let child = at.next.get(c);
      if (child === undefined) {
        child = { rule: null, next: new Map() };
        at.next.set(c, child);
      }
      at = child;
    }
    at.rule ??= s;
  }
  return dead;
}

/** RFC 9309 §2.2.2: longest pattern first; on a tie Allow first; then file order. */
function rfcOrder(a: Rule, b: Rule): number {
  return (
    b.pattern.specificity - a.pattern.specificity ||
    Number(b.allow) - Number(a.allow) ||
    a.line - b.line
  );
}

/**
 * Rule-set memberships checked per file. RFC 9309 merges groups per robot, so one rule can be
 * in many sets; a hostile file (a thousand robots each sharing one huge group) would cost
 * rules × robots. Past this budget the remaining sets are not checked and their rules count
 * as deciding: the check can miss a dead rule, never invent one.
 */
export const MAX_RULE_CHECKS = 1_000_000;

/** A list of rules a dialect tries, in its order, built only when the budget allows. */
interface DecisionSet {
  readonly groups: readonly Group[];
  readonly size: number;
  readonly rules: () => readonly Rule[];
}

/** The rule lists a dialect tries; a rule may be in several (RFC 9309 merges groups). */
function decisionSets(ctx: LintContext, spans: readonly GroupSpan[]): DecisionSet[] {
  const { dialect, policy } = ctx;
  switch (dialect) {
    case "koster1996": {
      // Robot-version 1.0 robots ignore Allow (DESIGN §3).
      const noAllow = policy.robotVersion?.trim().split(".")[0] === "1";
      return spans.map(({ group }) => ({
        groups: [group],
        size: group.rules.length,
        rules: () => (noAllow ? group.rules.filter((r) => !r.allow) : group.rules),
      }));
    }
    case "regp":
      // REGP path groups are read from the file's layout, blocks and all (lint/regp.ts).
      return [];
    case "rfc9309": {
      // §2.2.1: a robot gets every group naming its token, merged. Tokens naming the same
      // groups give the same set; each distinct set is checked once.
      const groupsOf = new Map<string, number[]>();
      for (const span of spans) {
        for (const agent of span.group.agents) {
          if (agent.token === "") continue;
          const list = groupsOf.get(agent.token) ?? [];
          if (list[list.length - 1] !== span.index) list.push(span.index);
          groupsOf.set(agent.token, list);
        }
      }
      const sets = new Map<string, DecisionSet>();
      for (const indices of groupsOf.values()) {
        const key = indices.join(",");
        if (sets.has(key)) continue;
        const groups = indices.flatMap((i) => policy.groups[i] ?? []);
        sets.set(key, {
          groups,
          size: groups.reduce((n, g) => n + g.rules.length, 0),
          rules: () => groups.flatMap((g) => g.rules).sort(rfcOrder),
        });
      }
      return [...sets.values()];
    }
  }
}

export function lintRules(ctx: LintContext, spans: readonly GroupSpan[]): void {
  const wildcards = ctx.dialect !== "koster1996";
  // A rule never decides only if it never decides in any set it is part of.
  const killers = new Map<Rule, Rule>();
  const alive = new Set<Rule>();
  const unchecked = new Set<Group>();
  let budget = MAX_RULE_CHECKS;
  for (const set of decisionSets(ctx, spans)) {
    if (set.size > budget) {
      for (const group of set.groups) unchecked.add(group);
      continue;
    }
    budget -= set.size;
    const rules = set.rules();
    const dead = deadRules(rules, wildcards);
    for (const rule of rules) {
      const killer = dead.get(rule);
      if (killer === undefined) alive.add(rule);
      else if (!killers.has(rule)) killers.set(rule, killer);
    }
  }
  if (killers.size === 0) return;
  const groupOf = new Map<Rule, Group>();
  for (const group of unchecked) for (const rule of group.rules) groupOf.set(rule, group);
  for (const [rule, killer] of killers) {
    if (alive.has(rule) || groupOf.has(rule)) continue;
    reportDeadRule(ctx, rule, killer, wildcards);
  }
}

const WHY: Readonly<Record<Dialect, string>> = {
  koster1996: "comes first (Koster 1996: the first match wins)",
  rfc9309: "wins (RFC 9309: the longest match wins, and Allow wins a tie)",
  regp: "comes later (REGP: the last match wins, docs/regp.md#paths)",
};

/**
 * Reports a rule that never decides, with the rule that decides in its place; `where`, when
 * given, ends the message (`in the target of the block at line 9`).
 */
export function reportDeadRule(
  ctx: LintContext,
  rule: RuleLike,
  killer: RuleLike,
  wildcards: boolean,
  where?: string,
): void {
  const tail = where === undefined ? "" : ` (${where})`;
  const add = (severity: "warning" | "info", code: string, message: string) =>
    ctx.add(rule.line, severity, code, message + tail);
  const text = quote(rule.text);
  const other = `line ${killer.line} ${quote(killer.text)}`;
  const equal =
    shape(rule, wildcards).normal === shape(killer, wildcards).normal ||
    rule.pattern.canonical === killer.pattern.canonical;
  if (rule.allow === killer.allow) {
    if (rule.pattern.canonical === killer.pattern.canonical) {
      add("warning", "duplicate-rule", `${text} repeats ${other}; it never decides`);
    } else {
      add(
        "info",
        "redundant-rule",
        `${text} never decides: ${other} matches every path it matches and ${WHY[ctx.dialect]}; both say the same`,
      );
    }
    return;
  }
  if (equal) {
    add(
      "warning",
      "conflicting-rules",
      `${text} conflicts with ${other}, which matches the same paths and ${WHY[ctx.dialect]}; this line never decides`,
    );
    return;
  }
  add(
    "warning",
    "shadowed-rule",
    `${text} never decides: ${other} matches every path it matches and ${WHY[ctx.dialect]}`,
  );
}
