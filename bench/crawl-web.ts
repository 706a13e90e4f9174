/**
 * The synthetic web of bench/crawl.bench.ts, in a process of its own so that its memory and CPU
 * are not counted against the crawler under test: HOSTS node:http servers, one per loopback
 * address 127.0.0.2, 127.0.0.3, … on one port, each with PAGES pages of about 5 KB. Page 0 is
 * `/`, page i is `/p/i`; every page links to ten URLs: its two children in a binary tree (so
 * that `/` reaches every page), four other pages of its host, two pages of other hosts, and two
 * URLs that the host's robots.txt disallows (`/private/…` and `/p/…?sort=…`). robots.txt has
 * Disallow lines and no delay. Disallowed URLs are served all the same (200), so that a crawler
 * that fetches one is seen doing it.
 *
 * Run by the bench with child_process.fork; talks over IPC:
 *   → { type: "ready", origins: string[] }        once listening
 *   ← { type: "reset" }   → { type: "reset-done" } forgets the request counts
 *   ← { type: "report" }  → { type: "report", report: WebReport }
 *   ← { type: "stop" }                              closes the servers and exits
 * It exits by itself when the parent goes away, and after --max-seconds (default 900).
 *
 *   node dist/bench/crawl-web.js [--hosts 20] [--pages 500] [--base-ip 2] [--port 0]
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface WebReport {
  /** Every request, robots.txt included. */
  readonly requests: number;
  readonly robotsRequests: number;
  /** Distinct pages (allowed URLs) fetched at least once. */
  readonly pagesFetched: number;
  /** Fetches of a page fetched before. */
  readonly repeatFetches: number;
  /** Requests for URLs the host's robots.txt disallows, and a few of them. */
  readonly disallowedRequests: number;
  readonly disallowedExamples: readonly string[];
  /** Requests for paths that are not pages of the web (404). */
  readonly notFound: number;
  /** Bytes of page bodies sent. */
  readonly bytes: number;
  /** Pages there are (all hosts), and the mean size of one. */
  readonly pagesTotal: number;
  readonly meanPageBytes: number;
  /** User-Agent headers seen, with counts. */
  readonly agents: Readonly<Record<string, number>>;
}

type Message = { type: "reset" } | { type: "report" } | { type: "stop" };

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? undefined : Number(process.argv[at + 1]);
  return value !== undefined && Number.isInteger(value) && value >= 0 ? value : fallback;
}

const HOSTS = option("--hosts", 20);
const PAGES = option("--pages", 500);
const BASE_IP = option("--base-ip", 2);
const PORT = option("--port", 0);
const MAX_SECONDS = option("--max-seconds", 900);
const LINKS_SAME_HOST = 4;
const LINKS_OTHER_HOST = 2;

/** A small deterministic generator, so that every run serves the same web. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "polite crawler robots frontier origin request delay sitemap index page archive " +
  "section article feature review news weather market garden kitchen travel music " +
  "science history library museum station harbour bridge valley forest river meadow"
).split(" ");

const pagePath = (i: number): string => (i === 0 ? "/" : `/p/${i}`);

function robotsTxt(): string {
  return [
    "# synthetic web: no delays",
    "User-agent: BadBot",
    "Disallow: /",
    "",
    "User-agent: *",
    "Disallow: /private/",
    "Disallow: /*?sort=",
    "Disallow: /cgi-bin/",
    "",
  ].join("\n");
}

function buildPage(origins: readonly string[], host: number, page: number): Buffer {
  const random = mulberry32(host * 1_000_003 + page * 7919 + 17);
  const pick = (n: number) => Math.floor(random() * n);
  const links: string[] = [];
  for (const child of [2 * page + 1, 2 * page + 2]) {
    if (child < PAGES) links.push(pagePath(child));
  }
  for (let k = 0; k < LINKS_SAME_HOST; k++) links.push(pagePath(pick(PAGES)));
  for (let k = 0; k < LINKS_OTHER_HOST; k++) {
    const other = (host + 1 + pick(HOSTS - 1)) % HOSTS;
    links.push(`${origins[other] as string}${pagePath(pick(PAGES))}`);
  }
  links.push(`/private/${page}.html`, `/p/${pick(PAGES)}?sort=asc`);

  const words = (n: number) => {
    const out: string[] = [];
    for (let k = 0; k < n; k++) out.push(WORDS[pick(WORDS.length)] as string);
    return out.join(" ");
  };
  let body = "";
  const items = links.map(
    (href, k) => `      <li><a href="${href}" class="l${k}">${words(3)}</a></li>\n`,
  );
  // About 5 KB: paragraphs until the page reaches its size, the links spread among them.
  const target = 4_800 + pick(400);
  let paragraph = 0;
  while (body.length < target - 400) {
    body += `    <p id="p${paragraph}">${words(40)}.</p>\n`;
    if (paragraph % 2 === 1 && items.length > 0) {
      body += `    <ul>\n${items.splice(0, 3).join("")}    </ul>\n`;
    }
    paragraph++;
  }
  if (items.length > 0) body += `    <ul>\n${items.join("")}    </ul>\n`;
  const html =
    `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8">\n` +
    `    <title>Host ${host} page ${page}: ${words(4)}</title>\n` +
    `    <meta name="description" content="${words(12)}">\n  </head>\n  <body>\n` +
    `    <h1>${words(5)}</h1>\n${body}  </body>\n</html>\n`;
  return Buffer.from(html, "utf8");
}

/** Whether robots.txt above disallows the path (the `*` group). */
function disallowed(pathAndQuery: string): boolean {
  return (
    pathAndQuery.startsWith("/private/") ||
    pathAndQuery.startsWith("/cgi-bin/") ||
    /^\/[^?]*\?sort=/.test(pathAndQuery)
  );
}

