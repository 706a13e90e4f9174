/**
 * Checks of REGP files (seeds/003 §3.2, DESIGN §4), read from the file's layout and its
 * compiled scopes rather than from classic groups: under REGP a brace block's User-agent,
 * Ip, Allow and Disallow lines narrow the block (its target), they do not start groups.
 *
 * What is checked: the header's place (§3.2.1, §3.2.2, Appendix `head`), sequences no robot
 * reaches (§3.2.3: the first matching target segment wins), User-agent values no name token
 * contains, Ip lines that cannot be read or never decide (§3.2.4), path lines that never
 * decide (§3.2.5: the last match wins), commands written in the header, empty blocks and
 * blocks outside a sequence, time spans without a zone or that never open (§3.2.8), and a
 * lone `#` read as a comment (Table 2: REGP comments start with `##`).
 */
import type { Severity } from "../diagnostic.js";
import type { RobotsLine } from "../line-reader.js";
import { type CompiledRegp, compile, type Scope, type Setting } from "../regp/compile.js";
import {
  type Block,
  type Directive,
  keyOf,
  layOut,
  type RegpLayout,
  shapeOf,
  type Target,
} from "../regp/layout.js";
import { type IpPattern, parseIpPattern } from "../regp/values/ip.js";
import {
  type DatedTimeExpression,
  instantOf,
  parseDateTime,
  type TimeSpan,
} from "../regp/values/rfc822-time.js";
import { combineWindows, type TimeWindow } from "../regp/values/time-window.js";
import { displayKey, type LintContext, quote } from "./finding.js";
import { MAX_AGENTS_COMPARED } from "./groups.js";
import { SINGLE_HASH_COMMENT } from "./lines.js";
import { deadRules, reportDeadRule } from "./rules.js";

/** A REGP file as lint reads it: the layout of its lines and its compiled scopes. */
export interface RegpModel {
  readonly layout: RegpLayout;
  readonly compiled: CompiledRegp;
}

export function readRegp(lines: readonly RobotsLine[]): RegpModel {
  const layout = layOut(lines);
  return { layout, compiled: compile(layout) };
}

/** True when the file has a command sequence or global Allow/Disallow lines. */
export function regpRestricts(model: RegpModel): boolean {
  return model.layout.sequences.length > 0 || model.layout.global.rules.length > 0;
}

/**
 * Later Ip lines of one group compared with each line for cover. A later `*` is found for
 * every line whatever the group's size; beyond this window, a cover can be missed, never
 * invented.
 */
export const MAX_IPS_COMPARED = 256;

const HEADER_KEYS: ReadonlySet<string> = new Set(["robot-version", "last-modified"]);
const TARGET_KEYS: ReadonlySet<string> = new Set(["user-agent", "ip-allow", "ip-disallow"]);
// seeds/003 §3.2.3: name tokens are letters, digits and underscores; heed also allows "-".
const NAME_VALUE = /^[A-Za-z0-9_-]+$/;
const SECOND_MS = 1000;

/**
 * Bounds on the Visit-time check, which steps through time over every window that holds with
 * a line: Visit-time lines checked per file, and Time-forbidden lines weighed with each. Past
 * them a Visit-time that never opens can be missed, never invented.
 */
export const MAX_VISITS_CHECKED = 64;
export const MAX_FORBIDDEN_WEIGHED = 32;
// Of the Time-forbidden lines, how many are tried alone to name the one that closes a Visit-time.
const MAX_CULPRITS_TRIED = 8;

export function lintRegp(ctx: LintContext, model: RegpModel): void {
  const hashed = checkHashComments(ctx);
  checkAgentValues(ctx, hashed);
  checkHeader(ctx, model);
  checkSequences(ctx, model.layout);
  checkIpGroups(ctx, model.layout, hashed);
  checkPathGroups(ctx, model.compiled);
  checkBlocks(ctx, model.layout);
  checkTimes(ctx, model.compiled);
}

