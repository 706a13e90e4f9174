/**
 * Evaluation of a compiled REGP file for one robot and one URL (seeds/003 §3.2, DESIGN §4):
 * which sequence applies, whether its IP group admits the robot, which brace blocks cover
 * the URL, the time windows, the language/encoding/charset requirements, the path rules,
 * and the access plan.
 */
import type { DefaultBasis, GroupSummary } from "../decision.js";
import { characterMask, type PathPattern } from "../path-pattern.js";
import {
  type AccessPlan,
  EMPTY_PLAN,
  type FromLine,
  type RateWindow,
  type TimeRule,
} from "../plan.js";
import { type CompiledRegp, type CompiledTarget, compile, type Scope } from "./compile.js";
import { layOutSource, type RegpLayout } from "./layout.js";
import type { RegpLines } from "./scan.js";
import { type LastMatch, lastMatch } from "./last-match.js";
import type { PathGroup, PathLine, PathProbe } from "./path-group.js";
import { firstSupported } from "./values/accept-list.js";
import { cookieHeader } from "./values/cookie.js";
import { type IpAddress, type IpPattern, ipMatches } from "./values/ip.js";
import type { TimeSpan } from "./values/rfc822-time.js";
import { combineWindows, windowAt } from "./values/time-window.js";

/** Who asks, as REGP sees it. */
export interface RegpRobot {
  /** The robot's name token, lower-cased. */
  readonly token: string;
  readonly ip: IpAddress | null;
  /** The moment of the visit; without it, time windows are planned but refuse nothing. */
  readonly at: number | undefined;
  /** What the robot supports; without a list, that requirement is planned but refuses nothing. */
  readonly languages: readonly string[] | undefined;
  readonly encodings: readonly string[] | undefined;
  readonly charsets: readonly string[] | undefined;
}

export type RegpReason = "rule" | "default" | "ip" | "time" | "language" | "encoding" | "charset";

export interface RegpVerdict {
  readonly allowed: boolean;
  readonly reason: RegpReason;
  /** When `reason` is `default`: what decided. */
  readonly basis: DefaultBasis | undefined;
  readonly line: number | null;
  readonly rule: string | null;
  readonly group: GroupSummary | null;
  /** When a time window refuses: the moment it reopens, or null if it never does. */
  readonly next: number | null;
  readonly detail: string | undefined;
  readonly plan: AccessPlan;
}

// Robots whose sequence is kept (see sequenceIndex); cleared whole when full, which changes
// only speed. A crawler runs as a few robots; a batch asks each file a handful.
const SEQUENCES_KEPT = 256;
/** {@link RegpRules.sequenceIndex}: no sequence names the robot. */
const NO_SEQUENCE = -1;

/** What depends only on the sequence a robot falls to: its summary, and its plan when fixed. */
interface Chain {
  readonly group: GroupSummary | null;
  /** The plan and windows when no block or path-bound setting makes them depend on the URL. */
  readonly fixed: Planned | null;
}

interface Planned {
  readonly plan: AccessPlan;
  readonly windows: readonly Window[];
}

export class RegpRules {
  private laidOut: RegpLayout | null;
  private layOutAgain: (() => RegpLayout) | null;
  private compiledScopes: CompiledRegp | null;
  private compileFrom: RegpLines | null;
  /** The sequence each robot asked about falls to, by token. */
  private sequences: Map<string, number> | null = null;
  /** Per sequence (the last: none), what depends on it alone, made at its first question. */
  private chains: (Chain | undefined)[] | null = null;

  constructor(
    /**
     * How the lines were arranged, or how to arrange them again when asked: a kept policy
     * need not hold the layout, which only lint and explanations read.
     */
    layout: RegpLayout | (() => RegpLayout),
    /**
     * The scopes with their typed values, or the lines to compile them from at the first
     * question: a parse keeps its file's line table (scan.ts), not scopes a crawler may never
     * ask about. The table itself, not a closure over it: a closure would keep, with the
     * table, the variables of the function it was made in.
     */
    compiled: CompiledRegp | RegpLines,
  ) {
    this.laidOut = typeof layout === "function" ? null : layout;
    this.layOutAgain = typeof layout === "function" ? layout : null;
    const given = "sequences" in compiled;
    this.compiledScopes = given ? compiled : null;
    this.compileFrom = given ? null : compiled;
  }

  /** How the lines were arranged: header, sequences, blocks, global section. */
  get layout(): RegpLayout {
    this.laidOut ??= (this.layOutAgain as () => RegpLayout)();
    return this.laidOut;
  }

