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
import type { PatternOptions } from "./path-pattern.js";
import { agentValueToken } from "./product-token.js";
import { lineTextAt, lineValueAt, valueSpan } from "./rule-line.js";
import { type GivenRule, type Rule, type RowReader, RuleTable } from "./rule-table.js";
import { parseSeconds } from "./regp/values/delay.js";

export interface AgentLine {
  /** The value as written. */
  readonly value: string;
  /** Lower-cased product token of the value, or `*`. */
  readonly token: string;
  readonly line: number;
}

export { Rule } from "./rule-table.js";

export interface Group {
  readonly agents: readonly AgentLine[];
  /** In file order; made when first asked for (the query loop reads {@link table}). */
  readonly rules: readonly Rule[];
  /** The file's rules; this group's are rows {@link from} to {@link to} (exclusive). */
  readonly table: RuleTable;
  readonly from: number;
  readonly to: number;
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

// What a group or a file has none of, shared: most groups have no extension, most files no
// diagnostic once read by the fast scan, and a kept empty array is 32 bytes of its own.
const NO_EXTENSIONS: readonly RobotsLine[] = Object.freeze([]);
const NO_SITEMAPS: readonly Sitemap[] = Object.freeze([]);
const NO_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze([]);

/** What few groups have: a Crawl-delay, extension lines, or a caller that asked for its rules. */
interface GroupExtras {
  views: readonly Rule[] | null;
  crawlDelay: number | null;
  crawlDelayLine: number | null;
  extensions: readonly RobotsLine[];
}

/**
 * A group as built and kept: its rules are a run of the file's table, made objects only when
 * asked. The builder fills it in place; callers see it as a read-only {@link Group}. What most
 * groups have none of is one field, null until needed: a field is 8 bytes, and a real file's
 * groups are many (8,652 in the real files).
 *
 * A group found by the fast scan reads its rules into the table when they are first asked for:
 * a crawler asks one robot's question of most files it keeps, which one group or two answer.
 * Until then it keeps where its lines are and how many rule lines they hold.
 */
class TableGroup implements Group {
  agents: AgentLine[];
  /** Its rows, {@link first} to {@link last}; while unread, `last` counts its rule lines. */
  first: number;
  last: number;
  private extras: GroupExtras | null = null;
  /** Where its first line starts in the file while its rules are unread; -1 once read. */
  private start: number;
  /** Where its lines end in the file (the next group's first line, or the file's end). */
  stop: number;

  constructor(
    readonly table: RuleTable,
    first: AgentLine,
    /** Where its first line starts, for a group whose rules are read when asked for; else -1. */
    start: number,
  ) {
    // An array made with its one element holds no room to grow, as a pushed-to one would.
    this.agents = [first];
    this.first = start < 0 ? table.size : 0;
    this.last = this.first;
    this.start = start;
    this.stop = table.file.length;
  }

  get from(): number {
    if (this.start >= 0) this.read();
    return this.first;
  }

  get to(): number {
    if (this.start >= 0) this.read();
    return this.last;
  }

  private read(): void {
    const { table, start } = this;
    const count = this.last;
    this.start = -1;
    this.first = table.size;
    this.last = this.first;
    if (count === 0) return;
    table.readGroup(start, this.stop, (this.agents[0] as AgentLine).line, count);
    this.last = table.size;
  }

  get rules(): readonly Rule[] {
    const extras = this.extrasMade();
    if (extras.views === null) {
      const views: Rule[] = [];
      const to = this.to;
      for (let i = this.first; i < to; i++) views.push(this.table.view(i));
      extras.views = views;
    }
    return extras.views;
  }

  get crawlDelay(): number | null {
    return this.extras === null ? null : this.extras.crawlDelay;
  }

  get crawlDelayLine(): number | null {
    return this.extras === null ? null : this.extras.crawlDelayLine;
  }

  get extensions(): readonly RobotsLine[] {
    return this.extras === null ? NO_EXTENSIONS : this.extras.extensions;
  }

  setCrawlDelay(seconds: number, line: number): void {
    const extras = this.extrasMade();
    extras.crawlDelay = seconds;
    extras.crawlDelayLine = line;
  }

  addExtension(line: RobotsLine): void {
    const extras = this.extrasMade();
    if (extras.extensions === NO_EXTENSIONS) extras.extensions = [line];
    else (extras.extensions as RobotsLine[]).push(line);
  }

