/** Checks of single lines: keys, User-agent values, paths, Sitemap and Robot-version. */
import { patternOptions } from "../dialect.js";
import type { RobotsLine } from "../line-reader.js";
import { PathPattern } from "../path-pattern.js";
import { agentValueToken, isRfcProductToken } from "../product-token.js";
import { readPathValue } from "../regp/values/path-value.js";
import { displayKey, type LintContext, quote } from "./finding.js";
import { checkExtensionKey, checkMisspelt } from "./keys.js";

/**
 * A `#` that a Koster 1996 or RFC 9309 reader would take for the start of a comment: at the
 * start of a value or after a blank. REGP comments start with `##` only (seeds/003 Table 2),
 * so under REGP such a `#` and all after it are part of the value.
 */
export const SINGLE_HASH_COMMENT = /(?:^|[ \t])#/;

/** Every line-level check, in file order. */
export function lintLines(ctx: LintContext): void {
  const { text } = ctx.policy;
  const regp = ctx.dialect === "regp";
  let groupStarted = false;
  for (const line of text.lines) {
    checkMisspelt(line, ctx);
    switch (line.kind) {
      case "user-agent":
        groupStarted = true;
        checkAgent(line, ctx);
        break;
      case "allow":
      case "disallow":
        groupStarted = true;
        checkPath(line, ctx);
        break;
      case "sitemap":
        // REGP Sitemap values are read by their own parser; a bad one is its `bad-value`.
        if (!regp) checkSitemap(line, ctx);
        break;
      case "robot-version":
        // REGP: the header's place is checked with the file's layout (lint/regp.ts).
        if (groupStarted && !regp) {
          ctx.add(
            line.number,
            "warning",
            "late-robot-version",
            "Robot-version must come before the first group; here it is ignored and does not choose the dialect",
          );
        }
        break;
      case "extension":
        checkExtensionKey(line, ctx);
        break;
      default:
        break;
    }
  }
  checkRobotVersion(ctx);
}

/** DESIGN §3: dialects by Robot-version; other versions fall back to RFC 9309. */
function checkRobotVersion(ctx: LintContext): void {
  const version = ctx.policy.robotVersion;
  if (version === null) return;
  const major = version.trim().split(".")[0];
  if (major === "1" || major === "2" || major === "3") return;
  const line = ctx.policy.text.lines.find((l) => l.kind === "robot-version");
  ctx.add(
    line?.number ?? null,
    "warning",
    "unknown-robot-version",
    `Robot-version ${quote(version)} is none of 1.0, 2.0 (Koster 1996) or 3.0 (REGP); the file is read as RFC 9309`,
  );
}

function checkAgent(line: RobotsLine, ctx: LintContext): void {
  const value = line.value;
  if (value === "") {
    ctx.add(line.number, "warning", "empty-agent", "User-agent has no value and names no robot");
    return;
  }
  if (ctx.dialect !== "rfc9309") return;
  const token = agentValueToken(value);
  if (token === "*" || isRfcProductToken(token)) return;
  // DESIGN §3: heed keeps the token whole; google/robotstxt keeps only its leading
  // letters, `-` and `_`, so the group also applies to robots named by that prefix.
  const written = value.slice(0, token.length);
  const prefix = /^[A-Za-z_-]*/.exec(written)?.[0] ?? "";
  const google =
    prefix === ""
      ? "Google's parser reads no name from it at all"
      : `Google's parser stops at ${quote(written[prefix.length] ?? "")} and also applies this group to a robot named ${quote(prefix)}`;
  ctx.add(
    line.number,
    "warning",
    "agent-not-product-token",
    `User-agent ${quote(written)} is not an RFC 9309 product token (letters, "-" and "_" only): heed matches it whole, but ${google}`,
  );
}

