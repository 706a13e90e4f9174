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
import type { CompiledRegp, CompiledTarget, Scope } from "./compile.js";
import type { RegpLayout } from "./layout.js";
import { type LastMatch, lastMatch } from "./last-match.js";
import type { PathGroup, PathLine } from "./path-group.js";
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
  readonly basis?: DefaultBasis;
  readonly line: number | null;
  readonly rule: string | null;
  readonly group: GroupSummary | null;
  /** When a time window refuses: the moment it reopens, or null if it never does. */
  readonly next: number | null;
  readonly detail?: string;
  readonly plan: AccessPlan;
}

export class RegpRules {
  private laidOut: RegpLayout | null;
  private layOutAgain: (() => RegpLayout) | null;
  private compiledScopes: CompiledRegp | null;
  private compileFirst: (() => CompiledRegp) | null;

  constructor(
    /**
     * How the lines were arranged, or how to arrange them again when asked: a kept policy
     * need not hold the layout, which only lint and explanations read.
     */
    layout: RegpLayout | (() => RegpLayout),
    /**
     * The scopes with their typed values, or how to make them at the first question: a parse
     * keeps its file's line table (scan.ts), not scopes a crawler may never ask about.
     */
    compiled: CompiledRegp | (() => CompiledRegp),
  ) {
    this.laidOut = typeof layout === "function" ? null : layout;
    this.layOutAgain = typeof layout === "function" ? layout : null;
    this.compiledScopes = typeof compiled === "function" ? null : compiled;
    this.compileFirst = typeof compiled === "function" ? compiled : null;
  }

  /** How the lines were arranged: header, sequences, blocks, global section. */
  get layout(): RegpLayout {
    this.laidOut ??= (this.layOutAgain as () => RegpLayout)();
    return this.laidOut;
  }

  /** The scopes with their typed values, compiled when first asked for. */
  get compiled(): CompiledRegp {
    if (this.compiledScopes === null) {
      this.compiledScopes = (this.compileFirst as () => CompiledRegp)();
      // What it was compiled from (the line table) is let go.
      this.compileFirst = null;
    }
    return this.compiledScopes;
  }

  /** The sequence that applies to a robot: the first, top to bottom, whose target names it. */
  sequenceFor(token: string): (Scope & { readonly impliedAgent: boolean }) | null {
    for (const sequence of this.compiled.sequences) {
      if (sequence.impliedAgent || agentMatches(sequence.target, token)) return sequence;
    }
    return null;
  }

  decide(urlPath: string, robot: RegpRobot): RegpVerdict {
    const path = probe(urlPath);
    const sequence = this.sequenceFor(robot.token);
    const group = sequence === null ? null : summary(sequence);
    const scopes = this.scopesFor(sequence, path, robot);
    const { plan, windows } = planFrom(scopes, path);
    const base = { group, plan, next: null };

    // seeds/003 §3.2.4: a matched sequence whose IP group refuses the robot closes the site.
    if (sequence !== null && sequence.target.ips.length > 0) {
      const verdict = lastMatch(sequence.target.ips, (l) => ipAdmits(l.pattern, robot.ip));
      if (!verdict.allowed) {
        const by = verdict.by;
        return {
          ...base,
          allowed: false,
          reason: "ip",
          line: typeof by === "string" ? null : by.line,
          rule: typeof by === "string" ? null : by.text,
          detail:
            robot.ip === null
              ? "the site admits only listed IP addresses, and the robot's is not known"
              : "the robot's IP address is refused: the whole site is closed to it",
        };
      }
    }

    const unmet = unmetRequirement(plan, robot);
    if (unmet !== null)
      return {
        ...base,
        allowed: false,
        reason: unmet.kind,
        line: unmet.line,
        rule: unmet.text,
        detail: unmet.detail,
      };

    if (robot.at !== undefined && windows.length > 0) {
      const state = combineWindows(windows, robot.at);
      if (!state.open) {
        // Name the line that refuses: a Time-forbidden the moment falls in, else the Visit-time.
        const at = robot.at;
        const deciding =
          windows.find((w) => w.kind === "forbidden" && !windowAt("forbidden", w.span, at).open) ??
          windows.find((w) => w.kind === "visit");
        return {
          ...base,
          allowed: false,
          reason: "time",
          line: deciding?.line ?? null,
          rule: deciding?.text ?? null,
          next: state.next,
          detail: timeDetail(plan.times),
        };
      }
    }

    // The sequence's path group, then the global section's: both must allow (DESIGN §4).
    const own = sequence === null ? null : pathVerdict(sequence.rules, path);
    const shared = pathVerdict(this.compiled.global.rules, path);
    for (const verdict of [own, shared]) {
      if (verdict !== null && !verdict.allowed) return { ...base, ...explain(verdict) };
    }
    const decided = [own, shared].find((v) => v !== null && typeof v.by !== "string");
    if (decided) return { ...base, ...explain(decided) };
    const implied = [own, shared].find((v) => v !== null && v.by === "implicit");
    if (implied) return { ...base, ...explain(implied) };
    return {
      ...base,
      allowed: true,
      reason: "default",
      basis: sequence === null ? "no-group" : "no-matching-rule",
      line: null,
      rule: null,
    };
  }

