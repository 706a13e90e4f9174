/**
 * `heed sitemap`: list a sitemap's entries, follow its index, discover a site's sitemaps; and,
 * for the site, `heed sitemap build` (write sitemaps from a list of URLs) and `heed sitemap
 * update` (add or change one entry in place, seeds/003 §4.1).
 *
 * Listing: entries on standard output, one a line (`--json`: one object a line); findings on
 * standard error as `FILE:LINE: severity: message [code]`. Exit status: 0 the sitemaps were read
 * (warnings allowed); 1 there were errors (a limit reached, a DOCTYPE, broken XML or gzip, a
 * listed sitemap that could not be read, an index too deep); 2 nothing could be read (a missing
 * file, an unreachable URL, a file that is not a sitemap at all) or bad options.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve as resolvePath } from "node:path";
import {
  discoverSitemaps,
  type OpenedSitemap,
  openSitemap,
  readSitemaps,
  type SitemapFetchOptions,
  type SourcedSitemapEvent,
} from "../../net/sitemap-fetch.js";
import { proxyChoice, type ProxyFlags } from "../proxy-flags.js";
import {
  CHANGE_FREQS,
  type ChangeFreq,
  PAGE_TYPES,
  type PageType,
  type SitemapDiagnostic,
  SitemapInputError,
  type SitemapUrlInput,
} from "../../protocol/sitemap/index.js";
import { SitemapWriteError, updateSitemap, writeSitemaps } from "../../site/sitemap-writer.js";
import { CliError, EXIT_BAD_INPUT, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { isPrivateHost } from "../private-host.js";
import { RepeatSummary } from "../repeat-summary.js";
import { deadlineOf } from "../deadline-flag.js";
import { printable } from "../printable.js";
import { MAX_QUERY_LINE_BYTES, queryLines } from "../query-lines.js";

export interface SitemapListOptions extends ProxyFlags {
  readonly json: boolean;
  readonly count: boolean;
  readonly follow: boolean;
  readonly discover: boolean;
  /** The URL a local file is served at (scope rule; an index's sitemaps beside it). */
  readonly url?: string;
  readonly maxUrls?: string;
  readonly maxDepth?: string;
  readonly agent?: string;
  /** Each fetch's total seconds. */
  readonly deadline?: string;
}

export async function runSitemapList(
  source: string,
  options: SitemapListOptions,
  io: Io,
): Promise<number> {
  const proxies = proxyChoice(options);
  if (Object.keys(proxies).length === 0) return listSitemaps(source, options, io, null);
  const { createHttpClient } = await import("../../net/http-client.js");
  const client = createHttpClient({
    userAgent: options.agent ?? "heed",
    allowPrivateAddresses: [source, options.url].some(namesPrivateHost),
    ...proxies,
  });
  try {
    return await listSitemaps(source, options, io, client);
  } finally {
    await client.close();
  }
}

