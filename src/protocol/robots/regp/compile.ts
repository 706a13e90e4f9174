/**
 * From the layout to typed scopes: every REGP field read by its own parser (seeds/003
 * Table 3), a value that cannot be read reported on its line and left out.
 */
import type { Diagnostic } from "../diagnostic.js";
import { PathPattern } from "../path-pattern.js";
import type { ChangeFrequency } from "../plan.js";
import type { Block, Content, Directive, RegpLayout, Target } from "./layout.js";
import type { GroupLine } from "./last-match.js";
import { type AcceptItem, parseAcceptList } from "./values/accept-list.js";
import { type CookiePair, parseCookie } from "./values/cookie.js";
import { parseSeconds } from "./values/delay.js";
import { formatHost, parseHost } from "./values/host.js";
import { type IpPattern, parseIpPattern } from "./values/ip.js";
import { parsePathValue } from "./values/path-value.js";
import { parseRate, type Rate } from "./values/rate.js";
import type { ValueResult } from "./values/result.js";
import { instantOf, parseDateTime, parseTimeSpan, type TimeSpan } from "./values/rfc822-time.js";
import { parseSitemapUrl } from "./values/sitemap-url.js";

// seeds/003 §3.2.5: paths are case-insensitive, with `*` and `$`.
const PATTERNS = { wildcards: true, ignoreCase: true } as const;

export interface PathLine extends GroupLine {
  readonly pattern: PathPattern;
}

export interface IpLine extends GroupLine {
  readonly pattern: IpPattern;
}

export interface CompiledTarget {
  /** Lower-cased User-agent values; `*` for any. Empty: no narrowing by name. */
  readonly agents: readonly string[];
  readonly agentLines: readonly number[];
  readonly ips: readonly IpLine[];
  readonly paths: readonly PathLine[];
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
  readonly rules: readonly PathLine[];
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

const CHANGE_KEYS: ReadonlyMap<string, ChangeFrequency> = new Map(
  (["always", "hourly", "daily", "weekly", "monthly", "yearly", "never"] as const).map((f) => [
    `change-${f}`,
    f,
  ]),
);

export function compile(layout: RegpLayout): CompiledRegp {
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

  const paths = (lines: readonly Directive[]): PathLine[] =>
    lines.flatMap((d) => {
      const value = read(d, parsePathValue(d.value));
      if (value === null) return [];
      return [
        {
          allow: d.key === "allow",
          everything: value === "/" || value === "*",
          line: d.line,
          text: d.text,
          pattern: new PathPattern(value, PATTERNS),
        },
      ];
    });

  const target = (t: Target): CompiledTarget => ({
    agents: t.agents.filter((d) => d.value !== "").map((d) => d.value.toLowerCase()),
    agentLines: t.agents.map((d) => d.line),
    ips: t.ips.flatMap((d) => {
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
    paths: paths(t.paths),
  });

  const setting = (d: Directive): Setting | null => {
    const base = { line: d.line, text: d.text };
    switch (d.key) {
      case "crawl-delay":
      case "ip-delay": {
        const seconds = read(d, parseSeconds(d.value));
        return seconds === null ? null : { ...base, kind: d.key, seconds };
      }
      case "request-rate":
      case "ip-rate": {
        const rate = read(d, parseRate(d.value));
        return rate === null ? null : { ...base, kind: d.key, rate };
      }
      case "visit-time":
      case "time-forbidden": {
        const span = read(d, parseTimeSpan(d.value));
        return span === null ? null : { ...base, kind: d.key, span };
      }
      case "language":
      case "encoding":
      case "charset": {
        const items = read(d, parseAcceptList(d.value, d.key));
        return items === null ? null : { ...base, kind: d.key, items };
      }
      case "cookie": {
        const pairs = read(d, parseCookie(d.value));
        return pairs === null ? null : { ...base, kind: "cookie", pairs };
      }
      case "mirror-site":
      case "host": {
        const host = read(d, parseHost(d.value));
        return host === null ? null : { ...base, kind: d.key, host: formatHost(host) };
      }
      case "sitemap": {
        const url = read(d, parseSitemapUrl(d.value));
        return url === null ? null : { ...base, kind: "sitemap", url };
      }
      case "index-page": {
        const path = read(d, parsePathValue(d.value));
        return path === null
          ? null
          : { ...base, kind: "index-page", pattern: new PathPattern(path, PATTERNS) };
      }
      default: {
        const frequency = CHANGE_KEYS.get(d.key);
        if (frequency === undefined) return null; // an extension: kept in the policy's extensions
        const path = read(d, parsePathValue(d.value));
        return path === null
          ? null
          : { ...base, kind: "change", frequency, pattern: new PathPattern(path, PATTERNS) };
      }
    }
  };

  const scope = (line: number, depth: number, t: CompiledTarget, content: Content): Scope => ({
    line,
    depth,
    target: t,
    rules: paths(content.rules),
    settings: content.directives.map(setting).filter((s): s is Setting => s !== null),
    blocks: content.blocks.map((b: Block) => scope(b.line, b.depth, target(b.target), b.content)),
  });

  const noTarget: CompiledTarget = { agents: [], agentLines: [], ips: [], paths: [] };
  const lastModifiedLine = layout.header.find((d) => d.key === "last-modified");
  return {
    sequences: layout.sequences.map((s) => ({
      ...scope(s.line, 0, target(s.target), s.content),
      impliedAgent: s.impliedAgent,
    })),
    global: scope(0, 0, noTarget, layout.global),
    lastModified:
      lastModifiedLine === undefined ? null : readLastModified(lastModifiedLine, diagnostics),
    diagnostics,
  };
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
