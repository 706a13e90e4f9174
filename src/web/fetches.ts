/**
 * What `heed ui` fetches, and only when the user asks: a site's /robots.txt, one sitemap, a
 * site's /data.txt. Each goes through `net/`'s guarded client (the SSRF guard on every hop);
 * loopback and private addresses are reachable only when the host the user typed is one, as
 * for the other commands. Answers are plain JSON-ready data; nothing here throws on what a
 * site sends.
 */
import { isPrivateHost } from "../net/address-guard.js";
import { fetchDataTxt } from "../net/data-txt-fetch.js";
import { SITEMAP_DEADLINE_MS } from "../net/deadline.js";
import { createHttpClient, type HttpClient } from "../net/http-client.js";
import { fetchRobots } from "../net/robots-fetch.js";
import { gunzipChunks } from "../net/sitemap-fetch.js";
import type { FetchVerdict } from "../protocol/robots/index.js";
import {
  MAX_SITEMAP_BYTES,
  parseSitemap,
  type SitemapDiagnostic,
  type SitemapRef,
  type SitemapUrl,
} from "../protocol/sitemap/index.js";

/** Redirects followed for a sitemap, as for robots.txt (DESIGN §3). */
export const MAX_UI_REDIRECTS = 5;
/** URLs, child sitemaps and findings of a sitemap sent to the page; the counts cover them all. */
export const SITEMAP_SAMPLE = 50;
/**
 * URLs of one sitemap sent when the page reads the sitemaps through to flag the URLs robots.txt
 * blocks: a sitemap lists at most 50,000 (sitemaps.org), so every one of a valid sitemap.
 */
export const SITEMAP_URLS_READ_THROUGH = 50_000;
/** Longest site or URL the page may send: a URL longer than this is no site's. */
export const MAX_ASKED_URL_CHARS = 4096;

export interface RobotsAnswer {
  readonly url: string;
  readonly finalUrl: string;
  readonly status: number | null;
  readonly redirects: number;
  readonly verdict: FetchVerdict;
  /** The file as text, when the verdict is `parse`. */
  readonly text: string | null;
  readonly cut: boolean;
}

export interface SitemapAnswer {
  readonly url: string;
  readonly status: number | null;
  /** Why it could not be read, when it could not. */
  readonly error: string | null;
  readonly format: string | null;
  readonly compressed: boolean;
  readonly urls: number;
  readonly sitemaps: number;
  readonly bytes: number;
  readonly errors: number;
  readonly warnings: number;
  readonly sampleUrls: readonly SitemapUrl[];
  readonly sampleSitemaps: readonly SitemapRef[];
  readonly findings: readonly SitemapDiagnostic[];
}

export interface DataTxtAnswerJson {
  readonly url: string;
  readonly kind: "found" | "missing" | "failed";
  readonly status: number | null;
  readonly text: string | null;
  readonly cut: boolean;
  readonly message: string | null;
}

export class AskError extends Error {}

/** Who asks, and how long each fetch may take. */
export interface Asker {
  readonly userAgent: string;
  /**
   * Each fetch's total deadline in ms, in place of its default: robots.txt 30 s
   * (ROBOTS_DEADLINE_MS), a sitemap 60 s (SITEMAP_DEADLINE_MS), /data.txt 120 s (the client's).
   */
  readonly deadlineMs?: number;
}

/**
 * The URL the user asked for: `example.com`, `http://127.0.0.1:8080/x` … An address without a
 * scheme is taken as https. Only http and https.
 */
