/** `Crawl-delay: 5`, `Crawl-delay: 0.5`: seconds, decimals allowed (seeds/003 §3.2.6). */
export function parseDelaySeconds(value: string): number | null {
  if (!/^\d+(?:\.\d+)?$|^\.\d+$/.test(value)) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) ? seconds : null;
}
