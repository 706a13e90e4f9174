/**
 * The licenses a site names for its content: the RSL `License:` line of robots.txt (RSL 1.0,
 * Really Simple Licensing, 2025) and HTTP's `Link: <…>; rel="license"` (RFC 8288 §3, the
 * registered "license" relation of RFC 4946). heed reads and shows them; it agrees to nothing.
 */
import { readRobotsText, type RobotsText } from "./line-reader.js";

/** Licenses kept from one file or header: a site names one, rarely a few. */
export const MAX_LICENSES = 16;

export interface NamedLicense {
  /** Where it was named: `robots.txt line 3`, or `Link rel="license"`. */
  readonly where: string;
  /** The URL as written (relative ones are resolved against the base when one is given). */
  readonly url: string;
}

/** The `License:` lines of a robots.txt, in file order. */
export function robotsLicenses(
  input: RobotsText | string | Uint8Array,
  base?: string,
): NamedLicense[] {
  const text =
    typeof input === "string" || input instanceof Uint8Array ? readRobotsText(input) : input;
  const found: NamedLicense[] = [];
  for (const line of text.lines) {
    if (found.length === MAX_LICENSES) break;
    if (line.key.toLowerCase() !== "license" || line.value === "") continue;
    found.push({ where: `robots.txt line ${line.number}`, url: resolved(line.value, base) });
  }
  return found;
}

/** The targets of `rel="license"` links in a Link field (RFC 8288 §3). */
export function linkLicenses(field: string | null | undefined, base?: string): NamedLicense[] {
  if (field === null || field === undefined) return [];
  const found: NamedLicense[] = [];
  // Each link: <target> then parameters up to the next link; a comma inside <…> or "…" is kept.
  const link = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"[^"]*"|[^;,]*))?)*)/g;
  for (const match of field.matchAll(link)) {
    if (found.length === MAX_LICENSES) break;
    const [, target = "", params = ""] = match;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(params);
    const relations = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
    if (relations.includes("license")) {
      found.push({ where: 'Link rel="license"', url: resolved(target.trim(), base) });
    }
  }
  return found;
}

function resolved(url: string, base: string | undefined): string {
  if (base === undefined) return url;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}