export function askedUrl(text: string): URL {
  const trimmed = text.trim();
  if (trimmed === "") throw new AskError("no site given");
  if (trimmed.length > MAX_ASKED_URL_CHARS) {
    throw new AskError(`the address is longer than ${MAX_ASKED_URL_CHARS} characters`);
  }
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new AskError(`not a URL: ${trimmed}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AskError(`only http and https, not ${url.protocol}`);
  }
  return url;
}

/**
 * A guarded client for one request the user asked for. Private and loopback addresses are
 * reachable only when the host is one, and, for a URL a fetched file named (`namedBy`), only
 * when that file came from such a host too: a public site's robots.txt cannot send heed to
 * the user's network by naming a sitemap there.
 */
function clientFor(
  url: URL,
  asker: Asker,
  { namedBy = null, totalMs }: { namedBy?: URL | null; totalMs?: number } = {},
): HttpClient {
  const privateNamedBy = namedBy === null || isPrivateHost(namedBy.hostname);
  const deadlineMs = asker.deadlineMs ?? totalMs;
  return createHttpClient({
    userAgent: asker.userAgent,
    allowPrivateAddresses: isPrivateHost(url.hostname) && privateNamedBy,
    ...(deadlineMs === undefined ? {} : { totalTimeoutMs: deadlineMs }),
  });
}

export async function askRobots(site: string, asker: Asker): Promise<RobotsAnswer> {
  const url = askedUrl(site);
  const robotsUrl = `${url.origin}/robots.txt`;
  const client = clientFor(url, asker);
  try {
    const result = await fetchRobots(robotsUrl, {
      client,
      ...(asker.deadlineMs === undefined ? {} : { deadlineMs: asker.deadlineMs }),
    });
    return {
      url: robotsUrl,
      finalUrl: result.finalUrl,
      status: result.status,
      redirects: result.redirects,
      verdict: result.verdict,
      text: result.body === null ? null : new TextDecoder().decode(result.body),
      cut: result.bodyCut,
    };
  } finally {
    await client.close();
  }
}

/**
 * One sitemap, counted and checked. `namedBy`: the site whose fetched robots.txt names the
 * sitemap, when it was fetched (see {@link clientFor}); absent when the user typed the file.
 */
export async function askSitemap(
  location: string,
  asker: Asker,
  namedBy: string | null = null,
  /** URLs sent: SITEMAP_SAMPLE, or up to SITEMAP_URLS_READ_THROUGH to read it through. */
  urlsSent: number = SITEMAP_SAMPLE,
): Promise<SitemapAnswer> {
  const url = askedUrl(location);
  const client = clientFor(url, asker, {
    namedBy: namedBy === null ? null : askedUrl(namedBy),
    totalMs: SITEMAP_DEADLINE_MS,
  });
  const empty = {
    format: null,
    compressed: false,
    urls: 0,
    sitemaps: 0,
    bytes: 0,
    errors: 0,
    warnings: 0,
    sampleUrls: [],
    sampleSitemaps: [],
    findings: [],
  };
  try {
    let current = url.href;
    for (let hop = 0; ; hop++) {
      const answer = await client.fetchPage(current, {
        headers: { accept: "application/xml, text/xml, text/plain;q=0.9, */*;q=0.5" },
        maxBodyBytes: MAX_SITEMAP_BYTES,
      });
      if (answer.kind === "error") {
        return { url: current, status: null, error: answer.message, ...empty };
      }
      if (answer.status >= 300 && answer.status < 400 && answer.location !== null) {
        if (hop + 1 > MAX_UI_REDIRECTS) {
          return {
            url: current,
            status: answer.status,
            error: `more than ${MAX_UI_REDIRECTS} redirects`,
            ...empty,
          };
        }
        current = answer.location;
        continue;
      }
      if (answer.status < 200 || answer.status >= 300) {
        return {
          url: current,
          status: answer.status,
          error: `the server answered ${answer.status}`,
          ...empty,
        };
      }
      return {
        url: current,
        status: answer.status,
        error: null,
        ...(await summarize(answer.body, Math.min(urlsSent, SITEMAP_URLS_READ_THROUGH))),
      };
    }
  } finally {
    await client.close();
  }
}

async function summarize(body: Uint8Array | null, urlsSent: number) {
  const sampleUrls: SitemapUrl[] = [];
  const sampleSitemaps: SitemapRef[] = [];
  const findings: SitemapDiagnostic[] = [];
  let summary = {
    format: null as string | null,
    compressed: false,
    urls: 0,
    sitemaps: 0,
    bytes: 0,
    errors: 0,
    warnings: 0,
  };
  for await (const event of parseSitemap([body ?? new Uint8Array()], { gunzip: gunzipChunks })) {
    if (event.kind === "url" && sampleUrls.length < urlsSent) sampleUrls.push(event.url);
    else if (event.kind === "sitemap" && sampleSitemaps.length < SITEMAP_SAMPLE)
      sampleSitemaps.push(event.sitemap);
    else if (event.kind === "diagnostic" && findings.length < SITEMAP_SAMPLE)
      findings.push(event.diagnostic);
    else if (event.kind === "end") {
      const s = event.summary;
      summary = {
        format: s.format,
        compressed: s.compressed,
        urls: s.urls,
        sitemaps: s.sitemaps,
        bytes: s.bytes,
        errors: s.errors,
        warnings: s.warnings,
      };
    }
  }
  return { ...summary, sampleUrls, sampleSitemaps, findings };
}

export async function askDataTxt(site: string, asker: Asker): Promise<DataTxtAnswerJson> {
  const url = askedUrl(site);
  const dataUrl = `${url.origin}/data.txt`;
  const client = clientFor(url, asker);
  try {
    const answer = await fetchDataTxt(dataUrl, { client });
    switch (answer.kind) {
      case "found":
        return {
          url: answer.url,
          kind: "found",
          status: answer.status,
          text: new TextDecoder().decode(answer.body),
          cut: answer.cut,
          message: null,
        };
      case "missing":
        return {
          url: answer.url,
          kind: "missing",
          status: answer.status,
          text: null,
          cut: false,
          message: `${answer.status}: the site has no /data.txt`,
        };
      default:
        return {
          url: answer.url,
          kind: "failed",
          status: answer.status,
          text: null,
          cut: false,
          message: answer.message,
        };
    }
  } finally {
    await client.close();
  }
}
