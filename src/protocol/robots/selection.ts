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
import type { AgentLine, Group } from "./groups.js";
import { type PaceExtensions, paceOf } from "./pace-extensions.js";
import { characterMask, type PathPattern } from "./path-pattern.js";
import type { AccessPlan, FromLine } from "./plan.js";
import { PLAIN, type Rule, type RuleTable, WILDCARD } from "./rule-table.js";

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
  /** The file's rules. */
  readonly table: RuleTable;
  /** The rows of {@link table} that take part, in file order. */
  readonly rules: readonly number[];
  /** RFC 9309: the longest match decides; Koster 1996: the first in file order. */
  readonly longest: boolean;
}

/**
 * Rules (rows of the table) in deciding order, with what lets the query loop pass over most
 * without a look, in one typed array: each costs some 180 bytes besides its contents, and a kept
 * file's selections had two or three each (issue 29: 0.3 MB of the real files' heap after
 * their queries).
 */
interface Ordered {
  /**
   * At 3k, the row of the k-th rule, or `~j` for the j-th matched by a compiled pattern;
   * at 3k + 1 its {@link PathPattern.mask}, at 3k + 2 its {@link PathPattern.second}; for a
   * group of {@link BY_SECOND_FROM} rules or more, its {@link chain}s from 3n; from
   * {@link compiledRows}, the rows of the rules matched by a compiled pattern, j by j.
   */
  readonly rules: Int32Array;
  readonly n: number;
  readonly compiledRows: number;
  /**
   * The compiled patterns, j by j: a pattern to canonicalize is compiled as it is put in order;
   * one canonical as written (`/*?sort=`, `/*.pdf$`) when a path first gets past its mask,
   * which most never do (on the real files, 3,579 of 10,992). Only as many as there are such
   * rules: a slot for every rule was 8 bytes a plain one.
   */
  readonly patterns: (PathPattern | null)[];
}

/** One robot's groups and rules, with the rule that decides a path. */
export class RobotRules {
  readonly group: GroupSummary | null;
  readonly groups: readonly Group[];
  readonly crawlDelay: FromLine<number> | null;
  /** The access plan its decisions share, made by the policy when first needed. */
  plan: AccessPlan | null = null;
  /** The file's rules, null when no group applies. */
  readonly table: RuleTable | null;
  /** The rows that take part, until they are put in order (then {@link ordered} has them). */
  private rules: readonly number[];
  private readonly longest: boolean;
  private ordered: Ordered | null = null;
  private selected: Selection | null = null;
  private paceRead: PaceExtensions | null = null;

