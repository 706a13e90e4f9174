/**
 * Writes a REGP robots.txt (seeds/003 §3.2, Appendix) from a {@link RegpDocument}: the header,
 * a blank line, each command sequence, and the global section last, blocks indented two spaces
 * per depth. What it writes, `readRegpDocument` reads back as the same document, up to the
 * normalisations the format itself makes (listed on {@link buildRegp}).
 *
 * A value the format cannot carry is a programming error, not content: the writer throws a
 * {@link RegpBuildError} (a `TypeError`) naming where the value is and why. Each value is
 * checked by reading its text back with the same parser the reader uses.
 */
import type { ChangeFrequency } from "../plan.js";
import { MAX_LINE_LENGTH, MAX_ROBOTS_BYTES } from "../limits.js";
import { readKey } from "../keys.js";
import {
  type Block,
  type BlockSection,
  type IpRule,
  type PathRule,
  REGP_FIELDS,
  type RegpDocument,
  type Section,
  type Sequence,
  type Setting,
  settingField,
} from "./document.js";
import { MAX_BRACE_DEPTH } from "./layout.js";
import {
  type AcceptItem,
  type AcceptKind,
  formatAcceptList,
  isTokenChar,
  parseAcceptList,
} from "./values/accept-list.js";
import { cookieHeader, type CookiePair, parseCookie } from "./values/cookie.js";
import { formatSeconds, parseSeconds } from "./values/delay.js";
import { formatHost, type HostName, parseHost } from "./values/host.js";
import { formatIpPattern, type IpPattern, parseIpPattern } from "./values/ip.js";
import { parsePathValue } from "./values/path-value.js";
import { formatRate, parseRate, type Rate, type RateUnit } from "./values/rate.js";
import type { ValueResult } from "./values/result.js";
import {
  type DatedTimeExpression,
  formatTimeExpression,
  formatTimeSpan,
  parseDateTime,
  parseTimeSpan,
  type TimeExpression,
  type TimeSpan,
} from "./values/rfc822-time.js";
import { parseSitemapUrl } from "./values/sitemap-url.js";

/** Why a document cannot be written; stable, for callers and tests to key on. */
export type RegpBuildErrorCode =
  /** `version` is not `3.<digits>`. */
  | "bad-version"
  /** A value its field's parser refuses, or would read back as something else. */
  | "bad-value"
  /** Text with `##` (a comment), a line break, or outer whitespace the reader trims. */
  | "unwritable-text"
  /** A sequence with neither User-agent nor Ip lines (it would read as the global section). */
  | "empty-target"
  /** An extension key that is not an RFC 1945 token, or that a reader takes for a Table 3 field. */
  | "reserved-key"
  /** Blocks nested deeper than the reader reads ({@link MAX_BRACE_DEPTH}). */
  | "too-deep"
  /** A line or a file longer than the reader reads ({@link MAX_LINE_LENGTH}, {@link MAX_ROBOTS_BYTES}). */
  | "too-long";

/** A document, or a value for one, that the REGP format cannot carry. */
export class RegpBuildError extends TypeError {
  readonly code: RegpBuildErrorCode;
  /** Where in the document: `sequences[0].section.blocks[1].section.settings[0]`, or `""`. */
  readonly where: string;
  constructor(code: RegpBuildErrorCode, where: string, message: string) {
    super(where === "" ? message : `${where}: ${message}`);
    this.name = "RegpBuildError";
    this.code = code;
    this.where = where;
  }
}

export interface BuildOptions {
  /**
   * Written as `##` comment lines under the header, one per line of the text (Appendix `head`
   * allows comment lines there). Default: none.
   */
  readonly comment?: string;
}

const INDENT = "  ";
const UNIT_SECONDS: Readonly<Record<RateUnit, number>> = { s: 1, m: 60, h: 3600 };
const TABLE3_KEYS: ReadonlySet<string> = new Set(REGP_FIELDS.map((f) => f.toLowerCase()));
const encoder = new TextEncoder();

/**
 * The text of a REGP robots.txt: `Robot-version` first, then `Last-modified` when set, the
 * header comment, a blank line, each sequence (User-agent, Ip, Allow/Disallow lines, the other
 * commands, then its blocks), blank lines between sections, and the global section last. Lines
 * end with `\n`, the file too.
 *
 * Reading the text back gives `document` again, except where the format normalises: accept-list
 * values and DNS host names in lower case, an IPv6 host in its RFC 5952 form, a span whose zone is
 * written on one end only gets it on both (§3.2.8), and an IPv4 pattern without `*` reads as
 * a plain address. Throws a {@link RegpBuildError} for anything the format cannot carry.
 */
