/**
 * Groups of a robots.txt: User-agent lines followed by their rules. One reading serves every
 * dialect; dialects differ in which group applies and which rule decides, not in the grouping.
 *
 * RFC 9309 §2.1: a group starts with one or more User-agent lines and ends at the next
 * User-agent line that follows a rule, or at the end of the file. Lines that are neither
 * (Sitemap, Crawl-delay, unknown keys, blank lines) do not end a group (§2.2.4).
 */
import type { Diagnostic } from "./diagnostic.js";
import { MAX_AGENTS_PER_GROUP } from "./limits.js";
import type { RobotsLine } from "./line-reader.js";
import { isPlainLiteral, PathPattern, type PatternOptions } from "./path-pattern.js";
import { agentValueToken } from "./product-token.js";
import { lineTextAt, lineValueAt, lineValueSpan, spanLength, startsWithSpan } from "./rule-line.js";
import { parseSeconds } from "./regp/values/delay.js";

export interface AgentLine {
  /** The value as written. */
  readonly value: string;
  /** Lower-cased product token of the value, or `*`. */
  readonly token: string;
  readonly line: number;
}

/**
 * An Allow or Disallow line. Its value, text and compiled pattern are made when first asked
 * for: a crawler keeps thousands of files' rules and asks about few of them (issue 29: the
 * strings a rule kept made up half of a kept file).
 */
export class Rule {
  readonly line: number;
  /** The file's text, the line's content starting at `at`; or, when `at` is -1, the line's own text. */
  private readonly file: string;
  private readonly at: number;
  /**
   * The value when given (`at` -1); for a plain path found in place, where it is in the line
   * ({@link lineValueSpan}), so no string is kept; else its compiled pattern once made.
   */
  private value: string | number | PathPattern | null;
  /** Allow, the pattern options and the {@link matches} form, as bits: one field, not four. */
  private flags: number;

  constructor(allow: boolean, line: number, options: PatternOptions, place: RulePlace) {
    this.line = line;
    this.file = place.file;
    this.at = place.at;
    this.value = place.value ?? null;
    this.flags =
      (allow ? ALLOW : 0) |
      (options.wildcards ? WILDCARDS : 0) |
      (options.ignoreCase ? IGNORE_CASE : 0);
  }

  get allow(): boolean {
    return (this.flags & ALLOW) !== 0;
  }

  /** The path pattern as written. */
  get source(): string {
    const value = this.value;
    if (typeof value === "string") return value;
    if (value !== null && typeof value !== "number") return value.source;
    return lineValueAt(this.file, this.at);
  }

  /** The line as written, comment removed. */
  get text(): string {
    return this.at < 0 ? this.file : lineTextAt(this.file, this.at);
  }

  private get options(): PatternOptions {
    return OPTIONS[(this.flags >> 1) & 3] as PatternOptions;
  }

  // Most groups of a file are never asked about; compiling on demand keeps parsing cheap.
  get pattern(): PathPattern {
    const value = this.value;
    if (value instanceof PathPattern) return value;
    const compiled = new PathPattern(this.source, this.options);
    this.value = compiled;
    // A plain path keeps its form: it is still matched in place, not by the pattern.
    return compiled;
  }

  /**
   * Does the pattern match this canonical path? A plain path (`/wp-admin/`, most rules) is its
   * own compiled form, a prefix: it is compared as written and never compiled.
   */
  matches(path: string): boolean {
    if (this.formOf() !== LITERAL) return this.pattern.matches(path);
    const value = this.value;
    if (typeof value === "number") return startsWithSpan(path, this.file, this.at, value);
    return path.startsWith(this.source);
  }

  /** The pattern's {@link PathPattern.specificity}, without compiling a plain path. */
  get specificity(): number {
    if (this.formOf() !== LITERAL) return this.pattern.specificity;
    const value = this.value;
    return typeof value === "number" ? spanLength(value) : this.source.length;
  }

  /** True when the pattern is a plain path, matched as written (a prefix) and never compiled. */
  get plain(): boolean {
    return this.formOf() === LITERAL;
  }

  private formOf(): number {
    let form = this.flags & FORM;
    if (form === UNKNOWN) {
      form = isPlainLiteral(this.source, this.options) ? LITERAL : COMPILED;
      this.flags |= form;
      if (form === LITERAL && this.at >= 0 && this.value === null) {
        this.value = lineValueSpan(this.file, this.at);
      }
    }
    return form;
  }
}

/**
 * Where a rule's line is: in the file's text from `at` (the fast scan), or, with `at` -1, the
 * line's own text in `file` and its value given.
 */
export interface RulePlace {
  readonly file: string;
  readonly at: number;
  readonly value?: string;
}

// Rule.flags: bit 0 allow, bits 1-2 the pattern options (an index into OPTIONS), bits 3-4 the form.
const ALLOW = 1;
const WILDCARDS = 2;
const IGNORE_CASE = 4;
const OPTIONS: readonly PatternOptions[] = [
  { wildcards: false, ignoreCase: false },
  { wildcards: true, ignoreCase: false },
  { wildcards: false, ignoreCase: true },
  { wildcards: true, ignoreCase: true },
];
const FORM = 24;
const UNKNOWN = 0;
/** The source is a plain path, canonical as written: a prefix, `specificity` its length. */
const LITERAL = 8;
const COMPILED = 16;

export interface Group {
  readonly agents: readonly AgentLine[];
  /** In file order. */
  readonly rules: readonly Rule[];
  /** Crawl-delay in seconds from the first valid Crawl-delay line of the group, if any. */
  readonly crawlDelay: number | null;
  /** The line it came from. */
  readonly crawlDelayLine: number | null;
  /** Other lines inside the group with keys heed does not interpret here. */
  readonly extensions: readonly RobotsLine[];
}

