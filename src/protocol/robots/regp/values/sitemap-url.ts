/**
 * `Sitemap` values (seeds/003 §3.2.12): an absolute http(s) URL (Appendix `httpurl`). The paper's
 * own example writes it in angle brackets, `Sitemap: <http://www.example.com/sitemap.xml>`, as
 * RFC 3986 Appendix C suggests for URLs in text; the brackets are dropped.
 */
import { firstSpaceOrControl, splitHttpUrl } from "./http-url.js";
import { fail, ok, type ValueResult } from "./result.js";
import { got, show } from "./text.js";

/** The URL as written, without `<` `>`; refused unless it is an absolute http(s) URL with a valid host. */
export function parseSitemapUrl(text: string): ValueResult<string> {
  let t = text.trim();
  if (t === "")
    return fail(
      `expected an absolute URL such as http://www.example.com/sitemap.xml, got ${got(t)}`,
    );
  const opens = t.startsWith("<");
  const closes = t.endsWith(">");
  if (opens !== closes) return fail(`expected balanced "<" and ">" around the URL, got ${show(t)}`);
  if (opens) {
    t = t.slice(1, -1).trim();
    if (t === "") return fail(`expected a URL inside "<>", got nothing`);
  }
  const bad = firstSpaceOrControl(t);
  if (bad !== null)
    return fail(
      `expected a URL without spaces or control characters, got ${show(bad)} in ${show(t)}`,
    );
  if (t.startsWith("/"))
    return fail(`expected an absolute URL with scheme and host, got the relative ${show(t)}`);
  const url = splitHttpUrl(t);
  if (!url.ok) return url;
  return ok(t);
}
