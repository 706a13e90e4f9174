/**
 * A robots.txt compiled once and queried many times. `check` is pure: the same URL and robot
 * always give the same decision. The per-robot selection is cached, which changes speed only.
 */
import type { Decision, DefaultBasis } from "./decision.js";
import type { Diagnostic } from "./diagnostic.js";
import { chooseDialect, type Dialect, type DialectChoice, patternOptions } from "./dialect.js";
import {
  buildGroups,
  type Group,
  type Grouping,
  type Sitemap,
  sitemapsAndExtensions,
} from "./groups.js";
import {
  decode,
  type ReadOptions,
  type RobotsLine,
  type RobotsText,
  readDecoded,
  sniffRobotVersion,
} from "./line-reader.js";
import { MAX_ROBOTS_BYTES } from "./limits.js";
import { closedAt } from "./pace-extensions.js";
import { type AccessPlan, EMPTY_PLAN } from "./plan.js";
import { productToken } from "./product-token.js";
import { compile } from "./regp/compile.js";
import { layOut } from "./regp/layout.js";
import { RegpRules } from "./regp/regp-rules.js";
import { RegpLines } from "./regp/scan.js";
import type { RuleTable } from "./rule-table.js";
import { type IpAddress, parseIp } from "./regp/values/ip.js";
import { rateGapSeconds } from "./regp/values/rate.js";
import { originOf, requestPath } from "./request-path.js";
import { scanRobots } from "./scan.js";
import {
  chooseKoster,
  chooseRfc9309,
  namesToken,
  RobotRules,
  type Selection,
} from "./selection.js";

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

// Selections kept per policy; enough for every robot a crawler runs as, bounded for batch runs.
const SELECTION_CACHE_SIZE = 256;
// And the characters of the tokens they are kept by: a token can be 64 KiB long, and a batch
// keeps up to 64 policies, each asked by 256 robots.
const NAME_CHARS_KEPT = 64 * 1024;

/**
 * A file read by a fast scan rather than line by line: what the policy needs to answer, and
 * how to read the file in full when lines and diagnostics are asked for.
 */
export interface ScannedRobots {
  readonly robotVersion: string | null;
  readonly truncated: boolean;
  /** Koster 1996 and RFC 9309: the groups (scan.ts); REGP: the line table (regp/scan.ts). */
  readonly scan: Grouping | RegpLines;
  /** The full reading, for `text` and `diagnostics`. */
  readonly read: () => RobotsText;
}

/** What a policy answers from, as {@link readingOf} chooses it for the source and dialect. */
interface Reading {
  /** The classic groups; null when made only if asked (REGP answers from its own reading). */
  readonly groups: readonly Group[] | null;
  readonly regp: RegpRules | null;
  readonly sitemaps: readonly Sitemap[];
  /** Null when read again only if asked (a scanned REGP file's, which are most of its lines). */
  readonly extensions: readonly RobotsLine[] | null;
  /** Null when worked out only if asked (a scanned file: lint asks, a crawler need not). */
  readonly diagnostics: readonly Diagnostic[] | null;
}

export class RobotsPolicy {
  readonly dialect: Dialect;
  readonly robotVersion: string | null;
  readonly sitemaps: readonly Sitemap[];
  /** The file was larger than the parse limit; what followed it was ignored. */
  readonly truncated: boolean;
  readonly origin: string | null;
  private readonly ignoreCase: boolean;
  /** The REGP reading, when the dialect is REGP. */
  readonly regp: RegpRules | null;
  /**
   * Each robot's rules by its lower-cased token, and by which groups they come from (keys
   * `\0=token`, `\0*`, `\0none`): robots the file does not name share one. One Map, made at
   * the first question: a crawler keeps many files it has not asked about yet, and a Map
   * holds about 190 bytes before its first entry.
   */
  private selections: Map<string, RobotRules> | null = null;
  // The last robot asked about: a crawler asks many URLs of a site as one robot.
  private lastAgent: string | null = null;
  private lastToken = "";
  private lastRules: RobotRules | null = null;
  private tokenChars = 0;
  /** The plan of every robot whose rules set no pace, made at the first question. */
  private sitemapsPlan: AccessPlan | null = null;
  /** How to read the file in full again: the scan's `read` alone, not its result with it. */
  private readonly readAgain: (() => RobotsText) | null;
  private readText: RobotsText | null;
  private readDiagnostics: readonly Diagnostic[] | null;
  /** Null for REGP until asked: its answers come from its own reading (regp-rules.ts). */
  private builtGroups: readonly Group[] | null;
  private foundExtensions: readonly RobotsLine[] | null;