function isKeyed(line: RobotsLine): boolean {
  return shapeOf(line) === "keyed";
}

/**
 * seeds/003 Table 2 and §3.2: comments start with `##`, because `#` belongs to URLs. A value
 * with a lone `#` at its start or after a blank was probably meant as a comment; under REGP
 * it is part of the value. Returns the lines reported.
 */
function checkHashComments(ctx: LintContext): Set<number> {
  const hashed = new Set<number>();
  const badValues = new Map<number, string>();
  for (const d of ctx.policy.diagnostics) {
    if (d.code === "bad-value" && d.line !== null) badValues.set(d.line, d.message);
  }
  for (const line of ctx.policy.text.lines) {
    if (!isKeyed(line) || !SINGLE_HASH_COMMENT.test(line.value)) continue;
    hashed.add(line.number);
    const head = `"#" does not start a comment in REGP, only "##" does (docs/regp.md#layout), so the value of this ${displayKey(keyOf(line))} line is ${quote(line.value)}`;
    const bad = badValues.get(line.number);
    let tail = `; write "##" to start a comment`;
    if (bad !== undefined) {
      ctx.replace(line.number, "bad-value");
      const at = bad.indexOf('": ');
      tail = `, which cannot be read (${at < 0 ? bad : bad.slice(at + 3)}); write "##" to start a comment`;
    }
    ctx.add(line.number, "warning", "hash-comment", head + tail);
  }
  return hashed;
}

/** seeds/003 §3.2.3: the robot's name token must contain the value; a token has no other characters. */
function checkAgentValues(ctx: LintContext, hashed: ReadonlySet<number>): void {
  for (const line of ctx.policy.text.lines) {
    if (line.kind !== "user-agent" || hashed.has(line.number)) continue;
    const value = line.value;
    if (value === "" || value === "*" || NAME_VALUE.test(value)) continue;
    ctx.add(
      line.number,
      "warning",
      "agent-not-name-token",
      `User-agent ${quote(value)} can never be contained in a robot's name token (docs/regp.md#which-sequence), so it names no robot`,
    );
  }
}

/** Robot-version first, Last-modified on the next line, then a blank line (seeds/003 §3.2.1, §3.2.2, Appendix `head`). */
function checkHeader(ctx: LintContext, model: RegpModel): void {
  const lines = ctx.policy.text.lines;
  const { header } = model.layout;
  const hasVersion = lines.some((l) => keyOf(l) === "robot-version");
  if (!hasVersion) {
    ctx.add(
      null,
      "warning",
      "missing-robot-version",
      'the file has no Robot-version line: REGP begins every file with "Robot-version: 3.0", and robots read a file without one as version 1.0',
    );
  }
  // Index in `lines` of each directive's own line (a header line never shares its number).
  const indexOf = (d: Directive) =>
    lines.findIndex((l) => l.number === d.line && keyOf(l) === d.key);
  const contentBefore = (from: number, to: number, blankToo: boolean) =>
    lines
      .slice(from, to)
      .some(
        (l) => (l.kind !== "comment" && l.kind !== "blank") || (blankToo && l.kind === "blank"),
      );

  const first = new Map<string, Directive>();
  let end = -1; // index of the last header line in its place
  for (const d of header) {
    const name = displayKey(d.key);
    const before = first.get(d.key);
    if (before !== undefined) {
      ctx.add(
        d.line,
        "warning",
        "duplicate-header",
        `${name} is already given at line ${before.line}; robots read the first only`,
      );
      continue;
    }
    first.set(d.key, d);
    const at = indexOf(d);
    const version = first.get("robot-version");
    let inPlace: boolean;
    let where: string;
    if (d.key === "robot-version") {
      inPlace = !contentBefore(0, at, false);
      where = "Robot-version belongs on the first line of the file (docs/regp.md#layout)";
    } else if (version !== undefined && hasVersion) {
      const versionAt = indexOf(version);
      inPlace = versionAt >= 0 && versionAt < at && !contentBefore(versionAt + 1, at, true);
      where = `Last-modified belongs on the line after Robot-version at line ${version.line} (docs/regp.md#layout)`;
    } else {
      inPlace = !hasVersion && !contentBefore(0, at, false);
      where = "Last-modified belongs in the header, after Robot-version (docs/regp.md#layout)";
    }
    if (inPlace) {
      end = Math.max(end, at);
      continue;
    }
    ctx.add(
      d.line,
      "warning",
      "header-out-of-place",
      `${where}; robots that read the header from the top of the file miss it`,
    );
  }
  if (end >= 0) checkAfterHeader(ctx, lines, end);
  checkLastModified(ctx, first.get("last-modified"));
}

