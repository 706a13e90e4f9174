/**
 * A robots.txt compiled once and queried many times. `check` is pure: the same URL and robot
 * always give the same decision. The per-robot selection is cached, which changes speed only.
 */
import type { Decision, DefaultBasis, GroupSummary } from "./decision.js";
import type { Diagnostic } from "./diagnostic.js";
import { chooseDialect, type Dialect, type DialectChoice, patternOptions } from "./dialect.js";
import {
  type AgentLine,
  buildGroups,
  type Group,
  type Grouping,
  type Rule,
  type Sitemap,
} from "./groups.js";
import {
  decode,
  type ReadOptions,
  type RobotsLine,
  type RobotsText,
  readRobotsText,
  sniffRobotVersion,
} from "./line-reader.js";
import { MAX_ROBOTS_BYTES } from "./limits.js";
import { characterMask, type PathPattern } from "./path-pattern.js";
import { type AccessPlan, EMPTY_PLAN, type FromLine } from "./plan.js";
import { productToken } from "./product-token.js";
import { compile } from "./regp/compile.js";
import { layOut } from "./regp/layout.js";
import { RegpRules } from "./regp/regp-rules.js";
import { type IpAddress, parseIp } from "./regp/values/ip.js";
import { originOf, requestPath } from "./request-path.js";
import { scanGroups } from "./scan.js";

export interface ParseOptions {
  /** Default `auto` (DESIGN §3): chosen by the file's `Robot-version` line. */
  readonly dialect?: DialectChoice;
  /**
   * The origin the file was fetched from (`https://example.com`). When set, URLs on other
   * origins are answered `other-origin`, never allowed.
   */
  readonly origin?: string;
  /** Parse limit in bytes; default 500 KiB (RFC 9309 §2.5). */
  readonly maxBytes?: number;
}

/** Who asks: the robot's name (token or User-Agent header), and where and when it is. */
export interface Robot {
  readonly agent: string;
  /** The robot's IP address, for REGP's Ip-allow and Ip-disallow. */
  readonly ip?: string;
  /** The moment of the visit (ms since the epoch), for REGP's Visit-time and Time-forbidden. */
  readonly at?: number;
  /** Languages the robot supports (REGP `Language`); absent: requirements refuse nothing. */
  readonly languages?: readonly string[];
  /** Content codings the robot supports (REGP `Encoding`). */
  readonly encodings?: readonly string[];
  /** Charsets the robot supports (REGP `Charset`). */
  readonly charsets?: readonly string[];
}

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

// Selections kept per policy; enough for every robot a crawler runs as, bounded for batch runs.
const SELECTION_CACHE_SIZE = 256;

/**
 * A file read by the fast scan (scan.ts) rather than line by line: what the policy needs to
 * answer, and how to read the file in full when lines and diagnostics are asked for.
 */
export interface ScannedRobots {
  readonly robotVersion: string | null;
  readonly truncated: boolean;
  readonly grouping: Grouping;
  /** The full reading, for `text` and `diagnostics`. */
  readonly read: () => RobotsText;
}

export class RobotsPolicy {
  readonly dialect: Dialect;
  readonly robotVersion: string | null;
  readonly groups: readonly Group[];
  readonly sitemaps: readonly Sitemap[];
  /** Lines with keys the dialect does not interpret, for later records and tools. */
  readonly extensions: readonly RobotsLine[];
  /** The file was larger than the parse limit; what followed it was ignored. */
  readonly truncated: boolean;
  readonly origin: string | null;
  private readonly ignoreCase: boolean;
  /** The REGP reading, when the dialect is REGP. */
  readonly regp: RegpRules | null;
  /** REGP `Last-modified` (seeds/003 §3.2.2) as an instant, when the file has a readable one. */
  readonly lastModified: number | null;
  private readonly selections = new Map<string, Selection>();
  private readonly byGroups = new Map<string, Selection>();
  private readonly plans = new WeakMap<Selection, AccessPlan>();
  // The last robot asked about: a crawler asks many URLs of a site as one robot.
  private lastAgent: string | null = null;
  private lastToken = "";
  private lastSelection: Selection | null = null;
  private lastKnown: { readonly token: string; selection: Selection | null } | null = null;
  /** Robots asked about, as they named themselves: their token and, once made, their selection. */
  private readonly agents = new Map<
    string,
    { readonly token: string; selection: Selection | null }
  >();
  private readonly scanned: ScannedRobots | null;
  private readText: RobotsText | null;
  private readDiagnostics: readonly Diagnostic[] | null;