export function buildRegp(document: RegpDocument, options: BuildOptions = {}): string {
  const out: string[] = [];
  const line = (depth: number, text: string, where: string) => {
    const indented = INDENT.repeat(depth) + text;
    if (indented.length > MAX_LINE_LENGTH) {
      throw new RegpBuildError(
        "too-long",
        where,
        `a line of ${indented.length} characters; readers cut lines after ${MAX_LINE_LENGTH}`,
      );
    }
    out.push(indented);
  };

  if (!/^3\.\d+$/.test(document.version)) {
    throw new RegpBuildError(
      "bad-version",
      "version",
      `expected 3.<digits> such as 3.0, got ${show(document.version)}: readers take a file for REGP only at 3.x (docs/robots-txt.md#choosing-the-dialect), and 1.x and 2.x select the 1994 and 1997 rules`,
    );
  }
  line(0, `Robot-version: ${document.version}`, "version");
  if (document.lastModified !== null) {
    const text = writeLastModified(document.lastModified, "lastModified");
    line(0, `Last-modified: ${text}`, "lastModified");
  }
  if (options.comment !== undefined) {
    for (const c of options.comment.split(/\r\n|\r|\n/))
      line(0, c === "" ? "##" : `## ${c}`, "comment");
  }

  document.sequences.forEach((s, i) => {
    out.push("");
    writeSequence(s, `sequences[${i}]`, line);
  });
  const global = document.global;
  if (global.rules.length + global.settings.length + global.blocks.length > 0) {
    out.push("");
    writeContent(global.rules, global, 0, "global", line);
  }

  const text = `${out.join("\n")}\n`;
  const bytes = encoder.encode(text).length;
  if (bytes > MAX_ROBOTS_BYTES) {
    throw new RegpBuildError(
      "too-long",
      "",
      `the file would be ${bytes} bytes; readers stop after ${MAX_ROBOTS_BYTES} (RFC 9309 §2.5)`,
    );
  }
  return text;
}

type LineWriter = (depth: number, text: string, where: string) => void;

function writeSequence(s: Sequence, where: string, line: LineWriter): void {
  if (s.agents.length === 0 && s.ips.length === 0) {
    throw new RegpBuildError(
      "empty-target",
      where,
      "a command sequence needs a User-agent or an Ip line; without one it would read as part of the global section",
    );
  }
  writeTarget(s.agents, s.ips, [], 0, where, line);
  writeContent(s.section.rules, s.section, 0, `${where}.section`, line);
}

function writeTarget(
  agents: readonly string[],
  ips: readonly IpRule[],
  paths: readonly PathRule[],
  depth: number,
  where: string,
  line: LineWriter,
): void {
  agents.forEach((agent, i) => {
    line(depth, `User-agent: ${checkAgent(agent, `${where}.agents[${i}]`)}`, where);
  });
  ips.forEach((ip, i) => {
    const at = `${where}.ips[${i}]`;
    const field = ip.allow ? "Ip-allow" : "Ip-disallow";
    line(depth, `${field}: ${writeIpPattern(ip.pattern, field, at)}`, at);
  });
  paths.forEach((rule, i) => writePathRule(rule, depth, `${where}.paths[${i}]`, line));
}

function writeContent(
  rules: readonly PathRule[],
  section: BlockSection,
  depth: number,
  where: string,
  line: LineWriter,
): void {
  rules.forEach((rule, i) => writePathRule(rule, depth, `${where}.rules[${i}]`, line));
  section.settings.forEach((s, i) => {
    const at = `${where}.settings[${i}]`;
    line(depth, writeSetting(s, at), at);
  });
  section.blocks.forEach((b, i) => writeBlock(b, depth + 1, `${where}.blocks[${i}]`, line));
}

