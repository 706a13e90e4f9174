/**
 * From the layout to typed scopes: every REGP field read by its own parser (seeds/003
 * Table 3), a value that cannot be read reported on its line and left out.
 */
import type { Diagnostic } from "../diagnostic.js";
import type { PathPattern } from "../path-pattern.js";
import { sharedPattern } from "../rule-table.js";
import type { ChangeFrequency } from "../plan.js";
import { readField } from "./fields.js";
import type { Block, Content, Directive, RegpLayout, Target } from "./layout.js";
import type { GroupLine } from "./last-match.js";
import { PathGroup, type PathLineSource } from "./path-group.js";
import type { AcceptItem } from "./values/accept-list.js";
import type { CookiePair } from "./values/cookie.js";
import { formatHost } from "./values/host.js";
import { type IpPattern, parseIpPattern } from "./values/ip.js";
import { parsePathValue } from "./values/path-value.js";
import type { Rate } from "./values/rate.js";
import type { ValueResult } from "./values/result.js";
import { instantOf, parseDateTime, type TimeSpan } from "./values/rfc822-time.js";

// seeds/003 §3.2.5: paths are case-insensitive, with `*` and `$`.
const PATTERNS = { wildcards: true, ignoreCase: true } as const;

export type { PathLine } from "./path-group.js";

export interface IpLine extends GroupLine {
  readonly pattern: IpPattern;
}

export interface CompiledTarget {
  /** Lower-cased User-agent values; `*` for any. Empty: no narrowing by name. */
  readonly agents: readonly string[];
  readonly agentLines: readonly number[];
  readonly ips: readonly IpLine[];
  readonly paths: PathGroup;
}

interface Base<K extends string> {
  readonly kind: K;
  readonly line: number;
  readonly text: string;
}

export type Setting =
  | (Base<"crawl-delay" | "ip-delay"> & { readonly seconds: number })
  | (Base<"request-rate" | "ip-rate"> & { readonly rate: Rate })
  | (Base<"visit-time" | "time-forbidden"> & { readonly span: TimeSpan })
  | (Base<"language" | "encoding" | "charset"> & { readonly items: readonly AcceptItem[] })
  | (Base<"cookie"> & { readonly pairs: readonly CookiePair[] })
  | (Base<"mirror-site" | "host"> & { readonly host: string })
  | (Base<"sitemap"> & { readonly url: string })
  | (Base<"index-page"> & { readonly pattern: PathPattern })
  | (Base<"change"> & { readonly frequency: ChangeFrequency; readonly pattern: PathPattern });

export interface Scope {
  readonly line: number;
  readonly depth: number;
  readonly target: CompiledTarget;
  /** The path group of a sequence or of the global section (blocks have none: their paths are target). */
  readonly rules: PathGroup;
  readonly settings: readonly Setting[];
  readonly blocks: readonly Scope[];
}