  constructor(source: RobotsText | ScannedRobots, options: ParseOptions = {}) {
    const text = "lines" in source ? source : null;
    this.scanned = "lines" in source ? null : source;
    this.readText = text;
    this.robotVersion = source.robotVersion;
    this.dialect = chooseDialect(options.dialect ?? "auto", source.robotVersion);
    const patterns = patternOptions(this.dialect);
    this.ignoreCase = patterns.ignoreCase;
    const grouping =
      text === null ? (this.scanned as ScannedRobots).grouping : buildGroups(text.lines, patterns);
    this.groups = grouping.groups;
    this.sitemaps = grouping.sitemaps;
    this.extensions = grouping.extensions;
    if (this.dialect === "regp") {
      const lines = (text ?? (this.scanned as ScannedRobots).read()).lines;
      const layout = layOut(lines);
      const compiled = compile(layout);
      this.regp = new RegpRules(layout, compiled);
      this.lastModified = compiled.lastModified?.instant ?? null;
      this.readDiagnostics = [...this.text.diagnostics, ...compiled.diagnostics];
    } else {
      this.regp = null;
      this.lastModified = null;
      this.readDiagnostics = text === null ? null : [...text.diagnostics, ...grouping.diagnostics];
    }
    this.truncated = source.truncated;
    this.origin = options.origin === undefined ? null : originOf(options.origin);
  }

  /** The file's lines as the line reader reads them; read when first asked for. */
  get text(): RobotsText {
    if (this.readText === null) this.readText = (this.scanned as ScannedRobots).read();
    return this.readText;
  }

  /** Everything odd about the file; worked out when first asked for (lint asks, a crawler need not). */
  get diagnostics(): readonly Diagnostic[] {
    if (this.readDiagnostics === null) {
      const text = this.text;
      const grouping = buildGroups(text.lines, patternOptions(this.dialect));
      this.readDiagnostics = [...text.diagnostics, ...grouping.diagnostics];
    }
    return this.readDiagnostics;
  }

  /**
   * May the robot fetch `url`? `robot` is its name token, a whole User-Agent header, or a
   * {@link Robot} with the IP and time that REGP rules also weigh.
   */
  check(url: string | URL, robot: string | Robot): Decision {
    const agent = typeof robot === "string" ? robot : robot.agent;
    // What depends only on the robot is worked out once per robot, not once per URL.
    if (agent !== this.lastAgent) {
      let known = this.agents.get(agent);
      if (known === undefined) {
        known = { token: productToken(agent), selection: null };
        if (this.agents.size >= SELECTION_CACHE_SIZE) this.agents.clear();
        this.agents.set(agent, known);
      }
      this.lastAgent = agent;
      this.lastToken = known.token;
      this.lastKnown = known;
      this.lastSelection = known.selection;
    }
    const token = this.lastToken;
    const path = requestPath(url, this.regp === null ? NO_FRAGMENT : KEEP_FRAGMENT);
    if (!path.ok) return this.refuse(token, "invalid-url", path.error);
    if (this.origin !== null && isAbsolute(url) && !this.onOrigin(url)) {
      return this.refuse(token, "other-origin", `${String(url)} is not on ${this.origin}`);
    }
    const target = path.path;
    if (
      target.startsWith("/robots.txt") &&
      (target.length === 11 || target.charCodeAt(11) === 0x3f || target.charCodeAt(11) === 0x23)
    ) {
      return this.answer(true, "robots-txt", token, null, null);
    }
    if (this.regp !== null) {
      const who: Robot = typeof robot === "string" ? { agent: robot } : robot;
      return this.checkRegp(this.regp, target.toLowerCase(), token, who);
    }
    let selection = this.lastSelection;
    if (selection === null) {
      selection = this.select(token);
      this.lastSelection = selection;
      if (this.lastKnown !== null) this.lastKnown.selection = selection;
    }
    if (selection.group === null) return this.byDefault("no-group", token, selection);
    const { order, patterns, masks, seconds } = selection;
    const have = characterMask(target);
    const second = target.length > 1 ? target.charCodeAt(1) : -2;
    for (let i = 0; i < patterns.length; i++) {
      // Cheap refusals first: a needed character missing, or the wrong first letter.
      if (((masks[i] as number) & ~have) !== 0) continue;
      const want = seconds[i] as number;
      if (want !== -1 && want !== second) continue;
      if ((patterns[i] as PathPattern).matches(target)) {
        const rule = order[i] as Rule;
        return this.decided(rule, token, selection);
      }
    }
    return this.byDefault("no-matching-rule", token, selection);
  }

