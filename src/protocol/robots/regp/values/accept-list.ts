/**
 * `Language`, `Encoding` and `Charset` values (seeds/003 §3.2.9): comma lists with q-values "using
 * the conventions of RFC2616", as in its Accept-Language (§14.4), Accept-Encoding (§14.3) and
 * Accept-Charset (§14.2) headers. In robots.txt they are requirements (DESIGN §4): a robot that
 * supports none of the listed values must not crawl the site.
 */
import { fail, ok, type ValueResult } from "./result.js";
import { firstBad, formatDecimal, got, show } from "./text.js";

export type AcceptKind = "language" | "encoding" | "charset";

export interface AcceptItem {
  /** Lower-cased language range, content-coding or charset; `*` for any. */
  readonly value: string;
  /** RFC 2616 §3.9 quality, 0..1; 1 when none is written; 0 means "not acceptable". */
  readonly q: number;
}

// RFC 2616 §3.10 / §14.4: language-range = ( 1*8ALPHA *( "-" 1*8ALPHA ) ) | "*". Subtags after
// the first may hold digits too (`es-419`, `de-CH-1996`): RFC 4647 §2.1, which RFC 7231 §5.3.5 uses.
const LANGUAGE_RANGE = /^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$/;
// RFC 2616 §3.9: qvalue = ( "0" [ "." 0*3DIGIT ] ) | ( "1" [ "." 0*3("0") ] ).
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

const EXAMPLE: Readonly<Record<AcceptKind, string>> = {
  language: "a language range such as en-us or zh",
  encoding: "a content-coding such as gzip",
  charset: "a charset such as utf-8",
};

/**
 * `zh-cn, zh`; `gzip, deflate`; `utf-8;q=0.7, *;q=0.1`. Empty list elements are skipped
 * (RFC 2616 §2.1 #rule); the only parameter is `q` (any case), with spaces allowed around `;`
 * and `=`.
 */
export function parseAcceptList(
  text: string,
  kind: AcceptKind,
): ValueResult<readonly AcceptItem[]> {
  const t = text.trim();
  if (t === "") return fail(`expected a comma-separated list of ${EXAMPLE[kind]}, got ${got(t)}`);
  const items: AcceptItem[] = [];
  for (const element of t.split(",")) {
    if (element.trim() === "") continue;
    const [head = "", ...params] = element.split(";");
    const value = head.trim();
    const bad = checkValue(value, kind);
    if (bad !== null) return fail(bad);
    let q: number | null = null;
    for (const param of params) {
      const p = param.trim();
      const eq = p.indexOf("=");
      if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== "q") {
        return fail(`expected only a q parameter (";q=0.5") after ${show(value)}, got ${got(p)}`);
      }
      if (q !== null)
        return fail(`expected one q parameter after ${show(value)}, got a second ${show(p)}`);
      const qText = p.slice(eq + 1).trim();
      if (!QVALUE.test(qText)) {
        return fail(
          `expected a q-value from 0 to 1 with at most 3 decimals, got ${got(qText)} after ${show(value)}`,
        );
      }
      q = Number(qText);
    }
    items.push({ value: value.toLowerCase(), q: q ?? 1 });
  }
  if (items.length === 0)
    return fail(`expected at least one ${EXAMPLE[kind]}, got only commas in ${show(t)}`);
  return ok(items);
}

/**
 * The site requires one of `required`; the robot supports `supported`. Returns the required value
 * (as listed, lower-cased; `*` if that is what matched) that the robot can meet, best q first and
 * in list order on a tie, or null when it can meet none, in which case it must not crawl.
 *
 * Matching ignores case; `*` on either side matches anything; language ranges match when equal or
 * when one is the other followed by `-` (`zh` ~ `zh-cn`); charsets ignore `-` and `_` (`utf-8` ~
 * `UTF8`); `x-gzip` is `gzip` and `x-compress` is `compress` (RFC 2616 §3.5). An item with q=0
 * never counts, and refuses exactly its own value: `*, utf-8;q=0` does not admit a utf-8 robot.
 */
export function firstSupported(
  required: readonly AcceptItem[],
  supported: readonly string[],
  kind: AcceptKind,
): string | null {
  const refused = required
    .filter((r) => r.q === 0 && r.value !== "*")
    .map((r) => normalize(r.value, kind));
  const usable = supported.filter((s) => !refused.includes(normalize(s, kind)));
  // Array.prototype.sort is stable: equal q keeps list order.
  const wanted = required.filter((r) => r.q > 0).sort((a, b) => b.q - a.q);
  for (const item of wanted) {
    if (usable.some((s) => valuesMatch(item.value, s, kind))) return item.value;
  }
  return null;
}

/** `zh-cn, zh;q=0.5`: q written only when it is not 1. */
export function formatAcceptList(items: readonly AcceptItem[]): string {
  return items.map((i) => (i.q === 1 ? i.value : `${i.value};q=${formatDecimal(i.q)}`)).join(", ");
}

function checkValue(value: string, kind: AcceptKind): string | null {
  if (value === "") return `expected ${EXAMPLE[kind]} before ";", got nothing`;
  if (kind === "language") {
    return LANGUAGE_RANGE.test(value)
      ? null
      : `expected ${EXAMPLE.language} (letters, "-" subtags) or "*", got ${show(value)}`;
  }
  // RFC 2616 §3.5 content-coding and §3.4 charset are tokens (§2.2).
  const bad = firstBad(value, isTokenChar);
  return bad === null
    ? null
    : `expected ${EXAMPLE[kind]} (an RFC 2616 token), got ${show(bad)} in ${show(value)}`;
}

/** RFC 2616 §2.2: token = 1*<any CHAR except CTLs or separators>. */
export function isTokenChar(code: number): boolean {
  if (code <= 0x20 || code >= 0x7f) return false;
  return !'()<>@,;:\\"/[]?={}'.includes(String.fromCharCode(code));
}

function valuesMatch(required: string, offered: string, kind: AcceptKind): boolean {
  const a = normalize(required, kind);
  const b = normalize(offered, kind);
  if (a === "*" || b === "*" || a === b) return true;
  return kind === "language" && (a.startsWith(`${b}-`) || b.startsWith(`${a}-`));
}

function normalize(value: string, kind: AcceptKind): string {
  const lower = value.trim().toLowerCase();
  if (kind === "charset") return lower === "*" ? lower : lower.replace(/[-_]/g, "");
  if (kind === "encoding")
    return lower === "x-gzip" ? "gzip" : lower === "x-compress" ? "compress" : lower;
  return lower;
}