  constructor(choice: Choice | null) {
    if (choice === null) {
      this.group = null;
      this.groups = [];
      this.crawlDelay = null;
      this.table = null;
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
    this.table = choice.table;
    this.rules = choice.rules;
    this.longest = choice.longest;
  }

  /** Request-rate and Visit-time of the groups, read when first asked for (pace-extensions.ts). */
  get pace(): PaceExtensions {
    this.paceRead ??= paceOf(this.groups);
    return this.paceRead;
  }

  /**
   * The row of {@link table} whose rule decides `path` (canonical, see requestPath), or -1
   * when none matches.
   */
  decide(path: string): number {
    const table = this.table;
    if (table === null) return -1;
    return firstMatch(table, this.ordered ?? this.putInOrder(table), path);
  }

  private putInOrder(table: RuleTable): Ordered {
    const ordered = order(table, this.rules, this.longest);
    this.ordered = ordered;
    this.rules = NO_ROWS;
    return ordered;
  }

  /** The rules in deciding order with their compiled patterns. */
  selection(): Selection {
    if (this.selected === null) {
      const table = this.table;
      const ordered = table === null ? null : (this.ordered ?? this.putInOrder(table));
      const n = ordered?.n ?? 0;
      const cells = ordered?.rules ?? new Int32Array(0);
      const rules = Array.from({ length: n }, (_, k) =>
        (table as RuleTable).view(rowAt(ordered as Ordered, k)),
      );
      this.selected = {
        group: this.group,
        groups: this.groups,
        order: rules,
        patterns: rules.map((rule) => rule.pattern),
        masks: Int32Array.from({ length: n }, (_, k) => cells[3 * k + 1] as number),
        seconds: Int32Array.from({ length: n }, (_, k) => cells[3 * k + 2] as number),
        crawlDelay: this.crawlDelay,
      };
    }
    return this.selected;
  }
}

const NO_ROWS: readonly number[] = [];

/** The first rule in deciding order that matches `path`: its row, or -1. */
function firstMatch(table: RuleTable, ordered: Ordered, path: string): number {
  const { rules, n } = ordered;
  const have = characterMask(path);
  const second = path.length > 1 ? path.charCodeAt(1) : -2;
  if (n >= BY_SECOND_FROM) return firstMatchBySecond(table, ordered, path, have, second);
  for (let k = 0; k < 3 * n; k += 3) {
    // Cheap refusals first: a needed character missing, or the wrong first letter.
    if (((rules[k + 1] as number) & ~have) !== 0) continue;
    const want = rules[k + 2] as number;
    if (want !== -1 && want !== second) continue;
    const row = matched(table, ordered, k / 3, path);
    if (row >= 0) return row;
  }
  return -1;
}

/** The row of the rule at `place` in deciding order when it matches `path`, else -1. */
function matched(table: RuleTable, ordered: Ordered, place: number, path: string): number {
  const { rules, patterns } = ordered;
  const cell = rules[3 * place] as number;
  if (cell >= 0) return table.plainMatches(cell, path) ? cell : -1;
  // `cell ^ (cell >> 31)` is `~cell` here: `~` on a path only compiled rules reach was an
  // operation V8 had no feedback for in a large group's loop, which it then threw away.
  const j = cell ^ (cell >> 31);
  const row = rules[ordered.compiledRows + j] as number;
  let pattern = patterns[j] as PathPattern | null;
  if (pattern === null) {
    pattern = table.compile(row);
    patterns[j] = pattern;
  }
  return pattern.matches(path) ? row : -1;
}

/** The row of the rule at `place` in deciding order. */
function rowAt(ordered: Ordered, place: number): number {
  const cell = ordered.rules[3 * place] as number;
  return cell >= 0 ? cell : (ordered.rules[ordered.compiledRows + ~cell] as number);
}

/**
 * {@link firstMatch} over a large group, visiting only the rules that need the path's character
 * at index 1 and those that need none, in deciding order: two {@link chain}s, merged. On the
 * real files a query passed some 39 rules a time, nearly all for the wrong letter, in a few
 * large groups asked many times.
 */
function firstMatchBySecond(
  table: RuleTable,
  ordered: Ordered,
  path: string,
  have: number,
  second: number,
): number {
  const { rules, n } = ordered;
  const next = 3 * n;
  const heads = next + n;
  let same = second >= 0 && second < SECOND_CODES ? (rules[heads + second] as number) : n;
  let any = rules[heads + SECOND_CODES] as number;
  for (;;) {
    let k: number;
    if (same < any) {
      k = same;
      same = rules[next + k] as number;
    } else if (any < n) {
      k = any;
      any = rules[next + k] as number;
    } else {
      return -1;
    }
    if (((rules[3 * k + 1] as number) & ~have) !== 0) continue;
    const row = matched(table, ordered, k, path);
    if (row >= 0) return row;
  }
}

// A group of this many rules or more gets its {@link chain}s: for fewer, passing over the
// rules costs less than the chains' memory and making.
const BY_SECOND_FROM = 24;
// Characters a rule can need at index 1: a canonical path is ASCII.
const SECOND_CODES = 128;

/** Cells of an {@link Ordered}'s array for `n` rules. */
function cellsFor(n: number): number {
  return 3 * n + (n >= BY_SECOND_FROM ? n + SECOND_CODES + 1 : 0);
}

/**
 * Chains through the `n` rules of `rules` (an {@link Ordered}'s), in deciding order, from
 * 3n: at 3n + k, the next rule after k needing the same character at index 1 (or needing none,
 * if k needs none), n at a chain's end; at 4n + c, the first rule needing character c; at
 * 4n + 128, the first needing none (a rule needing a character past ASCII is put there too:
 * that chain's rules are tried whatever the path's character).
 */
function chain(rules: Int32Array, n: number): void {
  const next = 3 * n;
  const heads = next + n;
  rules.fill(n, heads, heads + SECOND_CODES + 1);
  for (let k = n - 1; k >= 0; k--) {
    const want = rules[3 * k + 2] as number;
    const head = heads + (want >= 0 && want < SECOND_CODES ? want : SECOND_CODES);
    rules[next + k] = rules[head] as number;
    rules[head] = k;
  }
}

/**
 * Rules in deciding order: RFC 9309 §2.2.2 (`longest`): the longest match, Allow on a tie,
 * the earlier line between equals; Koster 1996 (seeds/004 §3.2.2): file order.
 */
function order(table: RuleTable, rows: readonly number[], longest: boolean): Ordered {
  const n = rows.length;
  // Each rule's cells (see Ordered, a compiled rule's first cell -1), the compiled pattern of
  // one to canonicalize (the others are compiled when first reached, if ever) and, for RFC
  // 9309, its rank: all by its place in `rows`.
  const found = new Int32Array(3 * n);
  let compiled: (PathPattern | null)[] | null = null;
  let m = 0;
  // Plain arrays: a typed array costs a backing store of its own, and most groups are small.
  const ranks: number[] | null = longest && n > 1 ? new Array<number>(n) : null;
  let top = 0;
  for (let i = 0; i < n; i++) {
    const row = rows[i] as number;
    const kind = table.describe(row, found, 3 * i + 1);
    let length = 0;
    if (kind === PLAIN) {
      found[3 * i] = row;
      if (ranks !== null) length = table.plainLength(row);
    } else {
      found[3 * i] = -1;
      m++;
      if (kind === WILDCARD) {
        length = table.plainLength(row);
      } else {
        const pattern = table.compile(row);
        compiled ??= new Array<PathPattern | null>(n).fill(null);
        compiled[i] = pattern;
        found[3 * i + 1] = pattern.mask;
        found[3 * i + 2] = pattern.second;
        length = pattern.specificity;
      }
    }
    if (ranks !== null) {
      // Its specificity, then Allow above Disallow. Higher ranks decide first; between equal
      // ranks the earlier line does, so both sorts below are stable.
      const rank = length * 2 + (table.allow(row) ? 1 : 0);
      ranks[i] = rank;
      if (rank > top) top = rank;
    }
  }
  let sorted: readonly number[] | null = null;
  if (ranks !== null) {
    const places = new Array<number>(n);
    for (let i = 0; i < n; i++) places[i] = i;
    sorted =
      n <= INSERTION_SORT_UP_TO
        ? sortedByRank(places, ranks)
        : top <= COUNT_RANKS_UP_TO
          ? countedByRank(places, ranks, top)
          : comparedByRank(places, ranks);
  }
  const compiledRows = cellsFor(n);
  const rules = new Int32Array(compiledRows + m);
  const patterns = new Array<PathPattern | null>(m);
  let j = 0;
  for (let k = 0; k < n; k++) {
    const place = sorted === null ? k : (sorted[k] as number);
    const cell = found[3 * place] as number;
    if (cell >= 0) {
      rules[3 * k] = cell;
    } else {
      rules[3 * k] = ~j;
      rules[compiledRows + j] = rows[place] as number;
      patterns[j] = compiled === null ? null : (compiled[place] ?? null);
      j++;
    }
    rules[3 * k + 1] = found[3 * place + 1] as number;
    rules[3 * k + 2] = found[3 * place + 2] as number;
  }
  if (n >= BY_SECOND_FROM) chain(rules, n);
  return { rules, n, compiledRows, patterns };
}

const INSERTION_SORT_UP_TO = 32;
// A larger group is sorted by counting its ranks, in time linear in its size and its top rank:
// a rank is twice a pattern's length, and a robots.txt's patterns are short. A group with a
// pattern thousands of characters long is sorted by comparison instead.
const COUNT_RANKS_UP_TO = 8 * 1024;

/**
 * Rules by rank, highest first, in line order within a rank: an insertion sort, stable, of
 * `rules` and `ranks` in place.
 */
function sortedByRank(rules: number[], ranks: number[]): number[] {
  const sorted = rules;
  for (let i = 1; i < sorted.length; i++) {
    const rule = sorted[i] as number;
    const rank = ranks[i] as number;
    let j = i - 1;
    while (j >= 0 && (ranks[j] as number) < rank) {
      sorted[j + 1] = sorted[j] as number;
      ranks[j + 1] = ranks[j] as number;
      j--;
    }
    sorted[j + 1] = rule;
    ranks[j + 1] = rank;
  }
  return sorted;
}

/** {@link sortedByRank} by Array's sort, which is stable, for a large group with a long pattern. */
function comparedByRank(rules: readonly number[], ranks: readonly number[]): number[] {
  const places = Array.from(rules, (_, i) => i);
  places.sort((a, b) => (ranks[b] as number) - (ranks[a] as number));
  return places.map((i) => rules[i] as number);
}

/** {@link sortedByRank} by counting: how many rules rank above each rank gives its place. */
function countedByRank(rules: readonly number[], ranks: readonly number[], top: number): number[] {
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
  const sorted = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const slot = top - (ranks[i] as number);
    const k = at[slot] as number;
    at[slot] = k + 1;
    sorted[k] = rules[i] as number;
  }
  return sorted;
}