async function listSitemaps(
  source: string,
  options: SitemapListOptions,
  io: Io,
  client: NonNullable<SitemapFetchOptions["client"]> | null,
): Promise<number> {
  const out = new LineWriter(io.stdout);
  const err = new LineWriter(io.stderr);
  for (const [name, value] of [
    ["", source],
    ["--url: ", options.url],
  ] as const) {
    if (value !== undefined && /^https?:\/\//i.test(value) && !URL.canParse(value))
      throw new CliError(`${name}not a valid URL: "${value}"`);
  }
  const fetchOptions: SitemapFetchOptions = {
    ...(options.agent === undefined ? {} : { userAgent: options.agent }),
    ...deadlineOf(options.deadline),
    // The guard refuses private addresses on every hop unless the user named such a host.
    ...(client === null
      ? { allowPrivateAddresses: [source, options.url].some(namesPrivateHost) }
      : { client }),
  };
  let roots: readonly string[] = [source];
  let robotsTxtHosts: readonly string[] = [];
  if (options.discover) {
    if (!/^https?:\/\//i.test(source))
      throw new CliError(
        `--discover: expected a site URL such as https://www.example.com/, got "${source}"`,
      );
    const found = await discoverSitemaps(source, fetchOptions);
    for (const p of found.problems)
      await err.line(
        printable(`${found.robotsUrl}:${p.line}: warning: ${p.message} [sitemap-line]`),
      );
    roots = found.sitemaps.map((s) => s.url);
    // sitemaps.org "Sitemaps & Cross Submits": a robots.txt naming a sitemap vouches for its host.
    if (found.fromRobots) robotsTxtHosts = [new URL(found.robotsUrl).origin];
  } else if (options.url !== undefined && !/^https?:\/\//i.test(options.url)) {
    throw new CliError(
      `--url: expected the http(s) URL the file is served at, got "${options.url}"`,
    );
  }
  const stdinOpen = async (location: string, o: SitemapFetchOptions): Promise<OpenedSitemap> =>
    location === "-"
      ? { ok: true, chunks: io.stdin as AsyncIterable<Uint8Array>, finalUrl: null }
      : openSitemap(isPath(location) ? resolvePath(io.cwd, location) : location, o);

  let entries = 0;
  let errors = 0;
  const findings = new RepeatSummary(err);
  const rootFailed = new Set<string>();
  const events = readSitemaps(roots, {
    ...fetchOptions,
    follow: options.follow,
    robotsTxtHosts,
    open: stdinOpen,
    ...(options.url === undefined ? {} : { servedAt: options.url }),
    ...number("--max-urls", options.maxUrls, "maxUrls", 1),
    ...number("--max-depth", options.maxDepth, "maxDepth", 0),
  });
  for await (const event of events) {
    switch (event.kind) {
      case "url":
        entries++;
        if (!options.count)
          await out.line(options.json ? JSON.stringify(urlJson(event)) : urlText(event));
        break;
      case "sitemap":
        // With --follow the listed sitemaps are read, and their entries listed instead.
        if (options.follow) break;
        entries++;
        if (!options.count)
          await out.line(options.json ? JSON.stringify(refJson(event)) : refText(event));
        break;
      case "diagnostic": {
        const d = event.diagnostic;
        if (d.severity === "error") errors++;
        if (event.depth === 0 && (d.code === "fetch-failed" || d.code === "not-a-sitemap"))
          rootFailed.add(event.source);
        await findings.line(d.code, findingText(label(event.source), d));
        break;
      }
      default:
        break;
    }
  }
  await findings.finish();
  if (options.count) await out.line(String(entries));
  await out.flush();
  await err.flush();
  if (rootFailed.size === roots.length) return EXIT_BAD_INPUT;
  return errors > 0 ? EXIT_NOT_ALLOWED : EXIT_OK;
}

/** A file path, to be read relative to the working directory (not a URL, not a file: URL). */
function isPath(location: string): boolean {
  return !/^(?:https?|file):/i.test(location);
}

function label(source: string): string {
  return source === "-" ? "<stdin>" : source;
}

function number<K extends string>(
  flag: string,
  value: string | undefined,
  key: K,
  min: number,
): Partial<Record<K, number>> {
  if (value === undefined) return {};
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min)
    throw new CliError(`${flag}: expected an integer of at least ${min}, got "${value}"`);
  return { [key]: n } as Partial<Record<K, number>>;
}

type UrlEvent = Extract<SourcedSitemapEvent, { kind: "url" }>;
type RefEvent = Extract<SourcedSitemapEvent, { kind: "sitemap" }>;

function urlJson(e: UrlEvent): Record<string, unknown> {
  const u = e.url;
  return {
    kind: "url",
    loc: u.loc,
    lastmod: u.lastmod,
    changefreq: u.changefreq,
    priority: u.priority,
    type: u.type,
    srcloc: u.srcloc,
    sitemap: label(e.source),
    line: u.line,
  };
}

function refJson(e: RefEvent): Record<string, unknown> {
  const s = e.sitemap;
  return {
    kind: "sitemap",
    loc: s.loc,
    lastmod: s.lastmod,
    sitemap: label(e.source),
    line: s.line,
  };
}

/** `LOC key=value …`, only the fields present; the first column is always the URL. */
function urlText(e: UrlEvent): string {
  const u = e.url;
  let line = u.loc;
  if (u.lastmod !== null) line += ` lastmod=${u.lastmod}`;
  if (u.changefreq !== null) line += ` changefreq=${u.changefreq}`;
  if (u.priority !== null) line += ` priority=${u.priority}`;
  if (u.type !== null) line += ` type=${u.type}`;
  if (u.srcloc !== null) line += ` srcloc=${u.srcloc}`;
  return printable(line);
}

function refText(e: RefEvent): string {
  const s = e.sitemap;
  return printable(`${s.loc} kind=sitemap${s.lastmod === null ? "" : ` lastmod=${s.lastmod}`}`);
}

/**
 * `sitemap.xml:12: warning: … [code]`, as compilers and `heed lint` print findings. A message
 * may quote the file's text: its control characters are shown, not sent to the terminal.
 */
function findingText(file: string, d: SitemapDiagnostic): string {
  return printable(
    `${d.line === null ? file : `${file}:${d.line}`}: ${d.severity}: ${d.message} [${d.code}]`,
  );
}

// ---------------------------------------------------------------------------------------------
// heed sitemap build

export interface SitemapBuildOptions {
  readonly out?: string;
  readonly base?: string;
  readonly gzip: boolean;
  readonly maxUrls?: string;
  readonly maxBytes?: string;
  readonly name?: string;
  /** Entries may be on any path of the --base host (its robots.txt names the sitemap). */
  readonly anyPath?: boolean;
  readonly json?: boolean;
}

/**
 * Reads a list of entries — plain URLs, or JSON lines `{"loc": …, "lastmod": …, "changefreq": …,
 * "priority": …, "type": …, "srcloc": …}`, one a line — and writes sitemaps. A line that cannot
 * be used is reported as `LIST:LINE: error: … [invalid-entry]` and skipped (exit 1).
 */
export async function runSitemapBuild(
  list: string | undefined,
  options: SitemapBuildOptions,
  io: Io,
): Promise<number> {
  const err = new LineWriter(io.stderr);
  const out = new LineWriter(io.stdout);
  const name = list === undefined || list === "-" ? "<stdin>" : list;
  const input =
    list === undefined || list === "-" ? io.stdin : await openList(resolvePath(io.cwd, list), list);
  if (options.base !== undefined && !/^https?:\/\//i.test(options.base))
    throw new CliError(
      `--base: expected the http(s) URL the output directory is served at, got "${options.base}"`,
    );
  const limits = {
    ...number("--max-urls", options.maxUrls, "maxUrls", 1),
    ...number("--max-bytes", options.maxBytes, "maxBytes", 1024),
  };
  const outInfo = await stat(resolvePath(io.cwd, options.out ?? ".")).catch(() => null);
  if (outInfo !== null && !outInfo.isDirectory())
    throw new CliError(
      `--out ${options.out ?? "."}: is a file; name the folder to write the sitemaps in`,
    );
  let lineNo = 0;
  let bad = 0;
  const problems: [code: string, line: string][] = [];
  const findings = new RepeatSummary(err);
  // Each bad line is its own mistake and is shown; refusals of one kind repeat, and are counted.
  const report = (code: string, line: string): Promise<void> =>
    code === "invalid-entry" ? err.line(line) : findings.line(code, line);
  const entries = async function* (): AsyncGenerator<SitemapUrlInput> {
    // Lines capped in length while they stream: a list with no line end (`/dev/zero`) costs
    // no more memory than the cap, and its lines are refused one by one.
    const pieces = queryLines(
      input as AsyncIterable<Uint8Array | string>,
      MAX_LIST_LINE_BYTES,
      blank,
    );
    for await (const raw of (async function* () {
      for await (const piece of pieces) yield* piece;
    })()) {
      // What the writer refused since the last line (at most one entry) is printed first.
      for (const [code, p] of problems.splice(0)) await report(code, p);
      lineNo = raw.number;
      if (raw.tooLong) {
        bad++;
        await report(
          "invalid-entry",
          `${name}:${lineNo}: error: the line is over ${MAX_LIST_LINE_BYTES} bytes; skipped [invalid-entry]`,
        );
        continue;
      }
      const text = raw.text.trim();
      const entry = text.startsWith("{") ? fromJson(text) : { loc: text };
      if (typeof entry === "string") {
        bad++;
        await report("invalid-entry", `${name}:${lineNo}: error: ${entry} [invalid-entry]`);
        continue;
      }
      yield entry;
    }
  };
  let result;
  try {
    result = await writeSitemaps(entries(), {
      outDir: resolvePath(io.cwd, options.out ?? "."),
      gzip: options.gzip,
      ...(options.base === undefined ? {} : { baseUrl: options.base }),
      ...(options.name === undefined ? {} : { name: options.name }),
      ...limits,
      ...(options.anyPath === true ? { anyPathOnHost: true } : {}),
      onInvalid: (errors) => {
        bad++;
        problems.push([
          "invalid-entry",
          `${name}:${lineNo}: error: ${errors.join("; ")} [invalid-entry]`,
        ]);
      },
      onRefused: (refusal) => {
        bad++;
        problems.push([
          refusal.code,
          `${name}:${lineNo}: error: ${refusal.message}; line skipped [${refusal.code}]`,
        ]);
      },
    });
  } catch (error) {
    const systemError = typeof (error as { code?: unknown }).code === "string";
    if (
      error instanceof RangeError ||
      error instanceof SitemapWriteError ||
      (error instanceof Error && systemError)
    )
      throw new CliError(`cannot write sitemaps: ${error.message}`, EXIT_BAD_INPUT, {
        cause: error,
      });
    throw error;
  }
  for (const [code, p] of problems.splice(0)) await report(code, p);
  await findings.finish();
  if (options.json === true) {
    await out.line(
      JSON.stringify({
        root: result.root,
        sitemaps: result.sitemaps,
        index: result.index,
        urls: result.urls,
        skipped: result.skipped,
      }),
    );
  } else {
    for (const s of result.sitemaps) await out.line(`wrote ${s.path} (${s.urls} URLs)`);
    if (result.index !== null)
      await out.line(`wrote ${result.index.path} (index of ${result.index.sitemaps} sitemaps)`);
  }
  if (result.index !== null && options.base === undefined)
    await err.line(
      `heed sitemap build: the index lists its sitemaps under ${new URL("/", result.sitemaps[0]?.url ?? "http://invalid/").href} (set --base for another place)`,
    );
  await out.flush();
  await err.flush();
  return bad > 0 ? EXIT_NOT_ALLOWED : EXIT_OK;
}

async function openList(path: string, label: string): Promise<NodeJS.ReadableStream> {
  // A folder opens without error and fails only on the first read: refuse it here.
  if ((await stat(path).catch(() => null))?.isDirectory() === true)
    throw new CliError(`cannot read ${label}: it is a folder, not a list of URLs`);
  const stream = createReadStream(path);
  await new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", (error) =>
      reject(
        new CliError(
          `cannot read ${label}: ${(error as { code?: string }).code === "ENOENT" ? "no such file" : error.message}`,
          EXIT_BAD_INPUT,
          { cause: error },
        ),
      ),
    );
  });
  return stream;
}