  /** Its arrays at their length: a pushed-to array keeps room to grow (17 slots for one entry). */
  trim(): void {
    if (this.agents.length > 1) this.agents = this.agents.slice();
    const extras = this.extras;
    if (extras !== null && extras.extensions.length > 1) {
      extras.extensions = extras.extensions.slice();
    }
  }

  private extrasMade(): GroupExtras {
    this.extras ??= {
      views: null,
      crawlDelay: null,
      crawlDelayLine: null,
      extensions: NO_EXTENSIONS,
    };
    return this.extras;
  }
}

export function buildGroups(lines: readonly RobotsLine[], patterns: PatternOptions): Grouping {
  const builder = GroupBuilder.eager(patterns, true);
  for (const line of lines) builder.add(line, -1);
  return builder.finish();
}

/**
 * The sitemaps and extension lines of `lines`, as {@link buildGroups} finds them, without
 * building its groups: a REGP policy answers from its own reading and keeps only these two.
 */
export function sitemapsAndExtensions(
  lines: readonly RobotsLine[],
): Pick<Grouping, "sitemaps" | "extensions"> {
  const builder = GroupBuilder.eager(NO_PATTERN_OPTIONS, false);
  for (const line of lines) {
    if (line.kind === "sitemap") builder.sitemap(line.value, line.number);
    else if (line.kind === "extension") builder.extension(line);
  }
  return builder.finish();
}

// No rule is added by sitemapsAndExtensions or a lazy parse (its groups read theirs with the
// table's options): any options serve.
const NO_PATTERN_OPTIONS: PatternOptions = { wildcards: false, ignoreCase: false };

// How a builder takes rules: added to the table as they are read (lint's reading, the line
// reader's); counted for their group to read when asked for (the fast scan's parse); or the
// only lines it is given, of one group being read (TableGroup's read).
const EAGER = 0;
const LAZY = 1;
const FILL = 2;
type Mode = typeof EAGER | typeof LAZY | typeof FILL;

/**
 * Builds groups a line at a time. The line reader's lines go through {@link add}; the fast
 * scanner (scan.ts) calls the per-kind methods with values it sliced itself, so both readings
 * share one set of grouping rules. Without `diagnose`, no diagnostic is built (a crawler's
 * parse); lint asks with it.
 */
export class GroupBuilder {
  private readonly groups: TableGroup[] = [];
  private readonly sitemaps: Sitemap[] = [];
  private readonly extensions: RobotsLine[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private current: TableGroup | null = null;
  private sawRule = false;

  private constructor(
    private readonly patterns: PatternOptions,
    private readonly diagnose: boolean,
    /** The file's rules. */
    readonly table: RuleTable,
    private readonly mode: Mode,
  ) {}

  /** Groups of lines given whole ({@link add}), every rule added as it comes. */
  static eager(patterns: PatternOptions, diagnose: boolean): GroupBuilder {
    return new GroupBuilder(patterns, diagnose, new RuleTable(""), EAGER);
  }

  /**
   * Groups of `file` as the fast scan reads it: each group reads its rules with `readRows`
   * when they are first asked for; until then a rule line is only counted.
   */
  static lazy(file: string, readRows: RowReader): GroupBuilder {
    return new GroupBuilder(NO_PATTERN_OPTIONS, false, new RuleTable(file, readRows), LAZY);
  }

  /** The rules of one group's lines, as the next rows of `table` (a {@link RowReader}'s). */
  static filling(table: RuleTable): GroupBuilder {
    return new GroupBuilder(table.patterns, false, table, FILL);
  }

  /** `at`: where the line starts in the builder's file (-1 for lines given whole). */
  add(line: RobotsLine, at: number): void {
    if (this.mode === FILL && line.kind !== "allow" && line.kind !== "disallow") return;
    switch (line.kind) {
      case "user-agent":
        this.agent(line.value, line.number, at);
        break;
      case "allow":
      case "disallow":
        // The rule keeps its value and text, not the whole line: a policy need not keep the
        // line reader's lines once its groups are built.
        this.rule(line.kind === "allow", line.value, -1, line.number, line.truncated, {
          value: line.value,
          text: line.text,
        });
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

  /** A User-agent line starting at `at` in the builder's file (-1 for a line given whole). */
  agent(value: string, number: number, at: number): void {
    if (this.mode === FILL) return;
    const current = this.current;
    if (current === null || this.sawRule) {
      const first = { value, token: agentValueToken(value), line: number };
      if (current !== null && this.mode === LAZY) current.stop = at;
      this.current = new TableGroup(this.table, first, this.mode === LAZY ? at : -1);
      this.groups.push(this.current);
      this.sawRule = false;
    } else if (current.agents.length < MAX_AGENTS_PER_GROUP) {
      current.agents.push({ value, token: agentValueToken(value), line: number });
    } else if (this.diagnose) {
      this.warn(
        number,
        "too-many-agents",
        `more than ${MAX_AGENTS_PER_GROUP} User-agent lines in one group; this one is ignored`,
      );
    }
  }

  /**
   * `at` is where the line's content starts in the builder's file, for the rule to cut its
   * text and value from when asked; -1 with `given`, the line as the line reader read it.
   */
  rule(
    allow: boolean,
    value: string,
    at: number,
    number: number,
    truncated: boolean,
    given?: GivenRule,
  ): void {
    if (this.mode === LAZY) {
      this.countRule();
      return;
    }
    const first = value === "" ? -1 : value.charCodeAt(0);
    if (!this.admits(allow, first, number, truncated, given, at)) return;
    this.added(this.table.add(allow, number, this.patterns, at, given));
  }

  /**
   * A rule the fast scan found in place, its value `file[from, to)` as trimmed, its line's
   * content starting at `at`: nothing is cut, and the value's place is kept as found.
   */
  ruleInPlace(allow: boolean, at: number, from: number, to: number, number: number): void {
    const first = from < to ? this.table.file.charCodeAt(from) : -1;
    if (!this.admits(allow, first, number, false, undefined, at)) return;
    const span = valueSpan(from - at, to - from);
    this.added(this.table.add(allow, number, this.patterns, at, undefined, span));
  }

  /** Only the rules of one group are read: no other line is wanted. */
  get rulesOnly(): boolean {
    return this.mode === FILL;
  }

  /** Rules are only counted, for their group to read when asked for (the lazy parse). */
  get countsRules(): boolean {
    return this.mode === LAZY;
  }

  /** A rule line of the open group, for it to read when asked for (the lazy parse). */
  countRule(): void {
    const current = this.current;
    if (current === null) return;
    this.sawRule = true;
    current.last++;
    this.table.unread++;
  }

  /** Row `row` was added: the open group's last, unless one group is being read (FILL). */
  private added(row: number): void {
    if (this.mode === EAGER) (this.current as TableGroup).last = row + 1;
  }

  /** Is a rule whose value starts with character `first` (-1: empty) kept in the open group? */
  private admits(
    allow: boolean,
    first: number,
    number: number,
    truncated: boolean,
    given: GivenRule | undefined,
    at: number,
  ): boolean {
    if (this.current === null && this.mode !== FILL) {
      if (this.diagnose) {
        this.warn(
          number,
          "rule-outside-group",
          `"${given === undefined ? lineTextAt(this.table.file, at) : given.text}" comes before any User-agent line and is ignored`,
        );
      }
      return false;
    }
    this.sawRule = true;
    // seeds/004 §3.2.2 and RFC 9309 §2.2.2: an empty value matches nothing; `Disallow:` allows all.
    if (first < 0) return false;
    // A cut Allow could allow more than the file says; a cut Disallow only disallows more.
    if (truncated && allow) return false;
    if (first !== 0x2f && first !== 0x2a) {
      // RFC 9309 §2.2: rules must start with `/` (or `*`); others cannot match and are not used.
      if (this.diagnose) {
        const value = given === undefined ? lineValueAt(this.table.file, at) : given.value;
        this.warn(
          number,
          "bad-path",
          `path "${value}" does not start with "/" or "*" and is ignored`,
        );
      }
      return false;
    }
    return true;
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
      current.setCrawlDelay(parsed.value, number);
    }
  }

  extension(line: RobotsLine): void {
    this.extensions.push(line);
    this.current?.addExtension(line);
  }

  /** `patterns`: the options a lazy parse's groups read their rules with, once known. */
  finish(patterns?: PatternOptions): Grouping {
    if (patterns !== undefined) this.table.patterns = patterns;
    this.table.finish();
    for (const group of this.groups) group.trim();
    return {
      groups: this.groups.slice(),
      sitemaps: this.sitemaps.length > 0 ? this.sitemaps.slice() : NO_SITEMAPS,
      extensions: this.extensions.length > 0 ? this.extensions.slice() : NO_EXTENSIONS,
      diagnostics: this.diagnostics.length > 0 ? this.diagnostics : NO_DIAGNOSTICS,
    };
  }

  private warn(line: number, code: string, message: string): void {
    this.diagnostics.push({ line, severity: "warning", code, message });
  }
}