/** The header ends at a blank line (Appendix: `head 1*commentblank record`). */
function checkAfterHeader(ctx: LintContext, lines: readonly RobotsLine[], end: number): void {
  let misplaced = false;
  for (let i = end + 1; i < lines.length; i++) {
    const line = lines[i] as RobotsLine;
    if (line.kind === "comment" || line.kind === "invalid") continue;
    if (line.kind === "blank" || line.kind === "open-brace" || line.kind === "close-brace") return;
    const key = keyOf(line);
    if (HEADER_KEYS.has(key)) continue; // reported by the header check
    if (TARGET_KEYS.has(key)) {
      // After a misplaced command the layout reports the missing blank line itself.
      if (!misplaced) {
        ctx.add(
          line.number,
          "warning",
          "missing-blank-line",
          `${line.key} follows the header directly; REGP separates the header from the first command sequence with a blank line`,
        );
      }
      return;
    }
    misplaced = true;
    ctx.add(
      line.number,
      "warning",
      "misplaced-command",
      `${displayKey(key)} stands in the header, which holds only Robot-version and Last-modified and ends at a blank line (docs/regp.md#layout); heed reads it as a global command for every robot`,
    );
  }
}

/** seeds/003 §3.2.2: an RFC 822 date-time, which names its zone. */
function checkLastModified(ctx: LintContext, d: Directive | undefined): void {
  if (d === undefined) return;
  const parsed = parseDateTime(d.value);
  if (!parsed.ok || parsed.value.date === null || parsed.value.offsetMinutes !== null) return;
  ctx.add(
    d.line,
    "info",
    "last-modified-no-zone",
    `Last-modified ${quote(d.value)} names no time zone (RFC 822 requires one); it is read as UT`,
  );
}

interface Taker {
  readonly line: number;
  readonly what: string;
}

/**
 * seeds/003 §3.2.3: robots try target segments top to bottom and take the first whose
 * User-agent value their name token contains; `*`, or Ip lines without a User-agent line
 * (§3.2.4: `User-agent: *` implied), take every robot.
 */
