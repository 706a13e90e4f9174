/**
 * What applies to one robot under Koster 1996 and RFC 9309: the groups chosen for it, and which
 * of their rules decides a path. Worked out once per robot and file, then asked per URL: at the
 * first question the rules are put in deciding order, with the character masks that let the
 * query loop pass over most of them without a look, and the first that matches decides.
 *
 * Ordering costs a sort and a look at every rule, about what scanning the rules as written
 * costs for one question: a file asked one question as a robot is rare (a crawler asks about
 * every URL of the site, a batch some fifty per file), and scanning first cost a batch 3%.
 */
import type { GroupSummary } from "./decision.js";
import type { AgentLine, Group, Rule } from "./groups.js";
import { type PaceExtensions, paceOf } from "./pace-extensions.js";
import { characterMask, type PathPattern } from "./path-pattern.js";
import type { AccessPlan, FromLine } from "./plan.js";

/** What applies to one robot: the groups chosen and their rules in deciding order. */
export interface Selection {
  readonly group: GroupSummary | null;
  readonly groups: readonly Group[];
  /** Rules in the order they are tried; the first that matches decides. */
  readonly order: readonly Rule[];
  /** Their compiled patterns, index for index. */
  readonly patterns: readonly PathPattern[];
  /** Each pattern's {@link PathPattern.mask} and {@link PathPattern.second}, packed for the query loop. */
  readonly masks: Int32Array;
  readonly seconds: Int32Array;
  readonly crawlDelay: FromLine<number> | null;
}

/** The groups that apply to a robot, and the User-agent lines that chose them. */
export interface Choice {
  readonly groups: readonly Group[];
  readonly agents: readonly AgentLine[];
  /** The rules that take part, in file order. */
  readonly rules: readonly Rule[];
  /** RFC 9309: the longest match decides; Koster 1996: the first in file order. */
  readonly longest: boolean;
}

/** Rules in deciding order, with what lets the query loop pass over most without a look. */
interface Ordered {
  readonly order: readonly Rule[];
  /** Each rule's {@link PathPattern.mask}. */
  readonly masks: readonly number[];
  /** Each rule's {@link PathPattern.second}. */
  readonly seconds: readonly number[];
}

/** One robot's groups and rules, with the rule that decides a path. */
export class RobotRules {
  readonly group: GroupSummary | null;
  readonly groups: readonly Group[];
  readonly crawlDelay: FromLine<number> | null;
  /** The access plan its decisions share, made by the policy when first needed. */
  plan: AccessPlan | null = null;
  private readonly rules: readonly Rule[];
  private readonly longest: boolean;
  private ordered: Ordered | null = null;
  private selected: Selection | null = null;
  private paceRead: PaceExtensions | null = null;

  constructor(choice: Choice | null) {
    if (choice === null) {
      this.group = null;
      this.groups = [];
      this.crawlDelay = null;
      this.rules = [];
      this.longest = false;
      return;
    }
    const { groups, agents } = choice;
    this.group = { agents: agents.map((a) => a.value), lines: agents.map((a) => a.line) };
    this.groups = groups;
    const withDelay = groups.find((g) => g.crawlDelay !== null);
    this.crawlDelay =
      withDelay !== undefined && withDelay.crawlDelay !== null && withDelay.crawlDelayLine !== null
        ? { value: withDelay.crawlDelay, line: withDelay.crawlDelayLine }
        : null;
    this.rules = choice.rules;
    this.longest = choice.longest;
  }

  /** Request-rate and Visit-time of the groups, read when first asked for (pace-extensions.ts). */
  get pace(): PaceExtensions {
    this.paceRead ??= paceOf(this.groups);
    return this.paceRead;
  }

  /** The rule that decides `path` (canonical, see requestPath), or null when none matches. */
  decide(path: string): Rule | null {
    this.ordered ??= order(this.rules, this.longest);
    return firstMatch(this.ordered, path);
  }

