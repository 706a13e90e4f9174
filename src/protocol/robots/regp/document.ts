/**
 * A REGP robots.txt as plain data (seeds/003 §3.2, Table 3 and the Appendix grammar): the
 * header, the command sequences, the global section and their brace blocks, every field with a
 * typed value. `readRegpDocument` reads a file into it; `builder.ts` writes one back.
 *
 * The document says what the file says, not what a robot should do: agents keep the case they
 * are written in, paths stay text, and nothing is merged or defaulted. `compile.ts` is where
 * values turn into patterns and scopes for matching.
 */
import type { Diagnostic } from "../diagnostic.js";
import { readRobotsText } from "../line-reader.js";
import { type FieldValue, readField } from "./fields.js";
import {
  type Block as LaidOutBlock,
  type Content as LaidOutContent,
  type Directive,
  layOut,
} from "./layout.js";
import { type IpPattern, parseIpPattern } from "./values/ip.js";
import { parsePathValue } from "./values/path-value.js";
import type { ValueResult } from "./values/result.js";
import { type DatedTimeExpression, parseDateTime } from "./values/rfc822-time.js";

export interface RegpDocument {
  /** `Robot-version` (§3.2.1): `3.0` for this protocol. */
  readonly version: string;
  /** `Last-modified` (§3.2.2): a dated RFC 822 time, or null when the file has none. */
  readonly lastModified: DatedTimeExpression | null;
  /** The command sequences, top to bottom: the order robots try them in (§3.2). */
  readonly sequences: readonly Sequence[];
  /** The global command section: commands for every robot (§3.2). */
  readonly global: Section;
}

/** An `Allow` (allow: true) or `Disallow` line (§3.2.5). */
export interface PathRule {
  readonly allow: boolean;
  /** Begins with `/` or `*`; `*` and `$` are wildcards. */
  readonly path: string;
}

/** An `Ip-allow` (allow: true) or `Ip-disallow` line (§3.2.4). */
export interface IpRule {
  readonly allow: boolean;
  readonly pattern: IpPattern;
}

/**
 * A command sequence: its target segment (User-agent and Ip lines) and its content. A sequence
 * with Ip lines and no User-agent line is for every robot name (§3.2.4); one with neither is
 * not a sequence but part of the global section.
 */
export interface Sequence {
  /** User-agent values as written (matching ignores case, §3.2.3). */
  readonly agents: readonly string[];
  /** One IP token group, in order: the last matching line decides (§3.2.4). */
  readonly ips: readonly IpRule[];
  readonly section: Section;
}

/** What a brace block holds besides its target: commands and further blocks. */
export interface BlockSection {
  readonly settings: readonly Setting[];
  readonly blocks: readonly Block[];
}

/** The content of a sequence or of the global section: its path group, commands and blocks. */
export interface Section extends BlockSection {
  /** The resource path command group, in order: the last matching line decides (§3.2.5). */
  readonly rules: readonly PathRule[];
}

/**
 * A `{ … }` block (§3.2). Its User-agent, Ip, Allow and Disallow lines are its target: they
 * narrow which robots and which paths its commands are for (DESIGN §4), so a block has no path
 * group of its own.
 */
export interface Block {
  readonly agents: readonly string[];
  readonly ips: readonly IpRule[];
  readonly paths: readonly PathRule[];
  readonly section: BlockSection;
}

/** Every command of Table 3 that is not part of the header or of a target, with its value. */
export type Setting =
  | FieldValue
  /** A line whose key is not in Table 3 (Appendix `extension`): kept, not dropped. */
  | { readonly kind: "extension"; readonly key: string; readonly value: string };