function checkSequences(ctx: LintContext, layout: RegpLayout): void {
  const first = new Map<string, Directive>();
  const earlier: { value: string; agent: Directive }[] = [];
  let star: Taker | null = null;
  for (const sequence of layout.sequences) {
    const dead: { line: number; code: string; message: string }[] = [];
    let live = 0;
    if (sequence.impliedAgent) {
      if (star === null) live++;
      else
        dead.push({
          line: sequence.line,
          code: "shadowed-group",
          message: `this sequence has Ip lines and no User-agent, so it is for every robot (docs/regp.md#ip-groups), but every robot takes ${takerText(star)} first`,
        });
    }
    const here = new Map<string, Directive>();
    const added: { value: string; agent: Directive }[] = [];
    for (const agent of sequence.target.agents) {
      const value = agent.value.trim().toLowerCase();
      if (value === "" || (value !== "*" && !NAME_VALUE.test(value))) continue; // names no robot
      const again = here.get(value);
      if (again !== undefined) {
        ctx.add(
          agent.line,
          "info",
          "duplicate-agent",
          `User-agent ${quote(agent.value)} is already named at line ${again.line} in this sequence`,
        );
        continue;
      }
      here.set(value, agent);
      const before = first.get(value);
      if (before !== undefined) {
        dead.push({
          line: agent.line,
          code: "duplicate-group",
          message: `User-agent ${quote(agent.value)} also heads the sequence at line ${before.line}: under REGP the first matching sequence wins (docs/regp.md#which-sequence), so this one is never used for it`,
        });
        continue;
      }
      first.set(value, agent);
      const taker: Taker | null =
        star ??
        (value === "*"
          ? null
          : agentTaker(earlier.find((e) => value.includes(e.value))?.agent ?? null));
      if (taker !== null) {
        dead.push({
          line: agent.line,
          code: "shadowed-group",
          message: `User-agent ${quote(agent.value)} can never select its sequence: every robot it names takes ${takerText(taker)} first (docs/regp.md#which-sequence: the first target segment whose User-agent the robot's name contains wins)`,
        });
        continue;
      }
      live++;
      if (value !== "*" && earlier.length + added.length < MAX_AGENTS_COMPARED) {
        added.push({ value, agent });
      }
    }
    earlier.push(...added);
    if (star === null) {
      if (sequence.impliedAgent) {
        star = { line: sequence.line, what: "the sequence of Ip lines without User-agent" };
      } else {
        const any = sequence.target.agents.find((a) => a.value.trim() === "*");
        if (any !== undefined) star = { line: any.line, what: '"*"' };
      }
    }
    dead.forEach((d, i) => {
      const none = live === 0 && i === 0 ? "; no robot reaches this sequence" : "";
      ctx.add(d.line, "warning", d.code, d.message + none);
    });
    checkEmptySequence(ctx, sequence);
  }
}

function agentTaker(agent: Directive | null): Taker | null {
  return agent === null ? null : { line: agent.line, what: quote(agent.value) };
}

function takerText(taker: Taker): string {
  return `line ${taker.line} ${taker.what}`;
}

function checkEmptySequence(ctx: LintContext, sequence: RegpLayout["sequences"][number]): void {
  const { target, content } = sequence;
  if (target.ips.length > 0) return; // an IP group alone can close the site to a robot
  if (content.rules.length + content.directives.length + content.blocks.length > 0) return;
  const names = target.agents.map((a) => quote(a.value)).join(", ");
  ctx.add(
    sequence.line,
    "info",
    "empty-sequence",
    `the sequence of ${names} has no commands: the robots it names may fetch everything, and later sequences never apply to them`,
  );
}

/** Every IP token group: sequences' and blocks', with where each belongs. */
function ipGroups(layout: RegpLayout): { target: Target; owner: string; implied: boolean }[] {
  const out: { target: Target; owner: string; implied: boolean }[] = [];
  const visit = (blocks: readonly Block[]) => {
    for (const block of blocks) {
      out.push({ target: block.target, owner: "block", implied: false });
      visit(block.content.blocks);
    }
  };
  for (const sequence of layout.sequences) {
    out.push({ target: sequence.target, owner: "sequence", implied: sequence.impliedAgent });
    visit(sequence.content.blocks);
  }
  visit(layout.global.blocks);
  return out;
}

interface ReadIp {
  readonly directive: Directive;
  readonly allow: boolean;
  readonly pattern: IpPattern;
}