  /** The rules in deciding order with their compiled patterns. */
  selection(): Selection {
    if (this.selected === null) {
      this.ordered ??= order(this.rules, this.longest);
      const { order: rules, masks, seconds } = this.ordered;
      this.selected = {
        group: this.group,
        groups: this.groups,
        order: rules,
        patterns: rules.map((rule) => rule.pattern),
        masks: Int32Array.from(masks),
        seconds: Int32Array.from(seconds),
        crawlDelay: this.crawlDelay,
      };
    }
    return this.selected;
  }
}

/** The first rule in deciding order that matches `path`. */
function firstMatch(ordered: Ordered, path: string): Rule | null {
  const { order, masks, seconds } = ordered;
  const have = characterMask(path);
  const second = path.length > 1 ? path.charCodeAt(1) : -2;
  for (let i = 0; i < order.length; i++) {
    // Cheap refusals first: a needed character missing, or the wrong first letter.
    if (((masks[i] as number) & ~have) !== 0) continue;
    const want = seconds[i] as number;
    if (want !== -1 && want !== second) continue;
    const rule = order[i] as Rule;
    if (rule.matches(path)) return rule;
  }
  return null;
}

/**
 * Rules in deciding order: RFC 9309 §2.2.2 (`longest`): the longest match, Allow on a tie,
 * the earlier line between equals; Koster 1996 (seeds/004 §3.2.2): file order.
 */
function order(rules: readonly Rule[], longest: boolean): Ordered {
  // Plain arrays: a typed array costs a backing store of its own, and most groups are small.
  const n = rules.length;
  const masks = new Array<number>(n);
  const seconds = new Array<number>(n);
  if (!longest || n < 2) {
    for (let i = 0; i < n; i++) describe(rules[i] as Rule, masks, seconds, i);
    return { order: rules, masks, seconds };
  }
  // Each rule's rank: its specificity, then Allow above Disallow. Higher ranks decide first;
  // between equal ranks the earlier line does, so both sorts below are stable.
  const ranks = new Array<number>(n);
  let top = 0;
  for (let i = 0; i < n; i++) {
    const rule = rules[i] as Rule;
    const rank = rule.specificity * 2 + (rule.allow ? 1 : 0);
    ranks[i] = rank;
    if (rank > top) top = rank;
  }
  const sorted =
    n <= INSERTION_SORT_UP_TO
      ? sortedByRank(rules, ranks)
      : top <= COUNT_RANKS_UP_TO
        ? countedByRank(rules, ranks, top)
        : comparedByRank(rules, ranks);
  for (let k = 0; k < n; k++) describe(sorted[k] as Rule, masks, seconds, k);
  return { order: sorted, masks, seconds };
}

const INSERTION_SORT_UP_TO = 32;
// A larger group is sorted by counting its ranks, in time linear in its size and its top rank:
// a rank is twice a pattern's length, and a robots.txt's patterns are short. A group with a
// pattern thousands of characters long is sorted by comparison instead.
const COUNT_RANKS_UP_TO = 8 * 1024;

/** Rules by rank, highest first, in line order within a rank: an insertion sort, stable. */
function sortedByRank(rules: readonly Rule[], ranks: number[]): Rule[] {
  const sorted = rules.slice();
  for (let i = 1; i < sorted.length; i++) {
    const rule = sorted[i] as Rule;
    const rank = ranks[i] as number;
    let j = i - 1;
    while (j >= 0 && (ranks[j] as number) < rank) {
      sorted[j + 1] = sorted[j] as Rule;
      ranks[j + 1] = ranks[j] as number;
      j--;
    }
    sorted[j + 1] = rule;
    ranks[j + 1] = rank;
  }
  return sorted;
}

/** {@link sortedByRank} by Array's sort, which is stable, for a large group with a long pattern. */
function comparedByRank(rules: readonly Rule[], ranks: readonly number[]): Rule[] {
  const places = Array.from(rules, (_, i) => i);
  places.sort((a, b) => (ranks[b] as number) - (ranks[a] as number));
  return places.map((i) => rules[i] as Rule);
}

