/**
 * A dataset path to an absolute URL on the site. seeds/002 §3.1: the file applies to the site
 * it is fetched from, so every path it names must be on that site (same scheme, host and
 * port). Relative paths resolve against the file's own URL, so that a folder's manifest
 * (`/census/data.txt`) names its files as `2020.csv`; paths starting with `/` are from the root.
 */

export type Resolved =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly code: "outside-site" | "bad-path"; readonly message: string };

/** Stands for the site when the file's URL is not known (a local file given to `heed lint`). */
export const UNKNOWN_SITE = "http://site.invalid/data.txt";

export function resolveDatasetPath(path: string, fileUrl: string): Resolved {
  if (path.trim() === "") return { ok: false, code: "bad-path", message: "the path is empty" };
  if (/[\0-\x1f\x7f]/.test(path)) {
    return { ok: false, code: "bad-path", message: `"${show(path)}" has control characters` };
  }
  let base: URL;
  let url: URL;
  try {
    base = new URL(fileUrl);
    url = new URL(path, base);
  } catch {
    return { ok: false, code: "bad-path", message: `"${show(path)}" is not a URL path` };
  }
  if (url.origin !== base.origin || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return {
      ok: false,
      code: "outside-site",
      message: `"${show(path)}" is outside the site ${base.origin}: a /data.txt names only its own site's paths (docs/data-txt.md)`,
    };
  }
  url.hash = "";
  return { ok: true, url: url.href };
}

function show(text: string): string {
  const clean = text.replace(/[\0-\x1f\x7f]/g, "?");
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}