/** seeds/003 §3.2.4: IPv4 with `*` octets, IPv6 (Appendix), CIDR (DESIGN §4); the last match wins. */
function checkIpGroups(ctx: LintContext, layout: RegpLayout, hashed: ReadonlySet<number>): void {
  for (const { target, owner, implied } of ipGroups(layout)) {
    const read: ReadIp[] = [];
    const bad: { directive: Directive; error: string }[] = [];
    for (const d of target.ips) {
      const parsed = parseIpPattern(d.value);
      if (parsed.ok)
        read.push({ directive: d, allow: d.key === "ip-allow", pattern: parsed.value });
      else bad.push({ directive: d, error: parsed.error });
    }
    for (const { directive, error } of bad) {
      if (hashed.has(directive.line)) continue; // the comment check explains the line
      const consequence =
        read.length > 0
          ? ""
          : implied
            ? ", and with no other Ip line and no User-agent line the sequence is for every robot, without an IP limit"
            : `, and with no other Ip line the ${owner} has no IP limit`;
      ctx.replace(directive.line, "bad-value");
      ctx.add(
        directive.line,
        "warning",
        "bad-ip",
        `${displayKey(directive.key)} ${quote(directive.value)} is not an IP address or pattern (${error}); the line is ignored${consequence}`,
      );
    }
    checkShadowedIps(ctx, read);
  }
}

function checkShadowedIps(ctx: LintContext, lines: readonly ReadIp[]): void {
  let laterAny: ReadIp | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as ReadIp;
    let killer = laterAny;
    for (let j = i + 1; killer === null && j < lines.length && j <= i + MAX_IPS_COMPARED; j++) {
      const later = lines[j] as ReadIp;
      if (covers(later.pattern, line.pattern)) killer = later;
    }
    if (line.pattern.kind === "any" && laterAny === null) laterAny = line;
    if (killer === null) continue;
    const text = quote(line.directive.text);
    const other = `line ${killer.directive.line} ${quote(killer.directive.text)}`;
    const why = "comes later (REGP: the last match wins, docs/regp.md#paths)";
    if (line.allow === killer.allow) {
      ctx.add(
        line.directive.line,
        "info",
        "redundant-ip",
        `${text} never decides: ${other} matches every address it matches and ${why}; both say the same`,
      );
    } else {
      ctx.add(
        line.directive.line,
        "warning",
        "shadowed-ip",
        `${text} never decides: ${other} matches every address it matches and ${why}`,
      );
    }
  }
}

interface BitSet {
  readonly family: 4 | 6;
  readonly bytes: readonly number[];
  /** Per byte, the bits the pattern fixes. */
  readonly mask: readonly number[];
}

function bits(pattern: IpPattern): BitSet | null {
  switch (pattern.kind) {
    case "any":
      return null;
    case "octets":
      return {
        family: 4,
        bytes: pattern.octets.map((o) => (o === "*" ? 0 : o)),
        mask: pattern.octets.map((o) => (o === "*" ? 0 : 0xff)),
      };
    case "address":
      return {
        family: pattern.address.family,
        bytes: pattern.address.bytes,
        mask: pattern.address.bytes.map(() => 0xff),
      };
    case "cidr":
      return {
        family: pattern.address.family,
        bytes: pattern.address.bytes,
        mask: pattern.address.bytes.map((_, i) => {
          const fixed = Math.min(8, Math.max(0, pattern.prefix - i * 8));
          return (0xff << (8 - fixed)) & 0xff;
        }),
      };
  }
}

/**
 * Does `p` match every address `q` matches? Decided within one family only (an IPv4 pattern
 * also meets IPv4-mapped IPv6 addresses, and the other way round, alike for both patterns).
 */
export function covers(p: IpPattern, q: IpPattern): boolean {
  if (p.kind === "any") return true;
  const a = bits(p);
  const b = bits(q);
  if (a === null || b === null || a.family !== b.family) return false;
  for (let i = 0; i < a.mask.length; i++) {
    const pm = a.mask[i] as number;
    if ((pm & ~(b.mask[i] as number)) !== 0) return false;
    if ((((a.bytes[i] as number) ^ (b.bytes[i] as number)) & pm) !== 0) return false;
  }
  return true;
}

