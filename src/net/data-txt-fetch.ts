/**
 * Fetching a /data.txt or a folder's manifest (seeds/002 §3.1): one GET through the crawler's
 * HTTP client (SSRF guard, timeouts, body cap), redirects followed by hand, at most
 * {@link MAX_DATA_TXT_REDIRECTS}, each hop asked of `mayFetch` first (robots.txt) and paced by
 * `beforeRequest`. The answer is plain data: found, missing (404 or 410) or failed.
 */
import { MAX_DATA_TXT_BYTES } from "../protocol/datasets/index.js";
import type { HttpClient } from "./http-client.js";

/** As for robots.txt (DESIGN §3): five hops are more than any honest site needs. */
export const MAX_DATA_TXT_REDIRECTS = 5;

export type DataTxtAnswer =
  | {
      readonly kind: "found";
      /** The URL that answered, after redirects: its paths resolve against it. */
      readonly url: string;
      readonly status: number;
      readonly contentType: string | null;
      readonly body: Uint8Array;
      /** The body was longer than the data.txt limit and was cut there. */
      readonly cut: boolean;
    }
  | { readonly kind: "missing"; readonly url: string; readonly status: number }
  | {
      readonly kind: "failed";
      readonly url: string;
      readonly status: number | null;
      readonly message: string;
    };

export interface DataTxtFetchOptions {
  readonly client: HttpClient;
  /** Called before every request (the site's pace); default: none. */
  readonly beforeRequest?: () => Promise<void>;
  /** Called after every answer (the gap counts from the answer); default: none. */
  readonly afterRequest?: () => void;
  /** Whether robots.txt lets the robot fetch a URL; a refusal ends the fetch as `failed`. */
  readonly mayFetch?: (url: string) => { readonly allowed: boolean; readonly why: string };
}

export async function fetchDataTxt(
  url: string,
  options: DataTxtFetchOptions,
): Promise<DataTxtAnswer> {
  let current = url;
  for (let hop = 0; hop <= MAX_DATA_TXT_REDIRECTS; hop++) {
    const permission = options.mayFetch?.(current);
    if (permission !== undefined && !permission.allowed) {
      return { kind: "failed", url: current, status: null, message: permission.why };
    }
    await options.beforeRequest?.();
    const answer = await options.client.fetchPage(current, {
      headers: { accept: "text/plain, text/yaml;q=0.9, */*;q=0.5" },
    });
    options.afterRequest?.();
    if (answer.kind === "error") {
      return { kind: "failed", url: current, status: null, message: answer.message };
    }
    const { status } = answer;
    if (status >= 300 && status < 400 && answer.location !== null) {
      current = answer.location;
      continue;
    }
    if (status === 404 || status === 410) return { kind: "missing", url: current, status };
    if (status < 200 || status >= 300) {
      return { kind: "failed", url: current, status, message: `the server answered ${status}` };
    }
    const body = answer.body ?? new Uint8Array();
    const cut = answer.bodyCut || body.byteLength > MAX_DATA_TXT_BYTES;
    return {
      kind: "found",
      url: current,
      status,
      contentType: answer.contentType,
      body:
        body.byteLength > MAX_DATA_TXT_BYTES + 1 ? body.subarray(0, MAX_DATA_TXT_BYTES + 1) : body,
      cut,
    };
  }
  return {
    kind: "failed",
    url: current,
    status: null,
    message: `more than ${MAX_DATA_TXT_REDIRECTS} redirects`,
  };
}