  /** Is an absolute `url` on this policy's origin? A plain prefix needs no URL parse. */
  private onOrigin(url: string | URL): boolean {
    const origin = this.origin as string;
    if (typeof url === "string" && url.startsWith(origin)) {
      const c = url.charCodeAt(origin.length);
      if (Number.isNaN(c) || c === 0x2f || c === 0x3f || c === 0x23) return true;
    }
    return originOf(url) === origin;
  }

  /** `check(url, agent).allowed`. */
  isAllowed(url: string | URL, robot: string | Robot): boolean {
    return this.check(url, robot).allowed;
  }

  /** Crawl-delay in seconds for the robot, or null when its group sets none. */
  crawlDelay(agent: string): number | null {
    if (this.regp !== null) return this.check("/", agent).plan?.crawlDelay?.value ?? null;
    return this.select(productToken(agent)).crawlDelay?.value ?? null;
  }

  /** The groups and rules that apply to a robot (Koster 1996 and RFC 9309). */
  select(token: string): Selection {
    const key = token.toLowerCase();
    let selection = this.selections.get(key);
    if (selection === undefined) {
      const choice = choose(this.dialect, this.groups, key, this.robotVersion);
      // Robots that fall to the same groups (every robot the file does not name) share one selection.
      const groupsKey =
        choice === null
          ? "none"
          : choice.agents.every((a) => a.token === "*")
            ? `*${choice.groups.map((g) => this.groups.indexOf(g)).join(",")}`
            : `=${key}`;
      selection = this.byGroups.get(groupsKey) ?? (choice === null ? NO_SELECTION : made(choice));
      if (this.selections.size >= SELECTION_CACHE_SIZE) {
        this.selections.clear();
        this.byGroups.clear();
      }
      this.selections.set(key, selection);
      this.byGroups.set(groupsKey, selection);
    }
    return selection;
  }

  private answer(
    allowed: boolean,
    reason: Decision["reason"],
    agent: string,
    group: GroupSummary | null,
    rule: Rule | null,
  ): Decision {
    return {
      allowed,
      reason,
      dialect: this.dialect,
      agent,
      group,
      line: rule === null ? null : rule.line,
      rule: rule === null ? null : rule.text,
      next: null,
      plan: this.classicPlan(agent),
    };
  }

  /** A rule decided: the query loop's answer, built with no copying. */
  private decided(rule: Rule, agent: string, selection: Selection): Decision {
    return {
      allowed: rule.allow,
      reason: "rule",
      dialect: this.dialect,
      agent,
      group: selection.group,
      line: rule.line,
      rule: rule.text,
      next: null,
      plan: this.planOf(selection),
    };
  }

  /** Koster 1996 and RFC 9309 plan only the group's Crawl-delay and the file's sitemaps. */
  private classicPlan(agent: string): AccessPlan {
    return this.planOf(this.select(agent));
  }

  /** One plan per selection, made when first needed and shared by its decisions. */
  private planOf(selection: Selection): AccessPlan {
    let plan = this.plans.get(selection);
    if (plan === undefined) {
      const delay = selection.crawlDelay;
      plan = {
        ...EMPTY_PLAN,
        delaySeconds: delay?.value ?? 0,
        crawlDelay: delay,
        sitemaps: this.sitemaps.map((s) => ({ value: s.url, line: s.line })),
      };
      this.plans.set(selection, plan);
    }
    return plan;
  }

  private checkRegp(regp: RegpRules, path: string, token: string, robot: Robot): Decision {
    let ip: IpAddress | null = null;
    if (robot.ip !== undefined) {
      const parsed = parseIp(robot.ip);
      if (!parsed.ok) return this.refuse(token, "invalid-query", parsed.error);
      ip = parsed.value;
    }
    const verdict = regp.decide(path, {
      token: token.toLowerCase(),
      ip,
      at: robot.at,
      languages: robot.languages,
      encodings: robot.encodings,
      charsets: robot.charsets,
    });
    const { plan, next, basis, detail, allowed, reason, group, line, rule } = verdict;
    return {
      allowed,
      reason,
      dialect: this.dialect,
      agent: token,
      group,
      line,
      rule,
      next,
      plan,
      ...(basis === undefined ? {} : { basis }),
      ...(detail === undefined ? {} : { detail }),
    };
  }

  private byDefault(basis: DefaultBasis, agent: string, selection: Selection): Decision {
    return {
      allowed: true,
      reason: "default",
      dialect: this.dialect,
      agent,
      group: selection.group,
      line: null,
      rule: null,
      next: null,
      plan: this.planOf(selection),
      basis,
    };
  }

  private refuse(agent: string, reason: Decision["reason"], error: string): Decision {
    return { ...this.answer(false, reason, agent, null, null), error };
  }
}