export interface RegpReading {
  readonly document: RegpDocument;
  /** Everything odd about the text; an unreadable value is reported here and left out. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Every field of seeds/003 Table 3, spelt as the table spells it, in its order. */
export const REGP_FIELDS = [
  "Robot-version",
  "Last-modified",
  "User-agent",
  "Ip-disallow",
  "Ip-allow",
  "Disallow",
  "Allow",
  "Crawl-delay",
  "Ip-delay",
  "Request-rate",
  "Ip-rate",
  "Visit-time",
  "Time-forbidden",
  "Language",
  "Encoding",
  "Charset",
  "Cookie",
  "Mirror-site",
  "Sitemap",
  "Host",
  "Index-page",
  "Change-always",
  "Change-hourly",
  "Change-daily",
  "Change-weekly",
  "Change-monthly",
  "Change-yearly",
  "Change-never",
] as const;

/** seeds/003 §3.2.1: "Default value: 1.0", the version of a file without the line. */
export const DEFAULT_ROBOT_VERSION = "1.0";

const FIELD_BY_KEY: ReadonlyMap<string, string> = new Map(
  REGP_FIELDS.map((f) => [f.toLowerCase(), f]),
);

/** The field a setting is written under: `Crawl-delay`, `Change-daily`, or an extension's own key. */
export function settingField(setting: Setting): string {
  if (setting.kind === "extension") return setting.key;
  const key = setting.kind === "change" ? `change-${setting.frequency}` : setting.kind;
  return FIELD_BY_KEY.get(key) ?? key;
}

/**
 * Reads a REGP robots.txt into a document. `##` starts a comment whatever the header says.
 * Never throws on content: a value its field's parser refuses is reported (`bad-value`) and
 * left out, as `compile.ts` does.
 */
export function readRegpDocument(text: string | Uint8Array): RegpReading {
  const read = readRobotsText(text, { commentStyle: "double-hash" });
  const layout = layOut(read.lines);
  const diagnostics: Diagnostic[] = [...read.diagnostics, ...layout.diagnostics];
  const warn = (line: number | null, code: string, message: string) => {
    diagnostics.push({ line, severity: "warning", code, message });
  };
  const valueOf = <T>(d: Directive, result: ValueResult<T>): T | null => {
    if (result.ok) return result.value;
    warn(
      d.line,
      "bad-value",
      `${fieldOf(d.key)} "${d.value}": ${result.error}; the line is ignored`,
    );
    return null;
  };

  const agents = (lines: readonly Directive[]): string[] =>
    lines.flatMap((d) => {
      if (d.value !== "") return [d.value];
      warn(
        d.line,
        "bad-value",
        `User-agent "": expected a robot's name token; the line is ignored`,
      );
      return [];
    });
  const ips = (lines: readonly Directive[]): IpRule[] =>
    lines.flatMap((d) => {
      const pattern = valueOf(d, parseIpPattern(d.value));
      return pattern === null ? [] : [{ allow: d.key === "ip-allow", pattern }];
    });
  const paths = (lines: readonly Directive[]): PathRule[] =>
    lines.flatMap((d) => {
      if (d.value === "") return []; // an empty Allow or Disallow is no rule
      const path = valueOf(d, parsePathValue(d.value));
      return path === null ? [] : [{ allow: d.key === "allow", path }];
    });

  const setting = (d: Directive): Setting | null => {
    // layOut has already said that a header line stands out of place; it is not a command.
    if (d.key === "robot-version" || d.key === "last-modified") return null;
    const field = readField(d);
    if (field === null) return { kind: "extension", key: writtenKey(d), value: d.value };
    return valueOf(d, field);
  };

  const settings = (lines: readonly Directive[]): Setting[] =>
    lines.map(setting).filter((s): s is Setting => s !== null);
  const block = (b: LaidOutBlock): Block => ({
    agents: agents(b.target.agents),
    ips: ips(b.target.ips),
    paths: paths(b.target.paths),
    // layOut moves a block's Allow and Disallow lines into its target; `rules` stays empty.
    section: { settings: settings(b.content.directives), blocks: b.content.blocks.map(block) },
  });
  const section = (c: LaidOutContent): Section => ({
    rules: paths(c.rules),
    settings: settings(c.directives),
    blocks: c.blocks.map(block),
  });

  const versionLines = layout.header.filter((d) => d.key === "robot-version");
  const lastModifiedLines = layout.header.filter((d) => d.key === "last-modified");
  for (const d of [...versionLines.slice(1), ...lastModifiedLines.slice(1)]) {
    warn(d.line, "duplicate-header", `a second ${fieldOf(d.key)} line; the first one counts`);
  }
  const versionLine = versionLines[0];
  let version = DEFAULT_ROBOT_VERSION;
  if (versionLine === undefined || versionLine.value === "") {
    warn(
      versionLine?.line ?? null,
      "missing-robot-version",
      `no Robot-version value; REGP reads that as ${DEFAULT_ROBOT_VERSION}, and a REGP file begins "Robot-version: 3.0"`,
    );
  } else {
    version = versionLine.value;
    if (!/^\d+\.\d+$/.test(version)) {
      warn(
        versionLine.line,
        "bad-value",
        `Robot-version "${version}": expected digits "." digits (Appendix \`version\`) such as 3.0`,
      );
    }
  }

  const document: RegpDocument = {
    version,
    lastModified: readLastModified(lastModifiedLines[0], warn),
    sequences: layout.sequences.map((s) => ({
      agents: agents(s.target.agents),
      ips: ips(s.target.ips),
      section: section(s.content),
    })),
    global: section(layout.global),
  };
  return { document, diagnostics };
}

function readLastModified(
  d: Directive | undefined,
  warn: (line: number, code: string, message: string) => void,
): DatedTimeExpression | null {
  if (d === undefined) return null;
  const parsed = parseDateTime(d.value);
  if (!parsed.ok) {
    warn(d.line, "bad-value", `Last-modified "${d.value}": ${parsed.error}; the line is ignored`);
    return null;
  }
  const { date } = parsed.value;
  if (date === null) {
    warn(
      d.line,
      "bad-value",
      `Last-modified "${d.value}": expected a date as well as a time (§3.2.2); the line is ignored`,
    );
    return null;
  }
  return { ...parsed.value, date };
}

/** `Crawl-delay` for `crawl-delay`; an unknown key capitalised the same way. */
function fieldOf(key: string): string {
  return FIELD_BY_KEY.get(key) ?? key.charAt(0).toUpperCase() + key.slice(1);
}

/** An extension's key as the file writes it (the directive's key is lower-cased). */
function writtenKey(d: Directive): string {
  const colon = d.text.indexOf(":");
  return (colon < 0 ? d.key : d.text.slice(0, colon)).trim().replace(/[ \t]+/g, " ");
}
