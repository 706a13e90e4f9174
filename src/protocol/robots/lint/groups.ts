/**
 * Checks of groups: User-agent lines named twice, groups no robot can reach, groups without
 * rules, and blank lines that end a record early for Koster 1996 robots (seeds/004 §3.3).
 */
import type { Dialect } from "../dialect.js";
import type { AgentLine, Group } from "../groups.js";
import type { RobotsLine } from "../line-reader.js";
import { DIALECT_NAME, type LintContext, quote } from "./finding.js";

/**
 * Earlier User-agent values a later one is compared with for containment (Koster 1996 and
 * REGP pick groups by substring). Real files name a few dozen robots; the cap keeps a hostile
 * file with thousands of User-agent lines linear.
 */
export const MAX_AGENTS_COMPARED = 256;

/** A group with the lines it spans, from its first User-agent line to the next group. */
export interface GroupSpan {
  readonly group: Group;
  readonly index: number;
  readonly lines: readonly RobotsLine[];
}

export function groupSpans(ctx: LintContext): GroupSpan[] {
  const { groups, text } = ctx.policy;
  const spans: GroupSpan[] = [];
  groups.forEach((group, index) => {
    const start = group.agents[0]?.line;
    if (start === undefined) return;
    const end = groups[index + 1]?.agents[0]?.line ?? text.lines.length + 1;
    spans.push({ group, index, lines: text.lines.slice(start - 1, end - 1) });
  });
  return spans;
}

export function lintGroups(ctx: LintContext, spans: readonly GroupSpan[]): void {
  checkAgents(ctx);
  const hasStar = ctx.policy.groups.some((g) => g.agents.some((a) => a.token === "*"));
  for (const span of spans) {
    checkEmptyGroup(ctx, span, hasStar);
    checkBlankLines(ctx, span);
  }
}

function agentKey(dialect: Dialect, agent: AgentLine): string {
  return dialect === "rfc9309" ? agent.token : agent.value.trim().toLowerCase();
}

/** Duplicate User-agent lines, duplicate groups, and groups an earlier one always takes. */
function checkAgents(ctx: LintContext): void {
  const { dialect } = ctx;
  const first = new Map<string, { agent: AgentLine; group: number }>();
  const earlier: { value: string; agent: AgentLine }[] = [];
  let star: AgentLine | null = null;
  ctx.policy.groups.forEach((group, index) => {
    const seenHere = new Map<string, AgentLine>();
    const added: { value: string; agent: AgentLine }[] = [];
    for (const agent of group.agents) {
      const key = agentKey(dialect, agent);
      if (key === "") continue;
      const here = seenHere.get(key);
      if (here !== undefined) {
        ctx.add(
          agent.line,
          "info",
          "duplicate-agent",
          `User-agent ${quote(agent.value)} is already named at line ${here.line} in this group`,
        );
        continue;
      }
      seenHere.set(key, agent);
      const before = first.get(key);
      if (before !== undefined) {
        ctx.add(
          agent.line,
          "warning",
          "duplicate-group",
          duplicateMessage(dialect, agent, before.agent),
        );
        continue;
      }
      first.set(key, { agent, group: index });
      const value = agent.value.trim().toLowerCase();
      if (key !== "*") {
        const taker = shadowingAgent(dialect, value, earlier, star);
        if (taker !== null) {
          ctx.add(agent.line, "warning", "shadowed-group", shadowMessage(dialect, agent, taker));
        }
        if (earlier.length + added.length < MAX_AGENTS_COMPARED) added.push({ value, agent });
      }
    }
    earlier.push(...added);
    if (star === null) star = group.agents.find((a) => a.token === "*") ?? null;
  });
}

/** An earlier User-agent line that every robot this value could select matches first. */
function shadowingAgent(
  dialect: Dialect,
  value: string,
  earlier: readonly { value: string; agent: AgentLine }[],
  star: AgentLine | null,
): AgentLine | null {
  switch (dialect) {
    case "rfc9309":
      // RFC 9309 §2.2.1: groups are chosen by equal tokens and merged; none hides another.
      return null;
    case "koster1996":
      // seeds/004 §3.2.1: the first record whose value contains the robot's name wins. Every
      // name this value contains is also contained in an earlier value that contains it.
      return earlier.find((e) => e.value.includes(value))?.agent ?? null;
    case "regp":
      // DESIGN §3: the first segment whose value is contained in the robot's name, or `*`.
      return star ?? earlier.find((e) => value.includes(e.value))?.agent ?? null;
  }
}

function duplicateMessage(dialect: Dialect, agent: AgentLine, before: AgentLine): string {
  const name = quote(agent.value);
  switch (dialect) {
    case "rfc9309":
      return `User-agent ${name} also heads the group at line ${before.line}: RFC 9309 merges the two groups' rules, but older robots obey only the first`;
    case "koster1996":
      return `User-agent ${name} also heads the group at line ${before.line}: under Koster 1996 only the first record counts, so this one is never used for it`;
    case "regp":
      return `User-agent ${name} also heads the group at line ${before.line}: under REGP the first matching group wins, so this one is never used for it`;
  }
}

function shadowMessage(dialect: Dialect, agent: AgentLine, taker: AgentLine): string {
  const rule =
    dialect === "koster1996"
      ? "the first record whose User-agent contains the robot's name wins"
      : "the first group whose User-agent the robot's name contains wins";
  return `User-agent ${quote(agent.value)} can never select its group: every robot it names matches line ${taker.line} ${quote(taker.value)} first (${DIALECT_NAME[dialect]}: ${rule})`;
}

function isRuleLine(line: RobotsLine): boolean {
  return line.kind === "allow" || line.kind === "disallow";
}

function checkEmptyGroup(ctx: LintContext, span: GroupSpan, hasStar: boolean): void {
  if (span.lines.some(isRuleLine)) return;
  const { agents } = span.group;
  const names = agents.map((a) => quote(a.value)).join(", ");
  const named = agents.every((a) => a.token !== "*");
  const fallback =
    named && hasStar && ctx.dialect !== "regp" ? " (they do not fall back to the * group)" : "";
  ctx.add(
    agents[0]?.line ?? null,
    "info",
    "empty-group",
    `the group of ${names} has no Allow or Disallow lines: the robots it names may fetch everything${fallback}`,
  );
}

/** seeds/004 §3.3: a record is User-agent lines then rule lines, and a blank line ends it. */
function checkBlankLines(ctx: LintContext, span: GroupSpan): void {
  let last = -1;
  span.lines.forEach((line, i) => {
    if (isRuleLine(line)) last = i;
  });
  const start = span.group.agents[0]?.line;
  for (let i = 1; i < last; i++) {
    const line = span.lines[i] as RobotsLine;
    if (line.kind !== "blank" || span.lines[i - 1]?.kind === "blank") continue;
    ctx.add(
      line.number,
      "info",
      "blank-line-in-group",
      `blank line inside the group that starts at line ${start}: Koster 1996 records end at a blank line, so older robots end the group here`,
    );
  }
}