  /** Global section, the sequence, and every block that covers this robot and path, least specific first. */
  private scopesFor(sequence: Scope | null, path: Probe, robot: RegpRobot): Scope[] {
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

function agentMatches(target: CompiledTarget, token: string): boolean {
  // seeds/003 §3.2.3, Tables 4-5: the robot's token contains the value; `*` matches any robot.
  return target.agents.some((value) => value === "*" || (token !== "" && token.includes(value)));
}

/** An unknown robot address matches only `*` lines. */
function ipAdmits(pattern: IpPattern, ip: IpAddress | null): boolean {
  return ip === null ? pattern.kind === "any" : ipMatches(pattern, ip);
}

/**
 * A path with what the cheap refusals need: the characters it has, and its second character.
 * As in the RFC 9309 query loop, a pattern needing a character the path lacks, or another
 * second character, is refused without a scan: a long URL against thousands of wildcard rules
 * then costs a scan only for the rules that could match (issue 14).
 */
interface Probe {
  readonly path: string;
  readonly have: number;
  readonly second: number;
}

function probe(path: string): Probe {
  return { path, have: characterMask(path), second: path.length > 1 ? path.charCodeAt(1) : -2 };
}

function admits(pattern: PathPattern, path: Probe): boolean {
  if ((pattern.mask & ~path.have) !== 0) return false;
  if (pattern.second !== -1 && pattern.second !== path.second) return false;
  return pattern.matches(path.path);
}

function blockCovers(target: CompiledTarget, path: Probe, robot: RegpRobot): boolean {
  if (target.agents.length > 0 && !agentMatches(target, robot.token)) return false;
  if (target.ips.length > 0 && !lastMatch(target.ips, (l) => ipAdmits(l.pattern, robot.ip)).allowed)
    return false;
  if (target.paths.length > 0 && !target.paths.lastMatch((p) => admits(p, path)).allowed)
    return false;
  return true;
}

function pathVerdict(rules: PathGroup, path: Probe): LastMatch<PathLine> | null {
  return rules.length === 0 ? null : rules.lastMatch((p) => admits(p, path));
}

function explain(
  verdict: LastMatch<PathLine>,
): Pick<RegpVerdict, "allowed" | "reason" | "basis" | "line" | "rule"> {
  const by = verdict.by;
  if (typeof by !== "string")
    return { allowed: by.allow, reason: "rule", line: by.line, rule: by.text };
  const basis: DefaultBasis =
    by === "empty" ? "no-matching-rule" : verdict.allowed ? "implicit-allow" : "implicit-disallow";
  return { allowed: verdict.allowed, reason: "default", basis, line: null, rule: null };
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
function planFrom(scopes: readonly Scope[], path: Probe): { plan: AccessPlan; windows: Window[] } {
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