function writeBlock(block: Block, depth: number, where: string, line: LineWriter): void {
  if (depth > MAX_BRACE_DEPTH) {
    throw new RegpBuildError(
      "too-deep",
      where,
      `blocks nest ${depth} deep; readers ignore blocks deeper than ${MAX_BRACE_DEPTH}`,
    );
  }
  const rules = (block.section as Partial<Section>).rules;
  if (rules !== undefined && rules.length > 0) {
    throw new RegpBuildError(
      "bad-value",
      `${where}.section.rules`,
      "a block has no path group of its own: its Allow and Disallow lines are its target, `paths`",
    );
  }
  line(depth - 1, "{", where);
  writeTarget(block.agents, block.ips, block.paths, depth, where, line);
  writeContent([], block.section, depth, `${where}.section`, line);
  line(depth - 1, "}", where);
}

function writePathRule(rule: PathRule, depth: number, where: string, line: LineWriter): void {
  const field = rule.allow ? "Allow" : "Disallow";
  line(depth, `${field}: ${checkPath(rule.path, field, where)}`, where);
}

/** `Field: value` for one command, its value checked against its field's parser. */
function writeSetting(s: Setting, where: string): string {
  const field = settingField(s);
  switch (s.kind) {
    case "crawl-delay":
    case "ip-delay":
      return `${field}: ${writeSeconds(s.seconds, field, where)}`;
    case "request-rate":
    case "ip-rate":
      return `${field}: ${writeRate(s.rate, field, where)}`;
    case "visit-time":
    case "time-forbidden":
      return `${field}: ${writeSpan(s.span, field, where)}`;
    case "language":
    case "encoding":
    case "charset":
      return `${field}: ${writeAcceptList(s.items, s.kind, field, where)}`;
    case "cookie":
      return `${field}: ${writeCookie(s.pairs, field, where)}`;
    case "mirror-site":
    case "host":
      return `${field}: ${writeHost(s.host, field, where)}`;
    case "sitemap":
      return `${field}: ${writeSitemap(s.url, field, where)}`;
    case "index-page":
    case "change":
      return `${field}: ${checkPath(s.path, field, where)}`;
    case "extension": {
      const key = checkExtensionKey(s.key, where);
      // `X-key:` rather than `X-key: ` for an empty value: no trailing blank.
      return s.value === "" ? `${key}:` : `${key}: ${checkText(s.value, key, where)}`;
    }
  }
}

// ---- values: each written with its formatter, then read back with its parser --------------

/**
 * The text must survive the line reader: no `##` (a comment would start), no line break (a new
 * line would), and no outer whitespace (values are trimmed).
 */
function checkText(text: string, field: string, where: string): string {
  let why: string | null = null;
  if (/[\r\n]/.test(text)) why = "a line break";
  else if (text.includes("##")) why = `"##", which starts a comment (docs/regp.md#layout)`;
  else if (text !== text.trim()) why = "whitespace at its ends, which readers trim";
  if (why !== null) {
    throw new RegpBuildError("unwritable-text", where, `${field} value ${show(text)} holds ${why}`);
  }
  return text;
}

/** Text that must parse, and whose parsed value must pass `same`. */
function readsBack<T>(
  text: string,
  field: string,
  where: string,
  parse: (text: string) => ValueResult<T>,
  same: (value: T) => string | null,
): string {
  checkText(text, field, where);
  const parsed = parse(text);
  if (!parsed.ok)
    throw new RegpBuildError("bad-value", where, `${field} ${show(text)}: ${parsed.error}`);
  const differs = same(parsed.value);
  if (differs !== null) {
    throw new RegpBuildError(
      "bad-value",
      where,
      `${field} ${show(text)} would read back ${differs}`,
    );
  }
  return text;
}

function checkAgent(agent: string, where: string): string {
  checkText(agent, "User-agent", where);
  if (agent === "" || /[\s\x00-\x1f\x7f]/.test(agent)) {
    throw new RegpBuildError(
      "bad-value",
      where,
      `expected a User-agent name token without whitespace or control characters (Appendix \`agent = token\`), got ${show(agent)}`,
    );
  }
  return agent;
}

/** Allow, Disallow, Index-page and Change-* values: a path beginning with `/` or `*` (§3.2.5). */
function checkPath(path: string, field: string, where: string): string {
  if (!path.startsWith("/") && !path.startsWith("*")) {
    throw new RegpBuildError(
      "bad-value",
      where,
      `expected a ${field} path starting with "/" or "*", got ${show(path)}`,
    );
  }
  return readsBack(path, field, where, parsePathValue, (p) =>
    p === path ? null : `as ${show(p)}`,
  );
}