/** {@link sortedByRank} by counting: how many rules rank above each rank gives its place. */
function countedByRank(rules: readonly Rule[], ranks: readonly number[], top: number): Rule[] {
  const n = rules.length;
  // at[top - rank]: how many rules have that rank, then where the next of them goes.
  const at = new Int32Array(top + 2);
  for (let i = 0; i < n; i++) {
    const slot = top - (ranks[i] as number);
    at[slot] = (at[slot] as number) + 1;
  }
  let place = 0;
  for (let r = 0; r <= top; r++) {
    const count = at[r] as number;
    at[r] = place;
    place += count;
  }
  const sorted = new Array<Rule>(n);
  for (let i = 0; i < n; i++) {
    const slot = top - (ranks[i] as number);
    const k = at[slot] as number;
    at[slot] = k + 1;
    sorted[k] = rules[i] as Rule;
  }
  return sorted;
}

/** A rule's mask and second character, at index `k`: for a plain path, without compiling it. */
function describe(rule: Rule, masks: number[], seconds: number[], k: number): void {
  if (rule.plain) {
    const source = rule.source;
    masks[k] = characterMask(source);
    seconds[k] = source.length >= 2 ? source.charCodeAt(1) : -1;
  } else {
    const pattern = rule.pattern;
    masks[k] = pattern.mask;
    seconds[k] = pattern.second;
  }
}

/**
 * RFC 9309 §2.2.1: every group naming the product token (case-insensitive), merged; else
 * every `*` group, merged. §2.2.2: the longest match decides; on a tie Allow wins. `named`
 * says which: robots the file does not name share the `*` groups' selection.
 *
 * The groups are searched whole, once per robot and file (the policy keeps the selection): a
 * table of the groups by token, kept with every policy asked about, cost more heap than the
 * selections it sped up (issue 29).
 */
export function chooseRfc9309(
  groups: readonly Group[],
  token: string,
): { readonly choice: Choice | null; readonly named: boolean } {
  let named = false;
  for (const group of groups) {
    for (const agent of group.agents) if (agent.token === token) named = true;
    if (named) break;
  }
  const wanted = named ? token : "*";
  // Plain loops: flatMap costs more than the rest of choosing.
  const chosen: Group[] = [];
  const agents: AgentLine[] = [];
  for (const group of groups) {
    if (!group.agents.some((agent) => agent.token === wanted)) continue;
    chosen.push(group);
    for (const agent of group.agents) {
      if (agent.token === token || agent.token === "*") agents.push(agent);
    }
  }
  if (chosen.length === 0) return { choice: null, named };
  let rules = (chosen[0] as Group).rules;
  if (chosen.length > 1) {
    rules = [];
    for (const group of chosen) for (const rule of group.rules) (rules as Rule[]).push(rule);
  }
  return { choice: { groups: chosen, agents, rules, longest: true }, named };
}

/**
 * seeds/004 §3.2.1: the first record with a User-agent value containing the robot's name token
 * (case-insensitive); else the first `*` record. §3.2.2: the first matching line decides.
 * `Robot-version: 1.0` robots predate Allow and ignore it (DESIGN §3).
 */
export function chooseKoster(
  groups: readonly Group[],
  token: string,
  version: string | null,
): Choice | null {
  const named =
    token === ""
      ? undefined
      : groups.find((g) =>
          g.agents.some((a) => a.token !== "*" && a.value.toLowerCase().includes(token)),
        );
  const group = named ?? groups.find((g) => g.agents.some((a) => a.token === "*"));
  if (group === undefined) return null;
  const noAllow = version?.trim().split(".")[0] === "1";
  return {
    groups: [group],
    agents: group.agents,
    rules: noAllow ? group.rules.filter((r) => !r.allow) : group.rules,
    longest: false,
  };
}