export interface Sitemap {
  readonly url: string;
  readonly line: number;
}

export interface Grouping {
  readonly groups: readonly Group[];
  readonly sitemaps: readonly Sitemap[];
  /** Every extension line of the file, in order, inside a group or not. */
  readonly extensions: readonly RobotsLine[];
  readonly diagnostics: readonly Diagnostic[];
}

interface OpenGroup {
  agents: AgentLine[];
  rules: Rule[];
  crawlDelay: number | null;
  crawlDelayLine: number | null;
  extensions: RobotsLine[];
}

export function buildGroups(lines: readonly RobotsLine[], patterns: PatternOptions): Grouping {
  const builder = new GroupBuilder(patterns, true);
  for (const line of lines) builder.add(line);
  return builder.finish();
}

/**
 * Builds groups a line at a time. The line reader's lines go through {@link add}; the fast
 * scanner (scan.ts) calls the per-kind methods with values it sliced itself, so both readings
 * share one set of grouping rules. Without `diagnose`, no diagnostic is built (a crawler's
 * parse); lint asks with it.
 */
export class GroupBuilder {
  private readonly groups: OpenGroup[] = [];
  private readonly sitemaps: Sitemap[] = [];
  private readonly extensions: RobotsLine[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private current: OpenGroup | null = null;
  private sawRule = false;

  constructor(
    private readonly patterns: PatternOptions,
    private readonly diagnose: boolean,
  ) {}

  add(line: RobotsLine): void {
    switch (line.kind) {
      case "user-agent":
        this.agent(line.value, line.number);
        break;
      case "allow":
      case "disallow":
        this.rule(
          line.kind === "allow",
          line.value,
          { file: line.text, at: -1, value: line.value },
          line.number,
          line.truncated,
        );
        break;
      case "sitemap":
        this.sitemap(line.value, line.number);
        break;
      case "crawl-delay":
        this.crawlDelay(line.value, line.number);
        break;
      case "extension":
        this.extension(line);
        break;
      default:
        break;
    }
  }

  agent(value: string, number: number): void {
    let current = this.current;
    if (current === null || this.sawRule) {
      current = { agents: [], rules: [], crawlDelay: null, crawlDelayLine: null, extensions: [] };
      this.groups.push(current);
      this.current = current;
      this.sawRule = false;
    }
    if (current.agents.length < MAX_AGENTS_PER_GROUP) {
      current.agents.push({ value, token: agentValueToken(value), line: number });
    } else if (this.diagnose) {
      this.warn(
        number,
        "too-many-agents",
        `more than ${MAX_AGENTS_PER_GROUP} User-agent lines in one group; this one is ignored`,
      );
    }
  }

  /** `place` is where the line is, for the rule to cut its text and value from (see {@link Rule}). */
  rule(allow: boolean, value: string, place: RulePlace, number: number, truncated: boolean): void {
    const current = this.current;
    if (current === null) {
      if (this.diagnose) {
        this.warn(
          number,
          "rule-outside-group",
          `"${place.at < 0 ? place.file : lineTextAt(place.file, place.at)}" comes before any User-agent line and is ignored`,
        );
      }
      return;
    }
    this.sawRule = true;
    // seeds/004 §3.2.2 and RFC 9309 §2.2.2: an empty value matches nothing; `Disallow:` allows all.
    if (value === "") return;
    // A cut Allow could allow more than the file says; a cut Disallow only disallows more.
    if (truncated && allow) return;
    const first = value.charCodeAt(0);
    if (first !== 0x2f && first !== 0x2a) {
      // RFC 9309 §2.2: rules must start with `/` (or `*`); others cannot match and are not used.
      if (this.diagnose) {
        this.warn(
          number,
          "bad-path",
          `path "${value}" does not start with "/" or "*" and is ignored`,
        );
      }
      return;
    }
    current.rules.push(new Rule(allow, number, this.patterns, place));
  }

  sitemap(value: string, number: number): void {
    if (value !== "") this.sitemaps.push({ url: value, line: number });
  }

  crawlDelay(value: string, number: number): void {
    const current = this.current;
    // Only the first valid Crawl-delay of a group counts; later ones need no reading.
    if (!this.diagnose && (current === null || current.crawlDelay !== null)) return;
    const parsed = parseSeconds(value);
    if (!parsed.ok) {
      if (this.diagnose)
        this.warn(number, "bad-crawl-delay", `Crawl-delay "${value}": ${parsed.error}`);
    } else if (current === null) {
      this.warn(
        number,
        "rule-outside-group",
        "Crawl-delay comes before any User-agent line and is ignored",
      );
    } else if (current.crawlDelay === null) {
      current.crawlDelay = parsed.value;
      current.crawlDelayLine = number;
    }
  }

  extension(line: RobotsLine): void {
    this.extensions.push(line);
    this.current?.extensions.push(line);
  }

  finish(): Grouping {
    // A pushed-to array keeps room to grow (17 slots for one rule): a kept policy holds its
    // groups' arrays at their length.
    for (const group of this.groups) {
      group.agents = group.agents.slice();
      group.rules = group.rules.slice();
      if (group.extensions.length > 0) group.extensions = group.extensions.slice();
    }
    return {
      groups: this.groups,
      sitemaps: this.sitemaps,
      extensions: this.extensions,
      diagnostics: this.diagnostics,
    };
  }

  private warn(line: number, code: string, message: string): void {
    this.diagnostics.push({ line, severity: "warning", code, message });
  }
}