function writeSeconds(seconds: number, field: string, where: string): string {
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new RegpBuildError("bad-value", where, `expected ${field} seconds ≥ 0, got ${seconds}`);
  }
  return readsBack(formatSeconds(seconds), field, where, parseSeconds, (s) =>
    s === seconds ? null : `as ${s}`,
  );
}

function writeRate(rate: Rate, field: string, where: string): string {
  const unitSeconds = UNIT_SECONDS[rate.unit] as number | undefined;
  if (unitSeconds === undefined) {
    throw new RegpBuildError(
      "bad-value",
      where,
      `expected a ${field} unit s, m or h, got ${show(String(rate.unit))}`,
    );
  }
  if (!Number.isFinite(rate.requests)) {
    throw new RegpBuildError(
      "bad-value",
      where,
      `expected a finite number of requests, got ${rate.requests}`,
    );
  }
  return readsBack(formatRate(rate), field, where, parseRate, (r) => {
    if (r.requests !== rate.requests || r.per !== rate.per || r.unit !== rate.unit)
      return `as ${formatRate(r)}`;
    return r.seconds === rate.seconds
      ? null
      : `with seconds ${r.seconds} (per × unit), not ${rate.seconds}`;
  });
}

function writeLastModified(time: DatedTimeExpression, where: string): string {
  if (time.date === null) {
    throw new RegpBuildError(
      "bad-value",
      where,
      "expected a Last-modified with a date (§3.2.2), got a time of day only",
    );
  }
  return readsBack(formatTimeExpression(time), "Last-modified", where, parseDateTime, (t) =>
    sameTime(t, time) ? null : `as ${formatTimeExpression(t)}`,
  );
}

function writeSpan(span: TimeSpan, field: string, where: string): string {
  return readsBack(formatTimeSpan(span), field, where, parseTimeSpan, (s) => {
    // §3.2.8: a zone written on one end only holds for both.
    const start = span.start.offsetMinutes ?? span.end.offsetMinutes;
    const end = span.end.offsetMinutes ?? span.start.offsetMinutes;
    return sameTime(s.start, { ...span.start, offsetMinutes: start }) &&
      sameTime(s.end, { ...span.end, offsetMinutes: end })
      ? null
      : `as ${formatTimeSpan(s)}`;
  });
}

function sameTime(a: TimeExpression, b: TimeExpression): boolean {
  const sameDate =
    a.date === null || b.date === null
      ? a.date === b.date
      : a.date.year === b.date.year && a.date.month === b.date.month && a.date.day === b.date.day;
  return sameDate && a.seconds === b.seconds && a.offsetMinutes === b.offsetMinutes;
}

function writeAcceptList(
  items: readonly AcceptItem[],
  kind: AcceptKind,
  field: string,
  where: string,
): string {
  return readsBack(
    formatAcceptList(items),
    field,
    where,
    (t) => parseAcceptList(t, kind),
    (read) =>
      read.length === items.length &&
      read.every((r, i) => r.value === items[i]?.value.toLowerCase() && r.q === items[i]?.q)
        ? null
        : `as ${read.length} item(s) ${show(formatAcceptList(read))}`,
  );
}

function writeCookie(pairs: readonly CookiePair[], field: string, where: string): string {
  return readsBack(cookieHeader(pairs), field, where, parseCookie, (read) =>
    read.length === pairs.length &&
    read.every((r, i) => r.name === pairs[i]?.name && r.value === pairs[i]?.value)
      ? null
      : `as ${read.length} pair(s) ${show(cookieHeader(read))}`,
  );
}

function writeHost(host: HostName, field: string, where: string): string {
  return readsBack(formatHost(host), field, where, parseHost, (h) =>
    h.scheme === host.scheme &&
    h.kind === host.kind &&
    h.port === host.port &&
    // A DNS name reads back in lower case without a final dot; an IP address as itself,
    // IPv6 in its RFC 5952 form.
    (h.kind !== "dns" || h.host === host.host.toLowerCase().replace(/\.$/, ""))
      ? null
      : `as ${JSON.stringify(h)}`,
  );
}

function writeSitemap(url: string, field: string, where: string): string {
  return readsBack(url, field, where, parseSitemapUrl, (u) =>
    u === url ? null : `as ${show(u)}; write it without < >`,
  );
}

function writeIpPattern(pattern: IpPattern, field: string, where: string): string {
  const text = formatIpPattern(pattern);
  return readsBack(text, field, where, parseIpPattern, (p) =>
    formatIpPattern(p) === text ? null : `as ${show(formatIpPattern(p))}`,
  );
}