interface Counts {
  requests: number;
  robots: number;
  notFound: number;
  bytes: number;
  disallowed: number;
  disallowedExamples: string[];
  /** Per host, how often each page was fetched. */
  fetched: Uint16Array[];
  agents: Map<string, number>;
}

function freshCounts(): Counts {
  return {
    requests: 0,
    robots: 0,
    notFound: 0,
    bytes: 0,
    disallowed: 0,
    disallowedExamples: [],
    fetched: Array.from({ length: HOSTS }, () => new Uint16Array(PAGES)),
    agents: new Map(),
  };
}

async function main(): Promise<void> {
  const servers: Server[] = [];
  const origins: string[] = [];
  let pages: Buffer[][] = [];
  const robots = Buffer.from(robotsTxt(), "utf8");
  let counts = freshCounts();

  const handle = (host: number) => (req: IncomingMessage, res: ServerResponse) => {
    counts.requests++;
    const agent = (req.headers["user-agent"] ?? "").split("/")[0] ?? "";
    counts.agents.set(agent, (counts.agents.get(agent) ?? 0) + 1);
    const target = req.url ?? "/";
    let body: Buffer | undefined;
    let type = "text/html; charset=utf-8";
    if (target === "/robots.txt") {
      counts.robots++;
      body = robots;
      type = "text/plain; charset=utf-8";
    } else if (disallowed(target)) {
      counts.disallowed++;
      if (counts.disallowedExamples.length < 5) {
        counts.disallowedExamples.push(`${origins[host] as string}${target}`);
      }
      body = Buffer.from("<!doctype html><title>private</title><p>Robots keep out.</p>\n");
    } else {
      const match = /^\/(?:p\/(\d+))?$/.exec(target);
      const page = match === null ? -1 : match[1] === undefined ? 0 : Number(match[1]);
      if (page >= 0 && page < PAGES) {
        body = pages[host]?.[page];
        const seen = counts.fetched[host] as Uint16Array;
        seen[page] = Math.min((seen[page] ?? 0) + 1, 65_535);
      }
    }
    if (body === undefined) {
      counts.notFound++;
      res.writeHead(404, { "content-type": "text/plain", "content-length": "10" });
      res.end("not found\n");
      return;
    }
    counts.bytes += body.byteLength;
    res.writeHead(200, { "content-type": type, "content-length": String(body.byteLength) });
    res.end(body);
  };

  for (let host = 0; host < HOSTS; host++) {
    const server = createServer({ keepAliveTimeout: 30_000 }, handle(host));
    server.maxConnections = 1_000;
    const address = `127.0.0.${BASE_IP + host}`;
    const port: number = await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(host === 0 ? PORT : (servers[0]?.address() as AddressInfo).port, address, () =>
        resolve((server.address() as AddressInfo).port),
      );
    });
    servers.push(server);
    origins.push(`http://${address}:${port}`);
  }
  pages = origins.map((_, host) =>
    Array.from({ length: PAGES }, (_, page) => buildPage(origins, host, page)),
  );
  const pageBytes = pages.reduce(
    (sum, list) => sum + list.reduce((s, b) => s + b.byteLength, 0),
    0,
  );

  const report = (): WebReport => {
    let pagesFetched = 0;
    let repeatFetches = 0;
    for (const seen of counts.fetched) {
      for (const n of seen) {
        if (n > 0) pagesFetched++;
        if (n > 1) repeatFetches += n - 1;
      }
    }
    return {
      requests: counts.requests,
      robotsRequests: counts.robots,
      pagesFetched,
      repeatFetches,
      disallowedRequests: counts.disallowed,
      disallowedExamples: counts.disallowedExamples,
      notFound: counts.notFound,
      bytes: counts.bytes,
      pagesTotal: HOSTS * PAGES,
      meanPageBytes: Math.round(pageBytes / (HOSTS * PAGES)),
      agents: Object.fromEntries(counts.agents),
    };
  };

  const stop = () => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
    process.exit(0);
  };
  setTimeout(stop, MAX_SECONDS * 1000).unref();
  process.on("disconnect", stop);
  process.on("SIGTERM", stop);
  process.on("message", (message: Message) => {
    if (message.type === "reset") {
      counts = freshCounts();
      // Connections of the last crawler must not linger into the next one's run.
      for (const server of servers) server.closeAllConnections();
      process.send?.({ type: "reset-done" });
    } else if (message.type === "report") {
      process.send?.({ type: "report", report: report() });
    } else if (message.type === "stop") {
      stop();
    }
  });
  if (process.send === undefined) {
    console.log(JSON.stringify({ origins, meanPageBytes: report().meanPageBytes }));
  } else {
    process.send({ type: "ready", origins });
  }
}

await main();