/** seeds/003 §3.2.5: in a path group the last matching line decides. */
function checkPathGroups(ctx: LintContext, compiled: CompiledRegp): void {
  const group = (lines: Scope["rules"], where?: string) => {
    const rules = lines.list();
    const reversed = [...rules].reverse();
    const dead = deadRules(reversed, true);
    for (const rule of rules) {
      const killer = dead.get(rule);
      if (killer !== undefined) reportDeadRule(ctx, rule, killer, true, where);
    }
  };
  const blocks = (scope: Scope) => {
    for (const block of scope.blocks) {
      group(block.target.paths, `in the target of the block at line ${block.line}`);
      blocks(block);
    }
  };
  for (const sequence of compiled.sequences) {
    group(sequence.rules);
    blocks(sequence);
  }
  const global = compiled.global.rules;
  const head = global.length > 0 ? global.at(0) : undefined;
  if (head !== undefined) {
    const more = global.length > 1 ? ` (as do ${global.length - 1} more)` : "";
    ctx.add(
      head.line,
      "info",
      "global-rule",
      `${quote(head.text)} is in the global section: it applies to every robot${more}, on top of the rules of the robot's own sequence (both must allow; docs/regp.md#layout)`,
    );
  }
  group(global, "in the global section");
  blocks(compiled.global);
}

/** seeds/003 §3.2: blocks narrow commands within a command content segment. */
function checkBlocks(ctx: LintContext, layout: RegpLayout): void {
  for (const block of layout.global.blocks) {
    ctx.add(
      block.line,
      "warning",
      "block-outside-sequence",
      "this block is not inside a command sequence: REGP places brace lines within a command content segment, and its grammar gives the global section none (docs/regp.md#brace-blocks); heed applies it to every robot, other robots may not",
    );
  }
  const visit = (blocks: readonly Block[]) => {
    for (const block of blocks) {
      const { directives, blocks: inner } = block.content;
      if (directives.length + inner.length === 0) {
        ctx.add(
          block.line,
          "info",
          "empty-block",
          "this block has no commands besides its target, so it changes nothing: its User-agent, Ip, Allow and Disallow lines only say where its other commands apply (docs/regp.md#brace-blocks)",
        );
      }
      visit(inner);
    }
  };
  for (const sequence of layout.sequences) visit(sequence.content.blocks);
  visit(layout.global.blocks);
}

type TimeSetting = Setting & { readonly kind: "visit-time" | "time-forbidden" };

function isTime(s: Setting): s is TimeSetting {
  return s.kind === "visit-time" || s.kind === "time-forbidden";
}

/**
 * seeds/003 §3.2.8 with the readings of `time-window.ts`. A scope's Time-forbidden lines, and
 * those of every scope around it (the global section's too), hold whenever its Visit-time
 * lines do. Nothing reads a clock: "already over" is measured against the file's own
 * Last-modified.
 */
function checkTimes(ctx: LintContext, compiled: CompiledRegp): void {
  const modified = compiled.lastModified;
  let visits = 0;
  const visit = (scope: Scope, inherited: readonly TimeSetting[]) => {
    const times = scope.settings.filter(isTime);
    const forbidden = [...inherited, ...times.filter((s) => s.kind === "time-forbidden")];
    for (const s of times) {
      checkZone(ctx, s);
      if (s.kind === "time-forbidden") checkForbidden(ctx, s, modified);
      else if (visits++ < MAX_VISITS_CHECKED) checkVisit(ctx, s, forbidden, modified);
    }
    for (const block of scope.blocks) visit(block, forbidden);
  };
  visit(compiled.global, []);
  const shared = compiled.global.settings.filter(
    (s): s is TimeSetting => s.kind === "time-forbidden",
  );
  for (const sequence of compiled.sequences) visit(sequence, shared);
}

function valueOf(s: TimeSetting): string {
  const colon = s.text.indexOf(":");
  return colon < 0 ? s.text : s.text.slice(colon + 1).trim();
}

function name(s: TimeSetting): string {
  return s.kind === "visit-time" ? "Visit-time" : "Time-forbidden";
}