/**
 * RFC 9309 §2.2.1: every group naming the product token (case-insensitive), merged; else
 * every `*` group, merged. §2.2.2: the longest match decides; on a tie Allow wins. `named`
 * ({@link namesToken}) says which: robots the file does not name share the `*` groups'
 * selection, and ask for it only when it is not made yet.
 *
 * The groups are searched whole, once per robot and file (the policy keeps the selection): a
 * table of the groups by token, kept with every policy asked about, cost more heap than the
 * selections it sped up (issue 29).
 */
export function chooseRfc9309(
  groups: readonly Group[],
  token: string,
  named: boolean,
): Choice | null {
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
  if (chosen.length === 0) return null;
  const rules: number[] = [];
  for (const group of chosen) for (let i = group.from; i < group.to; i++) rules.push(i);
  return {
    // At its size: an array grown by push has room for 17, and the robot's rules keep it (issue
    // 29: 0.18 MB of the real files' heap after their queries).
    groups: chosen.slice(),
    agents,
    table: (chosen[0] as Group).table,
    rules,
    longest: true,
  };
}

/** RFC 9309 §2.2.1: does a group of `groups` name the product token `token` (lower case)? */
export function namesToken(groups: readonly Group[], token: string): boolean {
  for (const group of groups) {
    for (const agent of group.agents) if (agent.token === token) return true;
  }
  return false;
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
  const rules: number[] = [];
  for (let i = group.from; i < group.to; i++) if (!noAllow || !group.table.allow(i)) rules.push(i);
  return { groups: [group], agents: group.agents, table: group.table, rules, longest: false };
}