export interface CompiledRegp {
  readonly sequences: readonly (Scope & { readonly impliedAgent: boolean })[];
  readonly global: Scope;
  /** seeds/003 §3.2.2: when the file says it last changed; `instant` null when unreadable. */
  readonly lastModified: {
    readonly text: string;
    readonly line: number;
    readonly instant: number | null;
  } | null;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads the values of a laid-out file. `file` is the text the directives were read from (their
 * `at`), which path groups then read their lines from in place.
 */
export function compile(layout: RegpLayout, file = ""): CompiledRegp {
  const diagnostics: Diagnostic[] = [...layout.diagnostics];
  const bad = (d: Directive, error: string) => {
    diagnostics.push({
      line: d.line,
      severity: "warning",
      code: "bad-value",
      message: `${displayName(d.key)} "${d.value}": ${error}; the line is ignored`,
    });
  };
  const read = <T>(d: Directive, result: ValueResult<T>): T | null => {
    if (result.ok) return result.value;
    bad(d, result.error);
    return null;
  };

  const paths = (lines: readonly Directive[]): PathGroup =>
    PathGroup.of(
      lines.flatMap((d): PathLineSource[] => {
        // An empty Allow or Disallow names no path: no rule, as in the classic dialects.
        if (d.value === "") return [];
        const path = read(d, parsePathValue(d.value));
        if (path === null) return [];
        return [
          {
            allow: d.key === "allow",
            line: d.line,
            text: d.text,
            at: file === "" ? -1 : (d.at ?? -1),
            path,
          },
        ];
      }),
      file,
    );

  const target = (t: Target): CompiledTarget => ({
    agents: orNone(t.agents.filter((d) => d.value !== "").map((d) => d.value.toLowerCase())),
    agentLines: orNone(t.agents.map((d) => d.line)),
    ips: orNone(
      t.ips.flatMap((d) => {
        const pattern = read(d, parseIpPattern(d.value));
        if (pattern === null) return [];
        return [
          {
            allow: d.key === "ip-allow",
            everything: pattern.kind === "any",
            line: d.line,
            text: d.text,
            pattern,
          },
        ];
      }),
    ),
    paths: paths(t.paths),
  });

  const setting = (d: Directive): Setting | null => {
    const field = readField(d);
    if (field === null) return null; // an extension: kept in the policy's extensions
    const value = read(d, field);
    if (value === null) return null;
    // Each setting written out whole, not spread: a spread made every setting an object with
    // a hidden class of its own, as a kept file's sequences were (issue 29).
    const { line, text } = d;
    switch (value.kind) {
      case "crawl-delay":
      case "ip-delay":
        return { line, text, kind: value.kind, seconds: value.seconds };
      case "request-rate":
      case "ip-rate":
        return { line, text, kind: value.kind, rate: value.rate };
      case "visit-time":
      case "time-forbidden":
        return { line, text, kind: value.kind, span: value.span };
      case "language":
      case "encoding":
      case "charset":
        return { line, text, kind: value.kind, items: value.items };
      case "cookie":
        return { line, text, kind: value.kind, pairs: value.pairs };
      case "sitemap":
        return { line, text, kind: value.kind, url: value.url };
      case "mirror-site":
      case "host":
        return { line, text, kind: value.kind, host: formatHost(value.host) };
      case "index-page":
        return withPattern({ line, text, kind: value.kind }, value.path);
      case "change":
        return withPattern(
          { line, text, kind: value.kind, frequency: value.frequency },
          value.path,
        );
    }
  };

  const scope = (line: number, depth: number, t: CompiledTarget, content: Content): Scope => ({
    line,
    depth,
    target: t,
    rules: paths(content.rules),
    settings: orNone(content.directives.map(setting).filter((s): s is Setting => s !== null)),
    blocks: orNone(
      content.blocks.map((b: Block) => scope(b.line, b.depth, target(b.target), b.content)),
    ),
  });

  const noTarget: CompiledTarget = {
    agents: NONE,
    agentLines: NONE,
    ips: NONE,
    paths: PathGroup.of([]),
  };
  const lastModifiedLine = layout.header.find((d) => d.key === "last-modified");
  return {
    sequences: layout.sequences.map((s) => {
      const {
        line,
        depth,
        target: t,
        rules,
        settings,
        blocks,
      } = scope(s.line, 0, target(s.target), s.content);
      return { line, depth, target: t, rules, settings, blocks, impliedAgent: s.impliedAgent };
    }),
    global: scope(0, 0, noTarget, layout.global),
    lastModified:
      lastModifiedLine === undefined ? null : readLastModified(lastModifiedLine, diagnostics),
    diagnostics,
  };
}

/**
 * `setting` with the pattern of its Index-page or Change-* path, compiled at its first use and
 * shared with every rule written the same way (rule-table.ts): a policy plans pages only for
 * the robots that ask.
 */
function withPattern<T extends object>(
  setting: T,
  path: string,
): T & { readonly pattern: PathPattern } {
  let compiled: PathPattern | null = null;
  return Object.defineProperty(setting, "pattern", {
    enumerable: true,
    get: (): PathPattern => {
      compiled ??= sharedPattern(path, PATTERNS);
      return compiled;
    },
  }) as T & { readonly pattern: PathPattern };
}

// One empty list for every scope of every file that has none of a kind: most sequences have no
// Ip lines, settings or blocks, and an empty array a kind was a sixth of what a kept file held.
const NONE: readonly never[] = Object.freeze([]);

function orNone<T>(list: readonly T[]): readonly T[] {
  return list.length === 0 ? NONE : list;
}

function readLastModified(d: Directive, diagnostics: Diagnostic[]) {
  const parsed = parseDateTime(d.value);
  let instant: number | null = null;
  if (!parsed.ok) {
    diagnostics.push({
      line: d.line,
      severity: "warning",
      code: "bad-value",
      message: `Last-modified "${d.value}": ${parsed.error}`,
    });
  } else if (parsed.value.date === null) {
    diagnostics.push({
      line: d.line,
      severity: "warning",
      code: "bad-value",
      message: `Last-modified "${d.value}": a date is needed, not only a time`,
    });
  } else {
    // An instant without a zone is read as UT; lint says so.
    instant = instantOf({ ...parsed.value, date: parsed.value.date }, 0);
  }
  return { text: d.value, line: d.line, instant };
}

function displayName(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}