/** seeds/003 §3.2.8: a zone written on one end holds for both; none at all is read as UT. */
function checkZone(ctx: LintContext, s: TimeSetting): void {
  if (s.span.start.offsetMinutes !== null || s.span.end.offsetMinutes !== null) return;
  ctx.add(
    s.line,
    "warning",
    "time-no-zone",
    `${name(s)} ${quote(valueOf(s))} names no time zone: heed reads it as UT (docs/regp.md#every-field), robots elsewhere may read their own local time; add "UT" or "+hhmm"`,
  );
}

function dated(span: TimeSpan): boolean {
  return span.start.date !== null && span.end.date !== null;
}

/** The first instant after a dated span (its end names the last second inside it). */
function after(span: TimeSpan): number {
  return instantOf(span.end as DatedTimeExpression) + SECOND_MS;
}

function neverOpens(windows: readonly TimeWindow[], at: number): boolean {
  const state = combineWindows(windows, at);
  return !state.open && state.next === null && !state.gaveUp;
}

function checkVisit(
  ctx: LintContext,
  s: TimeSetting,
  forbidden: readonly TimeSetting[],
  modified: CompiledRegp["lastModified"],
): void {
  const since = modified?.instant ?? null;
  const isDated = dated(s.span);
  if (isDated && since !== null && after(s.span) <= since) {
    ctx.add(
      s.line,
      "warning",
      "visit-time-never-opens",
      `Visit-time ${quote(valueOf(s))} never opens: it ended before the file's Last-modified at line ${modified?.line}, so robots it applies to may never come`,
    );
    return;
  }
  if (forbidden.length === 0 || forbidden.length > MAX_FORBIDDEN_WEIGHED) return;
  // From the later of its start and Last-modified; a daily span from Last-modified or 1970.
  const start = isDated ? instantOf(s.span.start as DatedTimeExpression) : 0;
  const at = since === null ? start : Math.max(start, since);
  const own: TimeWindow = { kind: "visit", span: s.span };
  const windows = [own, ...forbidden.map((f): TimeWindow => ({ kind: "forbidden", span: f.span }))];
  if (!neverOpens(windows, at)) return;
  const alone = forbidden
    .slice(0, MAX_CULPRITS_TRIED)
    .find((f) => neverOpens([own, { kind: "forbidden", span: f.span }], at));
  const by = (alone === undefined ? forbidden : [alone]).map((f) => f.line);
  const lines = by.length === 1 ? `line ${by[0]}` : `lines ${by.join(", ")}`;
  const when = since !== null && since > start ? " from the file's Last-modified on" : "";
  ctx.add(
    s.line,
    "warning",
    "visit-time-never-opens",
    `Visit-time ${quote(valueOf(s))} never opens: every moment it allows${when} falls in the Time-forbidden of ${lines}, which holds wherever this line does`,
  );
}

function checkForbidden(
  ctx: LintContext,
  s: TimeSetting,
  modified: CompiledRegp["lastModified"],
): void {
  if (neverOpens([{ kind: "forbidden", span: s.span }], modified?.instant ?? 0)) {
    ctx.add(
      s.line,
      "warning",
      "always-forbidden",
      `Time-forbidden ${quote(valueOf(s))} covers the whole day, every day (a daily span that ends where it starts is the whole day): robots it applies to may never come; "Disallow: /" says so plainly`,
    );
    return;
  }
  const since = modified?.instant ?? null;
  if (dated(s.span) && since !== null && after(s.span) <= since) {
    ctx.add(
      s.line,
      "info",
      "expired-span",
      `Time-forbidden ${quote(valueOf(s))} ended before the file's Last-modified at line ${modified?.line}; it forbids nothing any more`,
    );
  }
}

/** A severity for each REGP layout and compile diagnostic, as lint reports them. */
export const REGP_PARSER_SEVERITY: Readonly<Record<string, Severity>> = {
  "unbalanced-brace": "error",
  "brace-depth": "error",
  "bad-value": "warning",
  "missing-blank-line": "warning",
  "header-out-of-place": "warning",
};
