/**
 * A proxy's URL, as `--proxy` and `proxyFor` take it (proxy-route.ts). Apart from the router so
 * that checking a flag loads no HTTP client.
 */

export interface ProxyOptions {
  /** The proxy every request goes through (`http://host:port`), unless `proxyFor` names another. */
  readonly proxy?: string;
  /** Per target host (as `URL.hostname` writes it): its proxy, or `direct` for none. */
  readonly proxyFor?: Readonly<Record<string, string>>;
}

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

/** The first of `proxy` and `proxyFor` that is not a proxy URL (nor `direct`), or null. */
export function badProxyOption(
  options: ProxyOptions,
): { readonly name: string; readonly value: unknown; readonly problem: string } | null {
  const named: [string, unknown][] = [
    ["proxy", options.proxy],
    ...Object.entries(options.proxyFor ?? {}).map(([host, url]): [string, unknown] => [
      `proxyFor["${host}"]`,
      url,
    ]),
  ];
  for (const [name, value] of named) {
    if (value === undefined || value === DIRECT) continue;
    const problem = typeof value === "string" ? proxyProblem(value) : "not a string";
    if (problem !== null) return { name, value, problem };
  }
  return null;
}