  /** The scopes with their typed values, compiled when first asked for. */
  get compiled(): CompiledRegp {
    if (this.compiledScopes === null) {
      const lines = this.compileFrom as RegpLines;
      this.compiledScopes = compile(layOutSource(lines), lines.text);
      // What it was compiled from (the line table) is let go.
      this.compileFrom = null;
    }
    return this.compiledScopes;
  }

  /** The sequence that applies to a robot: the first, top to bottom, whose target names it. */
  sequenceFor(token: string): (Scope & { readonly impliedAgent: boolean }) | null {
    const index = this.sequenceIndex(token);
    return index === NO_SEQUENCE ? null : (this.compiled.sequences[index] ?? null);
  }

  /**
   * May the robot fetch the path, for a robot that gives no moment and no supported languages,
   * encodings or charsets: {@link decide}'s `allowed` without its plan or explanation. Only
   * the IP group and the path groups can refuse such a robot; blocks change only the plan.
   */
  allows(urlPath: string, token: string, ip: IpAddress | null): boolean {
    const index = this.sequenceIndex(token);
    const compiled = this.compiled;
    const sequence = index === NO_SEQUENCE ? null : (compiled.sequences[index] as Scope);
    if (sequence !== null && !ipsAdmit(sequence.target, ip)) return false;
    const path = probe(urlPath);
    if (sequence !== null && !sequence.rules.allowsAt(sequence.rules.decide(path))) return false;
    const global = compiled.global.rules;
    return global.allowsAt(global.decide(path));
  }

  decide(urlPath: string, robot: RegpRobot): RegpVerdict {
    const path = probe(urlPath);
    const index = this.sequenceIndex(robot.token);
    const sequence = index === NO_SEQUENCE ? null : (this.compiled.sequences[index] as Scope);
    const chain = this.chainOf(index, sequence);
    const group = chain.group;
    const { plan, windows } = chain.fixed ?? planFrom(this.scopesFor(sequence, path, robot), path);
    const answer = (
      allowed: boolean,
      reason: RegpReason,
      line: number | null,
      rule: string | null,
      detail?: string,
      next: number | null = null,
      basis?: DefaultBasis,
    ): RegpVerdict => ({ allowed, reason, basis, line, rule, group, next, detail, plan });

    // seeds/003 §3.2.4: a matched sequence whose IP group refuses the robot closes the site.
    if (sequence !== null && sequence.target.ips.length > 0) {
      const verdict = lastMatch(sequence.target.ips, (l) => ipAdmits(l.pattern, robot.ip));
      if (!verdict.allowed) {
        const by = verdict.by;
        return answer(
          false,
          "ip",
          typeof by === "string" ? null : by.line,
          typeof by === "string" ? null : by.text,
          robot.ip === null
            ? "the site admits only listed IP addresses, and the robot's is not known"
            : "the robot's IP address is refused: the whole site is closed to it",
        );
      }
    }

    const unmet = unmetRequirement(plan, robot);
    if (unmet !== null) return answer(false, unmet.kind, unmet.line, unmet.text, unmet.detail);

    if (robot.at !== undefined && windows.length > 0) {
      const state = combineWindows(windows, robot.at);
      if (!state.open) {
        // Name the line that refuses: a Time-forbidden the moment falls in, else the Visit-time.
        const at = robot.at;
        const deciding =
          windows.find((w) => w.kind === "forbidden" && !windowAt("forbidden", w.span, at).open) ??
          windows.find((w) => w.kind === "visit");
        return answer(
          false,
          "time",
          deciding?.line ?? null,
          deciding?.text ?? null,
          timeDetail(plan.times),
          state.next,
        );
      }
    }

    // The sequence's path group, then the global section's: both must allow (DESIGN §4).
    const own = sequence === null ? null : pathVerdict(sequence.rules, path);
    const shared = pathVerdict(this.compiled.global.rules, path);
    const explained = (verdict: LastMatch<PathLine>): RegpVerdict => {
      const by = verdict.by;
      if (typeof by !== "string") return answer(by.allow, "rule", by.line, by.text);
      const basis: DefaultBasis =
        by === "empty"
          ? "no-matching-rule"
          : verdict.allowed
            ? "implicit-allow"
            : "implicit-disallow";
      return answer(verdict.allowed, "default", null, null, undefined, null, basis);
    };
    for (const verdict of [own, shared]) {
      if (verdict !== null && !verdict.allowed) return explained(verdict);
    }
    const decided =
      [own, shared].find((v) => v !== null && typeof v.by !== "string") ??
      [own, shared].find((v) => v !== null && v.by === "implicit");
    if (decided) return explained(decided);
    const basis = sequence === null ? "no-group" : "no-matching-rule";
    return answer(true, "default", null, null, undefined, null, basis);
  }