// A list line is a URL (sitemaps.org: under 2,048 characters) or a JSON object of a few of them.
const MAX_LIST_LINE_BYTES = MAX_QUERY_LINE_BYTES;

/** A list has no comment lines: only blank ones are left out. */
function blank(text: string): boolean {
  return text.trim() === "";
}

const JSON_KEYS = ["loc", "lastmod", "changefreq", "priority", "type", "srcloc"] as const;

/** A JSON line as an entry, or why it is not one. Values are checked by the writer. */
function fromJson(text: string): SitemapUrlInput | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "expected a JSON object or a URL, got a line that is neither";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "expected a JSON object with a loc";
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !(JSON_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0)
    return `unknown key ${JSON.stringify(unknown[0])}; expected ${JSON_KEYS.join(", ")}`;
  if (typeof o.loc !== "string") return 'expected "loc" to be a string';
  for (const k of ["lastmod", "changefreq", "type", "srcloc"] as const) {
    if (o[k] !== undefined && o[k] !== null && typeof o[k] !== "string")
      return `expected "${k}" to be a string`;
  }
  if (o.priority !== undefined && o.priority !== null && typeof o.priority !== "number")
    return 'expected "priority" to be a number';
  return {
    loc: o.loc,
    ...(typeof o.lastmod === "string" ? { lastmod: o.lastmod } : {}),
    ...(typeof o.changefreq === "string" ? { changefreq: o.changefreq as ChangeFreq } : {}),
    ...(typeof o.priority === "number" ? { priority: o.priority } : {}),
    ...(typeof o.type === "string" ? { type: o.type as PageType } : {}),
    ...(typeof o.srcloc === "string" ? { srcloc: o.srcloc } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// heed sitemap update

export interface SitemapUpdateOptions {
  readonly loc: string;
  readonly lastmod?: string;
  readonly changefreq?: string;
  readonly priority?: string;
  readonly type?: string;
  readonly srcloc?: string;
  readonly base?: string;
  readonly maxUrls?: string;
  readonly anyPath?: boolean;
  readonly json?: boolean;
}

/** A W3C Datetime (YYYY, YYYY-MM, YYYY-MM-DD, or with a time and a zone), as sitemaps.org asks. */
const W3C_DATE =
  /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** Adds or changes one entry (seeds/003 §4.1: new news adds one; a new comment updates `<lastmod>`). */
export async function runSitemapUpdate(
  file: string,
  options: SitemapUpdateOptions,
  io: Io,
): Promise<number> {
  if (
    options.changefreq !== undefined &&
    !(CHANGE_FREQS as readonly string[]).includes(options.changefreq)
  )
    throw new CliError(
      `--changefreq: expected one of ${CHANGE_FREQS.join(", ")}, got "${options.changefreq}"`,
    );
  if (options.type !== undefined && !(PAGE_TYPES as readonly string[]).includes(options.type))
    throw new CliError(`--type: expected one of ${PAGE_TYPES.join(", ")}, got "${options.type}"`);
  // sitemaps.org: <lastmod> is a W3C Datetime; the flag is named, not "entry 0".
  if (options.lastmod !== undefined && options.lastmod !== "now" && !W3C_DATE.test(options.lastmod))
    throw new CliError(
      `--lastmod: expected now or a W3C date such as 2026-11-27 or 2026-11-27T10:00:00Z, got "${options.lastmod}"`,
    );
  let priority: number | undefined;
  if (options.priority !== undefined) {
    priority = Number(options.priority);
    if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(options.priority) || priority > 1)
      throw new CliError(
        `--priority: expected a number from 0.0 to 1.0, got "${options.priority}"`,
      );
  }
  const update: SitemapUrlInput = {
    loc: options.loc,
    ...(options.lastmod === undefined
      ? {}
      : { lastmod: options.lastmod === "now" ? new Date() : options.lastmod }),
    ...(options.changefreq === undefined ? {} : { changefreq: options.changefreq as ChangeFreq }),
    ...(priority === undefined ? {} : { priority }),
    ...(options.type === undefined ? {} : { type: options.type as PageType }),
    ...(options.srcloc === undefined ? {} : { srcloc: options.srcloc }),
  };
  try {
    const result = await updateSitemap(resolvePath(io.cwd, file), update, {
      ...(options.base === undefined ? {} : { baseUrl: options.base }),
      ...(options.anyPath === true ? { anyPathOnHost: true } : {}),
      ...number("--max-urls", options.maxUrls, "maxUrls", 1),
    });
    if (options.json === true) {
      io.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      io.stdout.write(`${result.action} ${result.file}\n`);
      for (const created of result.created) io.stdout.write(`created ${created}\n`);
    }
    return EXIT_OK;
  } catch (error) {
    // Bad values, a file heed will not edit, or the file system refusing (ENOENT, EACCES …).
    const systemError = typeof (error as { code?: unknown }).code === "string";
    if (
      error instanceof SitemapInputError ||
      error instanceof SitemapWriteError ||
      error instanceof RangeError ||
      (error instanceof Error && systemError)
    )
      throw new CliError(`cannot update ${file}: ${error.message}`, EXIT_BAD_INPUT, {
        cause: error,
      });
    throw error;
  }
}

function namesPrivateHost(location: string | undefined): boolean {
  if (location === undefined || !/^https?:\/\//i.test(location)) return false;
  return URL.canParse(location) && isPrivateHost(new URL(location).hostname);
}