// `https://example.com/x`: a URL where a path belongs.
const FULL_URL = /^[a-z][a-z0-9+.-]*:\/\//i;
// `//example.com/x`: a URL without its scheme (a host with a dot, so `//tmp` stays a path).
const SCHEMELESS_URL = /^\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?(?:[/?#]|$)/i;

function checkPath(line: RobotsLine, ctx: LintContext): void {
  const value = line.value;
  if (value === "") return;
  const readable = ctx.dialect === "regp" ? regpPathShape(line, ctx) : classicPathShape(line, ctx);
  if (!readable) return;
  if (ctx.dialect === "koster1996") {
    if (value.includes("*") || value.endsWith("$")) {
      ctx.add(
        line.number,
        "warning",
        "wildcard-in-koster",
        `Koster 1996 has no wildcards: "*" and "$" in ${quote(value)} are matched as literal characters`,
      );
    }
    if (line.kind === "allow" && ctx.policy.robotVersion?.trim().split(".")[0] === "1") {
      ctx.add(
        line.number,
        "warning",
        "allow-ignored",
        "robots of Robot-version 1.0 predate Allow and ignore this line",
      );
    }
  } else {
    const dollar = value.indexOf("$");
    if (dollar >= 0 && dollar < value.length - 1) {
      ctx.add(
        line.number,
        "warning",
        "dollar-mid-pattern",
        `"$" ends a match only at the end of a pattern; in ${quote(value)} it is a literal "$"`,
      );
    }
  }
  const pattern = new PathPattern(value, patternOptions(ctx.dialect));
  if (pattern.canonical === "/robots.txt" || pattern.canonical === "/robots.txt$") {
    ctx.add(
      line.number,
      "info",
      "robots-txt-rule",
      ctx.dialect === "regp"
        ? "/robots.txt is always allowed and should not appear in a path group (docs/regp.md#paths); this rule has no effect on it"
        : "/robots.txt is always allowed (RFC 9309 §2.2.2); this rule has no effect on it",
    );
  }
}

/** Koster 1996 and RFC 9309 paths; returns whether the value is a path to check further. */
function classicPathShape(line: RobotsLine, ctx: LintContext): boolean {
  const value = line.value;
  const koster = ctx.dialect === "koster1996";
  const first = value[0];
  if (FULL_URL.test(value)) {
    ctx.add(
      line.number,
      "warning",
      "bad-path",
      `${displayKey(line.kind)} path ${quote(value)} is a full URL and is ignored; did you mean ${quote(suggestPath(value))}?`,
    );
    return false;
  }
  if (first !== "/" && first !== "*") {
    ctx.add(
      line.number,
      "warning",
      "bad-path",
      `${displayKey(line.kind)} path ${quote(value)} does not start with "/"${koster ? "" : ' or "*"'} and is ignored; did you mean ${quote(suggestPath(value))}?`,
    );
    return false;
  }
  return !schemeless(line, ctx);
}

/**
 * REGP paths (seeds/003 §3.2.5) as heed's value parser reads them: a full http(s) URL is read
 * as its path; anything else not starting with "/" or "*" is refused (its `bad-value` is
 * replaced here by a `bad-path` with a suggestion). A value with a lone `#` is left to the
 * comment check. Returns whether the value is a path to check further.
 */
function regpPathShape(line: RobotsLine, ctx: LintContext): boolean {
  const value = line.value;
  if (SINGLE_HASH_COMMENT.test(value)) return false;
  const read = readPathValue(value);
  if (read.ok && read.value.fromUrl) {
    ctx.add(
      line.number,
      "info",
      "url-as-path",
      `${displayKey(line.kind)} ${quote(value)} is a full URL: heed reads its path ${quote(read.value.path)}, but REGP writes a path (docs/regp.md#paths) and other robots may ignore the line`,
    );
    return false;
  }
  const first = value[0];
  if (FULL_URL.test(value) || (first !== "/" && first !== "*")) {
    ctx.replace(line.number, "bad-value");
    ctx.add(
      line.number,
      "warning",
      "bad-path",
      `${displayKey(line.kind)} path ${quote(value)} does not start with "/" or "*" and is ignored; did you mean ${quote(suggestPath(value))}?`,
    );
    return false;
  }
  if (!read.ok) return false; // a space or a control character: the parser's `bad-value` says so
  return !schemeless(line, ctx);
}

/** `//example.com/x`: reported; true when it is one. */
function schemeless(line: RobotsLine, ctx: LintContext): boolean {
  const value = line.value;
  if (!SCHEMELESS_URL.test(value)) return false;
  ctx.add(
    line.number,
    "warning",
    "bad-path",
    `${displayKey(line.kind)} path ${quote(value)} is a URL without its scheme; did you mean ${quote(suggestPath(value))}?`,
  );
  return true;
}

/** What a path that does not start with "/" probably meant: `private/` → `/private/`. */
export function suggestPath(value: string): string {
  if (FULL_URL.test(value) || SCHEMELESS_URL.test(value)) {
    try {
      const url = new URL(value.startsWith("//") ? `http:${value}` : value);
      return url.pathname + url.search;
    } catch {
      // fall through: not a URL after all
    }
  }
  return `/${value.replace(/^(?:\.{1,2}\/)+/, "")}`;
}

/** A Sitemap value robots read: an absolute http(s) URL (RFC 9309 §2.2.4); they ignore others. */
export function isRobotsSitemap(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function checkSitemap(line: RobotsLine, ctx: LintContext): void {
  const value = line.value;
  if (isRobotsSitemap(value)) return;
  ctx.add(
    line.number,
    "warning",
    "bad-sitemap",
    value === ""
      ? "Sitemap has no URL"
      : `Sitemap ${quote(value)} is not an absolute http(s) URL (RFC 9309 §2.2.4); robots ignore it`,
  );
}
