/**
 * `heed lint`'s judgement of a robots.txt, as data: each finding has a line (or null for the
 * file), a severity, a stable kebab-case code and a one-line message. Pure: text in, findings
 * out. The parser's own diagnostics are part of the result, at the severity lint gives them.
 *
 * Severities: an error means robots will not read the file as its author meant (a cut file,
 * an HTML page, a server error); a warning, that some line probably does not do what it
 * seems to; an info, something worth knowing that may well be intended.
 */
import { htmlPageLine } from "./html-page.js";
import type { Diagnostic, Severity } from "./diagnostic.js";
import type { Dialect, DialectChoice } from "./dialect.js";
import type { FetchVerdict } from "./fetch-rules.js";
import type { LintContext, LintFinding } from "./lint/finding.js";
import { groupSpans, lintGroups } from "./lint/groups.js";
import { lintLines } from "./lint/lines.js";
import { lintMobileAgentServers } from "./lint/mobile-agent.js";
import {
  lintRegp,
  REGP_PARSER_SEVERITY,
  readRegp,
  type RegpModel,
  regpRestricts,
} from "./lint/regp.js";
import { lintRules } from "./lint/rules.js";
import { lintUsage } from "./lint/usage.js";
import { parseRobots, type RobotsPolicy } from "./policy.js";

export type { LintFinding } from "./lint/finding.js";

export interface LintOptions {
  /** Default `auto` (DESIGN §3): chosen by the file's `Robot-version` line. */
  readonly dialect?: DialectChoice;
  /**
   * What the answer to `GET /robots.txt` meant, when the file was fetched. A verdict other
   * than `parse` becomes a finding on line null (the body linted is then usually empty).
   */
  readonly verdict?: FetchVerdict;
}

export interface LintReport {
  readonly dialect: Dialect;
  /** Sorted by line; file-wide findings (line null) first. */
  readonly findings: readonly LintFinding[];
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

/**
 * The severity lint gives each parser diagnostic. Cut content is an error: robots see a
 * different file from the one written. The rest are read one way or another and warned about.
 */
const PARSER_SEVERITY: Readonly<Record<string, Severity>> = {
  "size-limit": "error",
  "line-too-long": "error",
  "invalid-utf8": "warning",
  "invalid-line": "warning",
  "missing-colon": "warning",
  "rule-outside-group": "warning",
  "bad-path": "warning",
  "bad-crawl-delay": "warning",
  "too-many-agents": "warning",
  ...REGP_PARSER_SEVERITY,
};

/** Codes that are only noise once the file is known not to be a robots.txt at all. */
const NOISE_IN_FOREIGN_FILE: ReadonlySet<string> = new Set([
  "invalid-line",
  "missing-colon",
  "invalid-utf8",
  "unknown-key",
  "extension-key",
  "nonstandard-key",
  "regp-key",
  "misspelt-key",
  "bad-path",
  "no-groups",
  "bad-value",
  "hash-comment",
  "missing-robot-version",
]);

/** Lints a robots.txt given as bytes or text. Never throws on content. */
export function lintRobots(input: string | Uint8Array, options: LintOptions = {}): LintReport {
  const policy = parseRobots(input, { dialect: options.dialect ?? "auto" });
  const utf16 =
    typeof input !== "string" &&
    ((input[0] === 0xff && input[1] === 0xfe) || (input[0] === 0xfe && input[1] === 0xff));
  return lintParsed(policy, { utf16, verdict: options.verdict ?? null });
}

/** Lints a policy that is already parsed. */
export function lintPolicy(
  policy: RobotsPolicy,
  options: Pick<LintOptions, "verdict"> = {},
): LintReport {
  return lintParsed(policy, { utf16: false, verdict: options.verdict ?? null });
}

/** The finding for a fetch whose answer was not a robots.txt to parse (DESIGN §3), or null. */
export function lintFetchVerdict(verdict: FetchVerdict): LintFinding | null {
  switch (verdict.action) {
    case "parse":
      return null;
    case "allow-all":
      return finding(
        null,
        "info",
        "no-robots-txt",
        `no robots.txt: everything is allowed (${verdict.why})`,
      );
    case "disallow-all":
      return finding(
        null,
        "warning",
        "site-disallowed",
        `the whole site is disallowed for robots (${verdict.why})`,
      );
    case "follow":
    case "unreachable":
      return finding(
        null,
        "error",
        "unreachable",
        `robots.txt could not be read, so robots stay away from the whole site for now (${verdict.why})`,
      );
  }
}

function lintParsed(
  policy: RobotsPolicy,
  options: { readonly utf16: boolean; readonly verdict: FetchVerdict | null },
): LintReport {
  const own: LintFinding[] = [];
  const replaced = new Set<string>();
  const ctx: LintContext = {
    policy,
    dialect: policy.dialect,
    add: (line, severity, code, message) => {
      own.push(finding(line, severity, code, message));
    },
    replace: (line, code) => {
      replaced.add(`${line}:${code}`);
    },
  };
  const fetched = options.verdict === null ? null : lintFetchVerdict(options.verdict);
  if (fetched !== null) own.push(fetched);
  // REGP is read from its layout (seeds/003 §3.2): sequences, blocks and a global section,
  // not classic groups, so the group and rule checks of the other dialects do not apply.
  const regp = policy.regp ?? (policy.dialect === "regp" ? readRegp(policy.text.lines) : null);
  const foreign = lintFile(ctx, options.utf16, fetched !== null, regp);
  lintLines(ctx);
  lintMobileAgentServers(ctx);
  lintUsage(ctx);
  if (regp !== null) {
    lintRegp(ctx, regp);
  } else {
    const spans = groupSpans(ctx);
    lintGroups(ctx, spans);
    lintRules(ctx, spans);
  }

  // Lint's own finding replaces the parser's with the same line and code (a better message),
  // and those it names as replaced under another code.
  const seen = new Set([...own.map(key), ...replaced]);
  const all = [...own];
  for (const d of policy.diagnostics) {
    if (seen.has(key(d))) continue;
    all.push(finding(d.line, PARSER_SEVERITY[d.code] ?? d.severity, d.code, d.message));
  }
  const kept = all.filter((f) => !(foreign && NOISE_IN_FOREIGN_FILE.has(f.code)));
  const findings = kept
    .map((f, i) => ({ f, i }))
    .sort((a, b) => (a.f.line ?? 0) - (b.f.line ?? 0) || a.i - b.i)
    .map(({ f }) => f);
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const f of findings) {
    if (f.severity === "error") errors++;
    else if (f.severity === "warning") warnings++;
    else infos++;
  }
  return { dialect: policy.dialect, findings, errors, warnings, infos };
}