  constructor(source: RobotsText | ScannedRobots, options: ParseOptions = {}) {
    const text = "lines" in source ? source : null;
    this.readAgain = text === null ? (source as ScannedRobots).read : null;
    this.readText = text;
    this.robotVersion = source.robotVersion;
    this.dialect = chooseDialect(options.dialect ?? "auto", source.robotVersion);
    this.ignoreCase = patternOptions(this.dialect).ignoreCase;
    const reading = readingOf(source, this.dialect, () => this.text);
    this.builtGroups = reading.groups;
    this.regp = reading.regp;
    this.sitemaps = reading.sitemaps;
    this.foundExtensions = reading.extensions;
    this.readDiagnostics = reading.diagnostics;
    this.truncated = source.truncated;
    this.origin = options.origin === undefined ? null : originOf(options.origin);
  }

  /** Lines with keys the dialect does not interpret, for later records and tools. */
  get extensions(): readonly RobotsLine[] {
    // A reading made here is used and let go, as at parse: a kept policy holds no line objects.
    this.foundExtensions ??= sitemapsAndExtensions(
      (this.readText ?? (this.readAgain as () => RobotsText)()).lines,
    ).extensions;
    return this.foundExtensions;
  }

  /** REGP `Last-modified` (seeds/003 §3.2.2) as an instant, when the file has a readable one. */
  get lastModified(): number | null {
    return this.regp?.compiled.lastModified?.instant ?? null;
  }

  /** The file's lines as the line reader reads them; read when first asked for. */
  get text(): RobotsText {
    if (this.readText === null) this.readText = (this.readAgain as () => RobotsText)();
    return this.readText;
  }

  /** The groups of the file's records, as the classic dialects group them (lint reads them). */
  get groups(): readonly Group[] {
    this.builtGroups ??= buildGroups(this.text.lines, patternOptions(this.dialect)).groups;
    return this.builtGroups;
  }

  /** Everything odd about the file; worked out when first asked for (lint asks, a crawler need not). */
  get diagnostics(): readonly Diagnostic[] {
    if (this.readDiagnostics === null) {
      const text = this.text;
      this.readDiagnostics =
        this.regp === null
          ? [
              ...text.diagnostics,
              ...buildGroups(text.lines, patternOptions(this.dialect)).diagnostics,
            ]
          : regpDiagnostics(text);
    }
    return this.readDiagnostics;
  }

  /**
   * May the robot fetch `url`? `robot` is its name token, a whole User-Agent header, or a
   * {@link Robot} with the IP and time that REGP rules also weigh.
   */
  check(url: string | URL, robot: string | Robot): Decision {
    const token = this.tokenFor(typeof robot === "string" ? robot : robot.agent);
    const path = requestPath(url, this.regp === null ? NO_FRAGMENT : KEEP_FRAGMENT);
    if (!path.ok) return this.refuse(token, "invalid-url", path.error);
    if (this.origin !== null && isAbsolute(url) && !this.onOrigin(url)) {
      return this.refuse(token, "other-origin", `${String(url)} is not on ${this.origin}`);
    }
    return this.decidePath(path.path, token, robot);
  }

  /**
   * {@link check} for a request path already in the form {@link requestPath} gives (path and
   * query, canonical; under REGP with the fragment), for callers that found it themselves: it
   * is not read again, and no origin is checked.
   */
  checkRequestPath(path: string, robot: string | Robot): Decision {
    return this.decidePath(
      path,
      this.tokenFor(typeof robot === "string" ? robot : robot.agent),
      robot,
    );
  }

  /** The product token of `agent`; what depends only on the robot is worked out once per robot, not once per URL. */
  private tokenFor(agent: string): string {
    if (agent !== this.lastAgent) {
      this.lastAgent = agent;
      this.lastToken = tokenOf(agent);
      this.lastRules = null;
    }
    return this.lastToken;
  }

  private decidePath(target: string, token: string, robot: string | Robot): Decision {
    if (isRobotsTxt(target)) return this.answer(true, "robots-txt", token);
    if (this.regp !== null) {
      const who: Robot = typeof robot === "string" ? { agent: robot } : robot;
      return this.checkRegp(this.regp, target.toLowerCase(), token, who);
    }
    const rules = this.lastRulesFor(token);
    if (rules.group === null) return this.byDefault("no-group", token, rules);
    if (typeof robot !== "string" && robot.at !== undefined) {
      const closed = this.outsideVisitTime(rules, token, robot.at);
      if (closed !== null) return closed;
    }
    const row = rules.decide(target);
    return row < 0
      ? this.byDefault("no-matching-rule", token, rules)
      : this.decided(rules.table as RuleTable, row, token, rules);
  }

