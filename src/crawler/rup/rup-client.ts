/**
 * The robot's side of RUP over HTTP: reading a site's /rupinfo.txt (or /rupinfo.tex) and
 * sending action requests as form-encoded POSTs (seeds/001 §3.1.1: "preferrably the POST CGI
 * method"), through the crawler's HTTP client (its SSRF guard and pools).
 */
import { guardedRequest } from "../../net/guarded-request.js";
import type { HttpClient } from "../../net/http-client.js";
import {
  actionFields,
  type ActionRequest,
  answerText,
  MAX_REPORT_BYTES,
  MAX_RUPINFO_BYTES,
  parseRupInfo,
  type RupInfoResult,
} from "../../protocol/rup/index.js";

/** One action's whole exchange: a site that does not answer must not hold the robot. */
export const ACTION_TIMEOUT_MS = 30_000;

export interface ActionAnswer {
  readonly status: number;
  /** The body, up to the limit. */
  readonly body: string;
  /** The text the answer carries: its `<pre>` element, or the whole body. */
  readonly text: string;
}

export class RupClientError extends Error {
  constructor(
    readonly code:
      | "HEED_RUP_UNREACHABLE"
      | "HEED_RUP_NO_INFO"
      | "HEED_RUP_REFUSED"
      | "HEED_RUP_NOT_REGISTERED"
      | "HEED_RUP_REGISTERED",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "RupClientError";
  }
}

export interface FetchedInfo extends RupInfoResult {
  /** The URL the file was read from; RUP-CGI is resolved against it. */
  readonly url: string;
  readonly cgiUrl: string | null;
}

/**
 * Runs one exchange with the site at `url` under the site's reservation in the crawl store
 * (DESIGN §2, one reservation per site; ../site-gate.ts `siteTurn`).
 */
export type SiteTurn = <T>(url: string, exchange: () => Promise<T>) => Promise<T>;

/** No store: the exchange goes out at once. */
export const AT_ONCE: SiteTurn = (_url, exchange) => exchange();

export async function fetchRupInfo(
  client: HttpClient,
  site: string,
  turn: SiteTurn = AT_ONCE,
): Promise<FetchedInfo> {
  for (const name of ["/rupinfo.txt", "/rupinfo.tex"]) {
    const url = new URL(name, site).href;
    const page = await turn(url, () =>
      client.fetchPage(url, { headers: { accept: "text/plain, */*;q=0.5" } }),
    );
    if (page.kind === "error")
      throw new RupClientError("HEED_RUP_UNREACHABLE", `${url}: ${page.message}`);
    if (page.status === 404 || page.status === 410) continue;
    if (page.status !== 200 || page.body === null) {
      throw new RupClientError("HEED_RUP_NO_INFO", `${url}: HTTP ${page.status}`);
    }
    const text = new TextDecoder().decode(page.body.subarray(0, MAX_RUPINFO_BYTES + 1));
    const parsed = parseRupInfo(text);
    const cgi =
      parsed.info === null || !URL.canParse(parsed.info.cgiUrl, url)
        ? null
        : new URL(parsed.info.cgiUrl, url).href;
    return { ...parsed, url, cgiUrl: cgi };
  }
  throw new RupClientError(
    "HEED_RUP_NO_INFO",
    `${site} has no /rupinfo.txt (nor /rupinfo.tex): it offers no RUP`,
  );
}

/** Sends one action; any HTTP answer resolves (the caller reads the status), no answer rejects. */
export async function sendAction(
  client: HttpClient,
  cgiUrl: string,
  action: ActionRequest,
  turn: SiteTurn = AT_ONCE,
): Promise<ActionAnswer> {
  return turn(cgiUrl, () => exchangeAction(client, cgiUrl, action));
}

async function exchangeAction(
  client: HttpClient,
  cgiUrl: string,
  action: ActionRequest,
): Promise<ActionAnswer> {
  const body = new URLSearchParams(actionFields(action)).toString();
  try {
    const res = await guardedRequest(cgiUrl, {
      method: "POST",
      client,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html, text/plain;q=0.9",
      },
      body,
      signal: AbortSignal.timeout(ACTION_TIMEOUT_MS),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_REPORT_BYTES) {
        res.body.destroy();
        break;
      }
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString("utf8");
    return { status: res.status, body: text, text: answerText(text) };
  } catch (error) {
    throw new RupClientError("HEED_RUP_UNREACHABLE", `${cgiUrl}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The message of a refused action: its `Error:` line, else the start of its text. */
export function refusalMessage(answer: ActionAnswer): string {
  const line = /^Error:\s*(.*)$/m.exec(answer.text)?.[1];
  return `HTTP ${answer.status}: ${line ?? answer.text.trim().slice(0, 200)}`;
}
