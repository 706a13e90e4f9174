// A URL to queue in the store tests: depth 0, priority 0, due at once, no referrer or meta,
// unless `extra` says otherwise.
import type { NewUrl } from "../../src/store/types.js";

export function newUrl(origin: string, path: string, extra: Partial<NewUrl> = {}): NewUrl {
  return {
    url: `${origin}${path}`,
    origin,
    depth: 0,
    priority: 0,
    notBefore: 0,
    referrer: null,
    meta: null,
    ...extra,
  };
}