/** Parses a robots.txt (bytes or text) into a policy. Never throws on content. */
export function parseRobots(input: string | Uint8Array, options: ParseOptions = {}): RobotsPolicy {
  const choice = options.dialect ?? "auto";
  const readOptions: ReadOptions = {
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(choice === "auto" ? {} : { commentStyle: choice === "regp" ? "double-hash" : "hash" }),
  };
  const decoded = decode(input, options.maxBytes ?? MAX_ROBOTS_BYTES);
  const robotVersion = sniffRobotVersion(decoded.text);
  const dialect = chooseDialect(choice, robotVersion);
  if (dialect === "regp") return new RobotsPolicy(readRobotsText(input, readOptions), options);
  // Koster 1996 and RFC 9309 (`#` comments): the fast scan; lines are read only when asked for.
  const grouping = scanGroups(decoded.text, patternOptions(dialect));
  return new RobotsPolicy(
    {
      robotVersion,
      truncated: decoded.truncated,
      grouping,
      read: () => readRobotsText(input, readOptions),
    },
    options,
  );
}

const NO_FRAGMENT = { keepFragment: false } as const;
const KEEP_FRAGMENT = { keepFragment: true } as const;

function isAbsolute(url: string | URL): boolean {
  return typeof url !== "string" || !url.startsWith("/");
}

const NO_SELECTION: Selection = {
  group: null,
  groups: [],
  order: [],
  patterns: [],
  masks: new Int32Array(0),
  seconds: new Int32Array(0),
  crawlDelay: null,
};

/** The groups that apply to a robot, and the User-agent lines that chose them. */
interface Choice {
  readonly groups: readonly Group[];
  readonly agents: readonly AgentLine[];
  /** Rules in deciding order. */
  readonly order: () => readonly Rule[];
}

function choose(
  dialect: Dialect,
  groups: readonly Group[],
  token: string,
  version: string | null,
): Choice | null {
  return dialect === "koster1996"
    ? chooseKoster(groups, token, version)
    : chooseRfc9309(groups, token);
}

/**
 * RFC 9309 §2.2.1: every group naming the product token (case-insensitive), merged; else
 * every `*` group, merged. §2.2.2: the longest match decides; on a tie Allow wins.
 */
function chooseRfc9309(groups: readonly Group[], token: string): Choice | null {
  let chosen = groups.filter((g) => g.agents.some((a) => a.token === token));
  if (chosen.length === 0) chosen = groups.filter((g) => g.agents.some((a) => a.token === "*"));
  if (chosen.length === 0) return null;
  const agents = chosen.flatMap((g) =>
    g.agents.filter((a) => a.token === token || a.token === "*"),
  );
  const order = () => {
    const rules = chosen.length === 1 ? (chosen[0] as Group).rules : chosen.flatMap((g) => g.rules);
    // One number per rule, computed once: specificity, then Allow before Disallow, then line
    // order (lines < 2^24 and specificity < 2^25 fit a double exactly). Sorting positions by
    // it costs no pattern compilation and no lookup in the comparator.
    const keys = new Float64Array(rules.length);
    const positions = new Uint32Array(rules.length);
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i] as Rule;
      keys[i] =
        (rule.pattern.specificity * 2 + (rule.allow ? 1 : 0)) * 2 ** 24 +
        (2 ** 24 - 1 - Math.min(rule.line, 2 ** 24 - 1));
      positions[i] = i;
    }
    positions.sort((a, b) => (keys[b] as number) - (keys[a] as number));
    return Array.from(positions, (i) => rules[i] as Rule);
  };
  return { groups: chosen, agents, order };
}

/**
 * seeds/004 §3.2.1: the first record with a User-agent value containing the robot's name token
 * (case-insensitive); else the first `*` record. §3.2.2: the first matching line decides.
 * `Robot-version: 1.0` robots predate Allow and ignore it (DESIGN §3).
 */
function chooseKoster(
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
    order: () => (noAllow ? group.rules.filter((r) => !r.allow) : group.rules),
  };
}

function made(choice: Choice): Selection {
  const { groups, agents } = choice;
  const order = choice.order();
  const withDelay = groups.find((g) => g.crawlDelay !== null);
  const crawlDelay =
    withDelay !== undefined && withDelay.crawlDelay !== null && withDelay.crawlDelayLine !== null
      ? { value: withDelay.crawlDelay, line: withDelay.crawlDelayLine }
      : null;
  const patterns = order.map((rule) => rule.pattern);
  return {
    group: { agents: agents.map((a) => a.value), lines: agents.map((a) => a.line) },
    groups,
    order,
    patterns,
    masks: Int32Array.from(patterns, (p) => p.mask),
    seconds: Int32Array.from(patterns, (p) => p.second),
    crawlDelay,
  };
}
