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
import { PathPattern, type PatternOptions } from "./path-pattern.js";
import { agentValueToken } from "./product-token.js";
import { parseSeconds } from "./regp/values/delay.js";

export interface AgentLine {
  /** The value as written. */
  readonly value: string;
  /** Lower-cased product token of the value, or `*`. */
  readonly token: string;
  readonly line: number;
}

/** An Allow or Disallow line. Its pattern is compiled when first asked for. */
export class Rule {
  readonly allow: boolean;
  /** The path pattern as written. */
  readonly source: string;
  readonly line: number;
  /** The line as written, comment removed. */
  readonly text: string;
  private readonly options: PatternOptions;
  private compiled: PathPattern | null = null;

  constructor(allow: boolean, source: string, line: number, text: string, options: PatternOptions) {
    this.allow = allow;
    this.source = source;
    this.line = line;
    this.text = text;
    this.options = options;
  }

  // Most groups of a file are never asked about; compiling on demand keeps parsing cheap.
  get pattern(): PathPattern {
    if (this.compiled === null) this.compiled = new PathPattern(this.source, this.options);
    return this.compiled;
  }
}

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
  const groups: OpenGroup[] = [];
  const sitemaps: Sitemap[] = [];
  const extensions: RobotsLine[] = [];
  const diagnostics: Diagnostic[] = [];
  let current: OpenGroup | null = null;
  let sawRule = false;

  for (const line of lines) {
    switch (line.kind) {
      case "user-agent": {
        if (current === null || sawRule) {
          current = {
            agents: [],
            rules: [],
            crawlDelay: null,
            crawlDelayLine: null,
            extensions: [],
          };
          groups.push(current);
          sawRule = false;
        }
        if (current.agents.length < MAX_AGENTS_PER_GROUP) {
          current.agents.push({
            value: line.value,
            token: agentValueToken(line.value),
            line: line.number,
          });
        } else {
          diagnostics.push(
            warn(
              line,
              "too-many-agents",
              `more than ${MAX_AGENTS_PER_GROUP} User-agent lines in one group; this one is ignored`,
            ),
          );
        }
        break;
      }
      case "allow":
      case "disallow": {
        if (current === null) {
          diagnostics.push(
            warn(
              line,
              "rule-outside-group",
              `"${line.text}" comes before any User-agent line and is ignored`,
            ),
          );
          break;
        }
        sawRule = true;
        const rule = readRule(line, patterns, diagnostics);
        if (rule) current.rules.push(rule);
        break;
      }
      case "sitemap":
        if (line.value !== "") sitemaps.push({ url: line.value, line: line.number });
        break;
      case "crawl-delay": {
        const parsed = parseSeconds(line.value);
        if (!parsed.ok) {
          diagnostics.push(
            warn(line, "bad-crawl-delay", `Crawl-delay "${line.value}": ${parsed.error}`),
          );
        } else if (current === null) {
          diagnostics.push(
            warn(
              line,
              "rule-outside-group",
              "Crawl-delay comes before any User-agent line and is ignored",
            ),
          );
        } else if (current.crawlDelay === null) {
          current.crawlDelay = parsed.value;
          current.crawlDelayLine = line.number;
        }
        break;
      }
      case "extension":
        extensions.push(line);
        current?.extensions.push(line);
        break;
      default:
        break;
    }
  }
  return { groups, sitemaps, extensions, diagnostics };
}

function readRule(
  line: RobotsLine,
  patterns: PatternOptions,
  diagnostics: Diagnostic[],
): Rule | null {
  const allow = line.kind === "allow";
  // seeds/004 §3.2.2 and RFC 9309 §2.2.2: an empty value matches nothing; `Disallow:` allows all.
  if (line.value === "") return null;
  // A cut Allow could allow more than the file says; a cut Disallow only disallows more.
  if (line.truncated && allow) return null;
  const first = line.value.charCodeAt(0);
  if (first !== 0x2f && first !== 0x2a) {
    // RFC 9309 §2.2: rules must start with `/` (or `*`); others cannot match and are not used.
    diagnostics.push(
      warn(line, "bad-path", `path "${line.value}" does not start with "/" or "*" and is ignored`),
    );
    return null;
  }
  return new Rule(allow, line.value, line.number, line.text, patterns);
}

function warn(line: RobotsLine, code: string, message: string): Diagnostic {
  return { line: line.number, severity: "warning", code, message };
}