  /** The rules of the robot last asked about (see {@link tokenFor}), worked out once. */
  private lastRulesFor(token: string): RobotRules {
    let rules = this.lastRules;
    if (rules === null) {
      rules = this.rulesFor(token);
      this.lastRules = rules;
    }
    return rules;
  }

  /**
   * Koster 1996 and RFC 9309: the robot comes outside every Visit-time of its groups (read as
   * an extension, pace-extensions.ts). As under REGP, a closed window refuses every path.
   */
  private outsideVisitTime(rules: RobotRules, token: string, at: number): Decision | null {
    const closed = closedAt(rules.pace, at);
    if (closed === null) return null;
    return {
      allowed: false,
      reason: "time",
      dialect: this.dialect,
      agent: token,
      group: rules.group,
      line: closed.time.line,
      rule: closed.time.text,
      next: closed.next,
      plan: this.planOf(rules),
      detail: rules.pace.times.map((t) => t.text).join("; "),
    };
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

  /**
   * `check(url, agent).allowed`, without the explanation: a crawler asking about every URL of
   * a site pays for no decision object, deciding line's text or plan.
   */
  isAllowed(url: string | URL, robot: string | Robot): boolean {
    if (this.regp !== null) return this.allowsUnderRegp(this.regp, url, robot);
    // A Visit-time needs the time: check's way.
    if (typeof robot !== "string" && robot.at !== undefined) return this.check(url, robot).allowed;
    const token = this.tokenFor(typeof robot === "string" ? robot : robot.agent);
    const path = requestPath(url, NO_FRAGMENT);
    if (!path.ok) return false;
    if (this.origin !== null && isAbsolute(url) && !this.onOrigin(url)) return false;
    if (isRobotsTxt(path.path)) return true;
    const rules = this.lastRulesFor(token);
    if (rules.group === null) return true;
    const row = rules.decide(path.path);
    return row < 0 || (rules.table as RuleTable).allow(row);
  }

  /**
   * {@link isAllowed} under REGP. A robot with a moment or supported languages, encodings or
   * charsets may be refused by a window or a requirement, which the plan holds: check's way.
   * Any other is refused only by its IP group or a path group, asked without a plan.
   */
  private allowsUnderRegp(regp: RegpRules, url: string | URL, robot: string | Robot): boolean {
    if (
      typeof robot !== "string" &&
      (robot.at !== undefined ||
        robot.languages !== undefined ||
        robot.encodings !== undefined ||
        robot.charsets !== undefined)
    ) {
      return this.check(url, robot).allowed;
    }
    const token = this.tokenFor(typeof robot === "string" ? robot : robot.agent);
    const path = requestPath(url, KEEP_FRAGMENT);
    if (!path.ok) return false;
    if (this.origin !== null && isAbsolute(url) && !this.onOrigin(url)) return false;
    if (isRobotsTxt(path.path)) return true;
    let ip: IpAddress | null = null;
    if (typeof robot !== "string" && robot.ip !== undefined) {
      const parsed = parseIp(robot.ip);
      if (!parsed.ok) return false;
      ip = parsed.value;
    }
    return regp.allows(path.path.toLowerCase(), token.toLowerCase(), ip);
  }

  /** Crawl-delay in seconds for the robot, or null when its group sets none. */
  crawlDelay(agent: string): number | null {
    if (this.regp !== null) return this.check("/", agent).plan?.crawlDelay?.value ?? null;
    return this.rulesFor(tokenOf(agent)).crawlDelay?.value ?? null;
  }

  /** The groups and rules that apply to a robot (Koster 1996 and RFC 9309). */
  select(token: string): Selection {
    return this.rulesFor(token).selection();
  }

  private rulesFor(token: string): RobotRules {
    const key = token.toLowerCase();
    let rules = this.selections?.get(key);
    if (rules === undefined) {
      if (this.dialect === "koster1996") {
        const choice = chooseKoster(this.groups, key, this.robotVersion);
        // Robots that fall to the `*` record (every robot the file does not name) share one selection.
        const groupsKey =
          choice === null ? "none" : choice.agents.every((a) => a.token === "*") ? "*" : `=${key}`;
        rules = this.selections?.get(`\0${groupsKey}`) ?? new RobotRules(choice);
        this.remember(key, groupsKey, rules);
      } else {
        const named = namesToken(this.groups, key);
        // Robots the file does not name share the `*` groups' selection, made once.
        const groupsKey = named ? `=${key}` : "*";
        rules =
          this.selections?.get(`\0${groupsKey}`) ??
          new RobotRules(chooseRfc9309(this.groups, key, named));
        this.remember(key, groupsKey, rules);
      }
    }
    return rules;
  }

  private remember(key: string, groupsKey: string, rules: RobotRules): void {
    const selections = (this.selections ??= new Map());
    if (selections.size >= 2 * SELECTION_CACHE_SIZE || this.tokenChars >= NAME_CHARS_KEPT) {
      selections.clear();
      this.tokenChars = 0;
    }
    selections.set(key, rules);
    selections.set(`\0${groupsKey}`, rules);
    this.tokenChars += key.length + groupsKey.length;
  }

  /** An answer no rule gave (`/robots.txt` itself, a URL refused before any rule is asked). */
  private answer(allowed: boolean, reason: Decision["reason"], agent: string): Decision {
    return {
      allowed,
      reason,
      dialect: this.dialect,
      agent,
      group: null,
      line: null,
      rule: null,
      next: null,
      plan: this.classicPlan(agent),
    };
  }

  /** Row `row` of the table decided: the query loop's answer, built with no copying. */
  private decided(table: RuleTable, row: number, agent: string, rules: RobotRules): Decision {
    return {
      allowed: table.allow(row),
      reason: "rule",
      dialect: this.dialect,
      agent,
      group: rules.group,
      line: table.line(row),
      rule: table.text(row),
      next: null,
      plan: this.planOf(rules),
    };
  }

  /**
   * Koster 1996 and RFC 9309 plan the group's Crawl-delay, Request-rate and Visit-time (the
   * last two read as extensions) and the file's sitemaps.
   */
  private classicPlan(agent: string): AccessPlan {
    return this.planOf(this.rulesFor(agent));
  }

  /** One plan per robot's rules, made when first needed and shared by its decisions. */
  private planOf(rules: RobotRules): AccessPlan {
    let plan = rules.plan;
    if (plan === null) {
      const delay = rules.crawlDelay;
      const { rate, times } = rules.pace;
      // Most robots' rules set no pace: they share one plan, the file's sitemaps only.
      this.sitemapsPlan ??= {
        ...EMPTY_PLAN,
        sitemaps: this.sitemaps.map((s) => ({ value: s.url, line: s.line })),
      };
      plan =
        delay === null && rate === null && times.length === 0
          ? this.sitemapsPlan
          : {
              ...this.sitemapsPlan,
              // As REGP plans it: the larger of the delay and the gap the rate implies.
              delaySeconds: Math.max(delay?.value ?? 0, rate === null ? 0 : rateGapSeconds(rate)),
              crawlDelay: delay,
              rates: rate === null ? [] : [rate],
              times,
            };
      rules.plan = plan;
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
    // Filled in place, not spread: a spread of optional parts cost REGP's query a third of its time.
    const decision: { -readonly [K in keyof Decision]: Decision[K] } = {
      allowed,
      reason,
      dialect: this.dialect,
      agent: token,
      group,
      line,
      rule,
      next,
      plan,
    };
    if (basis !== undefined) decision.basis = basis;
    if (detail !== undefined) decision.detail = detail;
    return decision;
  }

  private byDefault(basis: DefaultBasis, agent: string, rules: RobotRules): Decision {
    return {
      allowed: true,
      reason: "default",
      dialect: this.dialect,
      agent,
      group: rules.group,
      line: null,
      rule: null,
      next: null,
      plan: this.planOf(rules),
      basis,
    };
  }

  private refuse(agent: string, reason: Decision["reason"], error: string): Decision {
    return { ...this.answer(false, reason, agent), error };
  }
}

/**
 * What a policy answers from. A reading given is built from and let go; a scanned file keeps
 * its scan's result. Under REGP the scopes are compiled from the scan's line table at the first
 * question, and the layout is made again from a full reading (`text`) when asked.
 */
function readingOf(
  source: RobotsText | ScannedRobots,
  dialect: Dialect,
  text: () => RobotsText,
): Reading {
  if ("lines" in source) {
    if (dialect === "regp") {
      const compiled = compile(layOut(source.lines));
      const { sitemaps, extensions } = sitemapsAndExtensions(source.lines);
      return {
        groups: null,
        regp: new RegpRules(() => layOut(text().lines), compiled),
        sitemaps,
        extensions,
        diagnostics: [...source.diagnostics, ...compiled.diagnostics],
      };
    }
    const grouping = buildGroups(source.lines, patternOptions(dialect));
    return {
      groups: grouping.groups,
      regp: null,
      sitemaps: grouping.sitemaps,
      extensions: grouping.extensions,
      diagnostics: [...source.diagnostics, ...grouping.diagnostics],
    };
  }
  const scan = source.scan;
  if (scan instanceof RegpLines) {
    return {
      groups: null,
      regp: new RegpRules(() => layOut(text().lines), scan),
      sitemaps: scan.sitemaps,
      extensions: null,
      diagnostics: null,
    };
  }
  return {
    groups: scan.groups,
    regp: null,
    sitemaps: scan.sitemaps,
    extensions: scan.extensions,
    diagnostics: null,
  };
}

/** A REGP file's diagnostics: its reading's, then those of its values (compile.ts). */
function regpDiagnostics(text: RobotsText): readonly Diagnostic[] {
  return [...text.diagnostics, ...compile(layOut(text.lines)).diagnostics];
}

// The reading options of a parse given neither a dialect nor a size limit, shared: a policy
// keeps its options, to read its file again when asked.
const DEFAULT_READ: ReadOptions = Object.freeze({});

/** Parses a robots.txt (bytes or text) into a policy. Never throws on content. */
export function parseRobots(input: string | Uint8Array, options: ParseOptions = {}): RobotsPolicy {
  const choice = options.dialect ?? "auto";
  const readOptions: ReadOptions =
    options.maxBytes === undefined && choice === "auto"
      ? DEFAULT_READ
      : {
          ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
          ...(choice === "auto"
            ? {}
            : { commentStyle: choice === "regp" ? "double-hash" : "hash" }),
        };
  const decoded = decode(input, options.maxBytes ?? MAX_ROBOTS_BYTES);
  // Koster 1996 and RFC 9309 (`#` comments): the fast scan, which also finds the Robot-version
  // and stops where the header makes the file REGP. REGP: its own scan (`##` comments, braces).
  // Lines are read only when asked for.
  const classic = choice === "regp" ? null : scanRobots(decoded.text, choice);
  const robotVersion = classic === null ? sniffRobotVersion(decoded.text) : classic.robotVersion;
  const scan = classic?.grouping ?? RegpLines.scan(decoded.text);
  return new RobotsPolicy(
    {
      robotVersion,
      truncated: decoded.truncated,
      scan,
      // The decoding, not the input: a kept policy holds its text once, not its bytes as well.
      read: () => readDecoded(decoded, readOptions),
    },
    options,
  );
}

// Product tokens of the robots asked about, across policies: a batch or a crawler asks the
// same few robots of every file. Bounded; productToken is pure, so this changes speed only.
const TOKENS = new Map<string, string>();
const TOKENS_KEPT = 1024;
let tokenNameChars = 0;

function tokenOf(agent: string): string {
  let token = TOKENS.get(agent);
  if (token === undefined) {
    token = ownString(productToken(agent));
    if (TOKENS.size >= TOKENS_KEPT || tokenNameChars >= 4 * NAME_CHARS_KEPT) {
      TOKENS.clear();
      tokenNameChars = 0;
    }
    TOKENS.set(ownString(agent), token);
    tokenNameChars += agent.length + token.length;
  }
  return token;
}

/**
 * `text` as a string of its own, for a robot's name or token kept as a key where only its own
 * characters are counted (a policy's robots and selections, the shared tokens, a batch's JSON
 * token fields). A string cut from a longer one is, in V8, a view of the whole (from 13
 * characters on): a token cut from a name kept the name, a name cut from a batch's query line
 * (`--batch` lines with an IP field) kept the line, up to 64 KiB each.
 */
function ownString(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** `/robots.txt` itself, always allowed (seeds/004 §3.2.2; RFC 9309 §2.2.2). */
function isRobotsTxt(target: string): boolean {
  return (
    target.startsWith("/robots.txt") &&
    (target.length === 11 || target.charCodeAt(11) === 0x3f || target.charCodeAt(11) === 0x23)
  );
}

const NO_FRAGMENT = { keepFragment: false } as const;
const KEEP_FRAGMENT = { keepFragment: true } as const;

function isAbsolute(url: string | URL): boolean {
  return typeof url !== "string" || !url.startsWith("/");
}