  /** The index of the sequence a robot falls to (see {@link sequenceFor}), or NO_SEQUENCE. */
  private sequenceIndex(token: string): number {
    const kept = (this.sequences ??= new Map());
    let index = kept.get(token);
    if (index === undefined) {
      index = this.compiled.sequences.findIndex(
        (s) => s.impliedAgent || agentMatches(s.target, token),
      );
      if (kept.size >= SEQUENCES_KEPT) kept.clear();
      kept.set(token, index);
    }
    return index;
  }

  private chainOf(index: number, sequence: Scope | null): Chain {
    // At its full length: an index far past the end of an empty array would make a dictionary.
    const chains = (this.chains ??= new Array<Chain | undefined>(
      this.compiled.sequences.length + 1,
    ));
    // The last place is for robots no sequence names.
    const at = index === NO_SEQUENCE ? this.compiled.sequences.length : index;
    let chain = chains[at];
    if (chain === undefined) {
      const global = this.compiled.global;
      const fixed = isFixed(global) && (sequence === null || isFixed(sequence));
      chain = {
        group: sequence === null ? null : summary(sequence as Scope & { impliedAgent: boolean }),
        // No block and no path-bound setting: the same scopes and plan for every URL and robot.
        fixed: fixed ? planFrom(sequence === null ? [global] : [global, sequence], NO_PATH) : null,
      };
      chains[at] = chain;
    }
    return chain;
  }

  /** Global section, the sequence, and every block that covers this robot and path, least specific first. */
  private scopesFor(sequence: Scope | null, path: PathProbe, robot: RegpRobot): Scope[] {
    const out: Scope[] = [];
    const visit = (scope: Scope) => {
      out.push(scope);
      for (const block of scope.blocks) if (blockCovers(block.target, path, robot)) visit(block);
    };
    visit(this.compiled.global);
    if (sequence !== null) visit(sequence);
    return out;
  }
}

/** A scope whose plan is the same for every URL: no blocks, no Index-page or Change-* line. */
function isFixed(scope: Scope): boolean {
  return (
    scope.blocks.length === 0 &&
    scope.settings.every((s) => s.kind !== "index-page" && s.kind !== "change")
  );
}

function agentMatches(target: CompiledTarget, token: string): boolean {
  // seeds/003 §3.2.3, Tables 4-5: the robot's token contains the value; `*` matches any robot.
  return target.agents.some((value) => value === "*" || (token !== "" && token.includes(value)));
}

/** An unknown robot address matches only `*` lines. */
function ipAdmits(pattern: IpPattern, ip: IpAddress | null): boolean {
  return ip === null ? pattern.kind === "any" : ipMatches(pattern, ip);
}

/** seeds/003 §3.2.4: does the target's IP group (if any) admit the robot? */
function ipsAdmit(target: CompiledTarget, ip: IpAddress | null): boolean {
  return target.ips.length === 0 || lastMatch(target.ips, (l) => ipAdmits(l.pattern, ip)).allowed;
}

/**
 * A path with what the cheap refusals need: the characters it has, and its second character.
 * As in the RFC 9309 query loop, a pattern needing a character the path lacks, or another
 * second character, is refused without a scan: a long URL against thousands of wildcard rules
 * then costs a scan only for the rules that could match (issue 14).
 */
function probe(path: string): PathProbe {
  return { path, have: characterMask(path), second: path.length > 1 ? path.charCodeAt(1) : -2 };
}

// What a fixed plan is planned with: no path-bound setting reads it.
const NO_PATH: PathProbe = probe("");

function admits(pattern: PathPattern, path: PathProbe): boolean {
  if ((pattern.mask & ~path.have) !== 0) return false;
  if (pattern.second !== -1 && pattern.second !== path.second) return false;
  return pattern.matches(path.path);
}

function blockCovers(target: CompiledTarget, path: PathProbe, robot: RegpRobot): boolean {
  if (target.agents.length > 0 && !agentMatches(target, robot.token)) return false;
  if (!ipsAdmit(target, robot.ip)) return false;
  if (target.paths.length > 0 && !target.paths.allowsAt(target.paths.decide(path))) return false;
  return true;
}

function pathVerdict(rules: PathGroup, path: PathProbe): LastMatch<PathLine> | null {
  return rules.length === 0 ? null : rules.verdict(rules.decide(path));
}

function summary(sequence: Scope & { readonly impliedAgent: boolean }): GroupSummary {
  return sequence.impliedAgent
    ? { agents: ["*"], lines: [sequence.line] }
    : { agents: sequence.target.agents, lines: sequence.target.agentLines };
}