/**
 * An extension key must be an RFC 1945 token that no reader takes for something else: not a
 * Table 3 field, not a misspelling heed reads as one, not a comment.
 */
function checkExtensionKey(key: string, where: string): string {
  let why: string | null = null;
  if (key === "") why = "an empty key";
  else if ([...key].some((c) => !isTokenChar(c.codePointAt(0) as number)))
    why = "not an RFC 1945 token (letters, digits and !#$%&'*+-.^_`|~)";
  else if (key.startsWith("#") || key.includes("##")) why = "read as a comment";
  else if (TABLE3_KEYS.has(key.toLowerCase()) || readKey(key).kind !== "extension")
    why =
      "a REGP field (docs/regp.md#every-field) (or a spelling readers take for one): use its own setting";
  if (why !== null) {
    throw new RegpBuildError("reserved-key", where, `extension key ${show(key)} is ${why}`);
  }
  return key;
}

function show(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

// ---- the convenience API for files written by hand ------------------------------------------

/** Rate as a person writes it: `{ requests: 120, unit: "m" }` is `120/m`; `per` defaults to 1. */
export interface RateInput {
  readonly requests: number;
  readonly per?: number;
  readonly unit: RateUnit;
}

/** Which robots a sequence is for: at least one User-agent or Ip line. */
export interface SequenceTarget {
  readonly agents?: readonly string[];
  /** Built with {@link ipAllow} and {@link ipDisallow}. */
  readonly ips?: readonly IpRule[];
}

/** Which robots and paths a block is for; all optional (an empty target narrows nothing). */
export interface BlockTarget extends SequenceTarget {
  /** Built with {@link allow} and {@link disallow}. */
  readonly paths?: readonly PathRule[];
}

/** Commands every content segment takes; each call returns a new builder, the old one unchanged. */
export interface ContentBuilder<Self> {
  crawlDelay(seconds: number): Self;
  ipDelay(seconds: number): Self;
  /** `{ requests: 120, unit: "m" }` or `"120/m"`. */
  requestRate(rate: RateInput | string): Self;
  ipRate(rate: RateInput | string): Self;
  /** A span, or its text: `"21:00:00 +0800-08:00:00 +0800"`. */
  visitTime(span: TimeSpan | string): Self;
  timeForbidden(span: TimeSpan | string): Self;
  /** Items, or list texts: `language("zh-cn", "zh;q=0.5")`, `encoding("gzip, deflate")`. */
  language(...items: readonly (AcceptItem | string)[]): Self;
  encoding(...items: readonly (AcceptItem | string)[]): Self;
  charset(...items: readonly (AcceptItem | string)[]): Self;
  /** Pairs, or their text: `"user=robot; lang=en"`. */
  cookie(pairs: readonly CookiePair[] | string): Self;
  mirrorSite(host: HostName | string): Self;
  host(host: HostName | string): Self;
  sitemap(url: string): Self;
  indexPage(path: string): Self;
  change(frequency: ChangeFrequency, path: string): Self;
  /** A line whose key is not in Table 3. */
  extension(key: string, value: string): Self;
  /** A `{ }` block; `build` fills it. */
  block(target: BlockTarget, build?: (b: BlockBuilder) => BlockBuilder): Self;
}

export interface BlockBuilder extends ContentBuilder<BlockBuilder> {
  readonly section: BlockSection;
}

export interface SectionBuilder extends ContentBuilder<SectionBuilder> {
  allow(path: string): SectionBuilder;
  disallow(path: string): SectionBuilder;
  readonly section: Section;
}

export interface RegpBuilder {
  /** A dated time, or its RFC 822 text: `"19 Mar 2015 12:00:00 +0800"`; null for none. */
  lastModified(time: DatedTimeExpression | string | null): RegpBuilder;
  /** Appends a command sequence; `build` fills its content. */
  sequence(target: SequenceTarget, build?: (s: SectionBuilder) => SectionBuilder): RegpBuilder;
  /** Adds to the global section (commands for every robot). */
  global(build: (g: SectionBuilder) => SectionBuilder): RegpBuilder;
  /** The document, checked: throws what {@link buildRegp} would throw. */
  toDocument(): RegpDocument;
  toString(options?: BuildOptions): string;
}

/** `Allow: path` for a sequence's rules or a block's `paths`. */
export function allow(path: string): PathRule {
  return { allow: true, path };
}

/** `Disallow: path` for a sequence's rules or a block's `paths`. */
export function disallow(path: string): PathRule {
  return { allow: false, path };
}

/** `Ip-allow: pattern`; text such as `"222.69.212.*"` or `"10.0.0.0/8"` is parsed. */
export function ipAllow(pattern: IpPattern | string): IpRule {
  return { allow: true, pattern: ipPattern(pattern, "Ip-allow") };
}

/** `Ip-disallow: pattern`; text such as `"222.69.*.*"` is parsed. */
export function ipDisallow(pattern: IpPattern | string): IpRule {
  return { allow: false, pattern: ipPattern(pattern, "Ip-disallow") };
}

/**
 * Starts a REGP file by hand. Each call returns a new builder; nothing is shared.
 *
 * ```ts
 * regp({ lastModified: "19 Mar 2015 12:00:00 +0800" })
 *   .sequence({ agents: ["*"] }, (s) =>
 *     s.disallow("/login.do").requestRate("120/m").block({ paths: [allow("/html/")] }, (b) => b.crawlDelay(1)))
 *   .global((g) => g.sitemap("http://www.example.com/sitemap.xml"))
 *   .toString();
 * ```
 */
export function regp(
  header: { readonly version?: string; readonly lastModified?: DatedTimeExpression | string } = {},
): RegpBuilder {
  const start: RegpDocument = {
    version: header.version ?? "3.0",
    lastModified: null,
    sequences: [],
    global: EMPTY_SECTION,
  };
  const builder = new DocumentDraft(start);
  return header.lastModified === undefined ? builder : builder.lastModified(header.lastModified);
}

const EMPTY_SECTION: Section = { rules: [], settings: [], blocks: [] };

class DocumentDraft implements RegpBuilder {
  readonly #document: RegpDocument;

  constructor(document: RegpDocument) {
    this.#document = document;
  }

  lastModified(time: DatedTimeExpression | string | null): RegpBuilder {
    return new DocumentDraft({ ...this.#document, lastModified: datedTime(time) });
  }

  sequence(target: SequenceTarget, build?: (s: SectionBuilder) => SectionBuilder): RegpBuilder {
    const section =
      build === undefined ? EMPTY_SECTION : build(new ContentDraft(EMPTY_SECTION, true)).section;
    const sequence: Sequence = {
      agents: [...(target.agents ?? [])],
      ips: [...(target.ips ?? [])],
      section,
    };
    return new DocumentDraft({
      ...this.#document,
      sequences: [...this.#document.sequences, sequence],
    });
  }

  global(build: (g: SectionBuilder) => SectionBuilder): RegpBuilder {
    const global = build(new ContentDraft(this.#document.global, true)).section;
    return new DocumentDraft({ ...this.#document, global });
  }

  toDocument(): RegpDocument {
    buildRegp(this.#document);
    return this.#document;
  }

  toString(options?: BuildOptions): string {
    return buildRegp(this.#document, options);
  }
}

/** One implementation behind both {@link SectionBuilder} and {@link BlockBuilder}. */
class ContentDraft implements SectionBuilder, BlockBuilder {
  readonly section: Section;
  /** False inside a block, whose Allow and Disallow lines belong to its target. */
  readonly #rules: boolean;

  constructor(section: Section, rules: boolean) {
    this.section = section;
    this.#rules = rules;
  }

  allow(path: string): ContentDraft {
    return this.#rule(allow(path));
  }

  disallow(path: string): ContentDraft {
    return this.#rule(disallow(path));
  }

  crawlDelay(seconds: number): ContentDraft {
    return this.#add({ kind: "crawl-delay", seconds });
  }

  ipDelay(seconds: number): ContentDraft {
    return this.#add({ kind: "ip-delay", seconds });
  }

  requestRate(rate: RateInput | string): ContentDraft {
    return this.#add({ kind: "request-rate", rate: toRate(rate, "Request-rate") });
  }

  ipRate(rate: RateInput | string): ContentDraft {
    return this.#add({ kind: "ip-rate", rate: toRate(rate, "Ip-rate") });
  }

  visitTime(span: TimeSpan | string): ContentDraft {
    return this.#add({ kind: "visit-time", span: parsed(span, "Visit-time", parseTimeSpan) });
  }

  timeForbidden(span: TimeSpan | string): ContentDraft {
    return this.#add({
      kind: "time-forbidden",
      span: parsed(span, "Time-forbidden", parseTimeSpan),
    });
  }

  language(...items: readonly (AcceptItem | string)[]): ContentDraft {
    return this.#add({ kind: "language", items: acceptItems(items, "language") });
  }

  encoding(...items: readonly (AcceptItem | string)[]): ContentDraft {
    return this.#add({ kind: "encoding", items: acceptItems(items, "encoding") });
  }

  charset(...items: readonly (AcceptItem | string)[]): ContentDraft {
    return this.#add({ kind: "charset", items: acceptItems(items, "charset") });
  }

  cookie(pairs: readonly CookiePair[] | string): ContentDraft {
    return this.#add({ kind: "cookie", pairs: parsed(pairs, "Cookie", parseCookie) });
  }

  mirrorSite(host: HostName | string): ContentDraft {
    return this.#add({ kind: "mirror-site", host: parsed(host, "Mirror-site", parseHost) });
  }

  host(host: HostName | string): ContentDraft {
    return this.#add({ kind: "host", host: parsed(host, "Host", parseHost) });
  }

  sitemap(url: string): ContentDraft {
    return this.#add({ kind: "sitemap", url });
  }

  indexPage(path: string): ContentDraft {
    return this.#add({ kind: "index-page", path });
  }

  change(frequency: ChangeFrequency, path: string): ContentDraft {
    return this.#add({ kind: "change", frequency, path });
  }

  extension(key: string, value: string): ContentDraft {
    return this.#add({ kind: "extension", key, value });
  }

  block(target: BlockTarget, build?: (b: BlockBuilder) => BlockBuilder): ContentDraft {
    const inner =
      build === undefined ? EMPTY_SECTION : build(new ContentDraft(EMPTY_SECTION, false)).section;
    const block: Block = {
      agents: [...(target.agents ?? [])],
      ips: [...(target.ips ?? [])],
      paths: [...(target.paths ?? [])],
      section: { settings: inner.settings, blocks: inner.blocks },
    };
    return new ContentDraft(
      { ...this.section, blocks: [...this.section.blocks, block] },
      this.#rules,
    );
  }

  #rule(rule: PathRule): ContentDraft {
    if (!this.#rules) {
      throw new RegpBuildError(
        "bad-value",
        "",
        `${rule.allow ? "Allow" : "Disallow"} inside a block narrows the block's paths: pass it in the block's target, as block({ paths: [${rule.allow ? "allow" : "disallow"}(…)] })`,
      );
    }
    return new ContentDraft({ ...this.section, rules: [...this.section.rules, rule] }, true);
  }

  #add(setting: Setting): ContentDraft {
    return new ContentDraft(
      { ...this.section, settings: [...this.section.settings, setting] },
      this.#rules,
    );
  }
}

function parsed<T>(value: T | string, field: string, parse: (text: string) => ValueResult<T>): T {
  if (typeof value !== "string") return value;
  const result = parse(value);
  if (!result.ok)
    throw new RegpBuildError("bad-value", "", `${field} ${show(value)}: ${result.error}`);
  return result.value;
}

function ipPattern(pattern: IpPattern | string, field: string): IpPattern {
  return parsed(pattern, field, parseIpPattern);
}

function toRate(rate: RateInput | string, field: string): Rate {
  if (typeof rate === "string") return parsed(rate, field, parseRate);
  const per = rate.per ?? 1;
  const unitSeconds = UNIT_SECONDS[rate.unit] as number | undefined;
  return {
    requests: rate.requests,
    per,
    unit: rate.unit,
    seconds: per * (unitSeconds ?? Number.NaN),
  };
}

function acceptItems(items: readonly (AcceptItem | string)[], kind: AcceptKind): AcceptItem[] {
  const field = kind.charAt(0).toUpperCase() + kind.slice(1);
  return items.flatMap((item) =>
    typeof item === "string"
      ? parsed<readonly AcceptItem[]>(item, field, (t) => parseAcceptList(t, kind))
      : [item],
  );
}

function datedTime(time: DatedTimeExpression | string | null): DatedTimeExpression | null {
  if (time === null || typeof time !== "string") return time;
  const value = parsed(time, "Last-modified", parseDateTime);
  if (value.date === null) {
    throw new RegpBuildError(
      "bad-value",
      "",
      `Last-modified ${show(time)}: expected a date as well as a time (§3.2.2)`,
    );
  }
  return { ...value, date: value.date };
}
