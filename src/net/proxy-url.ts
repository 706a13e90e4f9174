/**
 * A proxy's URL, as `--proxy` and `proxyFor` take it (proxy-route.ts). Apart from the router so
 * that checking a flag loads no HTTP client.
 */

/** The word of `proxyFor` for a host reached without a proxy. */
export const DIRECT = "direct";

/** What is wrong with a proxy URL, or null: http(s), a host, nothing after the authority. */
export function proxyProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `"${url}": a proxy is an http:// or https:// URL`;
  if (parsed.pathname !== "/" || parsed.search !== "" || parsed.hash !== "")
    return `"${url}": a proxy URL has no path or query`;
  return null;
}