interface Window {
  readonly kind: "visit" | "forbidden";
  readonly span: TimeSpan;
  readonly line: number;
  readonly text: string;
}

/** The plan from the scopes, least specific first: a later value of a kind replaces an earlier one. */
function planFrom(scopes: readonly Scope[], path: PathProbe): Planned {
  const plan: { -readonly [K in keyof AccessPlan]: AccessPlan[K] } = {
    ...EMPTY_PLAN,
    requires: { language: null, encoding: null, charset: null },
  };
  let agentRate: RateWindow | null = null;
  let ipRate: RateWindow | null = null;
  const sitemaps: FromLine<string>[] = [];
  const requires: { -readonly [K in keyof AccessPlan["requires"]]: AccessPlan["requires"][K] } = {
    language: null,
    encoding: null,
    charset: null,
  };
  let visits: Window[] = [];
  const forbidden: Window[] = [];
  for (const scope of scopes) {
    // Several Visit-time lines of one scope are alternatives; a more specific scope's lines
    // replace the outer ones, as for every other setting. Time-forbidden lines all hold.
    const own = scope.settings.filter((s) => s.kind === "visit-time");
    if (own.length > 0) visits = [];
    for (const s of scope.settings) {
      switch (s.kind) {
        case "crawl-delay":
          plan.crawlDelay = { value: s.seconds, line: s.line };
          break;
        case "ip-delay":
          plan.ipDelay = { value: s.seconds, line: s.line };
          break;
        case "request-rate":
        case "ip-rate": {
          const scopeKind = s.kind === "request-rate" ? "agent" : "ip";
          const window = {
            scope: scopeKind,
            requests: s.rate.requests,
            seconds: s.rate.seconds,
            line: s.line,
          } as const;
          if (scopeKind === "agent") agentRate = window;
          else ipRate = window;
          break;
        }
        case "visit-time":
          visits.push({ kind: "visit", span: s.span, line: s.line, text: s.text });
          break;
        case "time-forbidden":
          forbidden.push({ kind: "forbidden", span: s.span, line: s.line, text: s.text });
          break;
        case "language":
        case "encoding":
        case "charset":
          requires[s.kind] = {
            value: s.items.filter((i) => i.q > 0).map((i) => i.value),
            line: s.line,
          };
          break;
        case "cookie":
          plan.cookie = { value: cookieHeader(s.pairs), line: s.line };
          break;
        case "mirror-site":
          plan.mirror = { value: s.host, line: s.line };
          break;
        case "host":
          plan.host = { value: s.host, line: s.line };
          break;
        case "sitemap":
          sitemaps.push({ value: s.url, line: s.line });
          break;
        case "index-page":
          if (admits(s.pattern, path)) plan.indexPage = { value: s.pattern.source, line: s.line };
          break;
        case "change":
          if (admits(s.pattern, path)) plan.change = { value: s.frequency, line: s.line };
          break;
      }
    }
  }
  const windows = [...visits, ...forbidden].sort((a, b) => a.line - b.line);
  const times: TimeRule[] = windows.map(({ kind, text, line }) => ({ kind, text, line }));
  const rates = [agentRate, ipRate].filter((r): r is RateWindow => r !== null);
  plan.rates = rates;
  plan.times = times;
  plan.sitemaps = sitemaps;
  plan.requires = requires;
  plan.delaySeconds = Math.max(
    0,
    plan.crawlDelay?.value ?? 0,
    plan.ipDelay?.value ?? 0,
    ...rates.map((r) => r.seconds / r.requests),
  );
  return { plan, windows };
}

function unmetRequirement(
  plan: AccessPlan,
  robot: RegpRobot,
): {
  kind: "language" | "encoding" | "charset";
  line: number;
  text: string;
  detail: string;
} | null {
  const checks = [
    ["language", robot.languages],
    ["encoding", robot.encodings],
    ["charset", robot.charsets],
  ] as const;
  for (const [kind, supported] of checks) {
    const required = plan.requires[kind];
    if (required === null || supported === undefined) continue;
    const items = required.value.map((value) => ({ value, q: 1 }));
    if (firstSupported(items, supported, kind) === null) {
      const text = `${kind[0]?.toUpperCase()}${kind.slice(1)}: ${required.value.join(", ")}`;
      const detail = `the site requires ${kind} ${required.value.join(" or ")}; the robot supports ${supported.length === 0 ? "none" : supported.join(", ")}`;
      return { kind, line: required.line, text, detail };
    }
  }
  return null;
}

function timeDetail(times: readonly TimeRule[]): string {
  return times.map((t) => t.text).join("; ");
}