/** File-wide checks. True when the file is not a robots.txt at all (HTML, UTF-16). */
function lintFile(
  ctx: LintContext,
  utf16: boolean,
  fetchedEmpty: boolean,
  regp: RegpModel | null,
): boolean {
  const { text, groups } = ctx.policy;
  let foreign = false;
  if (utf16) {
    foreign = true;
    ctx.add(
      null,
      "error",
      "utf-16",
      "the file is UTF-16; robots.txt must be UTF-8 (RFC 9309 §2.3), and robots read no rules from it",
    );
  }
  const html = htmlPageLine(text);
  if (html !== null) {
    foreign = true;
    ctx.add(html, "error", "html-page", "this looks like an HTML page, not a robots.txt");
  }
  if (text.bom) {
    ctx.add(
      null,
      "info",
      "bom",
      "the file starts with a byte order mark; heed and Google skip it, older parsers read it as part of the first key",
    );
  }
  if (fetchedEmpty) return foreign;
  const content = text.lines.some((l) => l.kind !== "blank" && l.kind !== "comment");
  if (!content) {
    ctx.add(null, "info", "empty-file", "the file has no rules: every robot may fetch everything");
  } else if (regp !== null) {
    if (!regpRestricts(regp)) {
      ctx.add(
        null,
        "info",
        "no-groups",
        "the file has no command sequence (User-agent or Ip lines) and no global Allow or Disallow line, so it keeps no robot from any path",
      );
    }
  } else if (groups.length === 0) {
    ctx.add(null, "info", "no-groups", "the file has no User-agent line, so it restricts no robot");
  }
  return foreign;
}

function finding(
  line: number | null,
  severity: Severity,
  code: string,
  message: string,
): LintFinding {
  return { line, severity, code, message };
}

function key(d: Diagnostic): string {
  return `${d.line ?? ""}:${d.code}`;
}
