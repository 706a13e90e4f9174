/**
 * heed's sitemap reader against the npm `sitemap` package's (`XMLToSitemapItemStream`, sax
 * inside) on one 50,000-URL sitemap, plain and gzip-compressed, in the same run; the two
 * tokenizers heed chose between (htmlparser2, saxes); and peak memory reading an index of
 * 20 x 50,000 URLs over HTTP from 127.0.0.1, against one file alone, in child processes; and the
 * CPU one sitemap near the 50 MB limit costs, heed with and without its fast path, and the peer.
 *
 *   npm run bench                              # both benchmarks
 *   node dist/bench/sitemap.bench.js --quick   # fewer runs
 *
 * Every loop is bounded by a run count and a time budget. Times are medians of timed runs after
 * warm-up runs; the contenders alternate, so that load on the machine falls on both.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { createGunzip, gzipSync } from "node:zlib";
import { Parser } from "htmlparser2";
import { SaxesParser } from "saxes";
import { XMLToSitemapItemStream } from "sitemap";
import { gunzipChunks, readSitemaps } from "../src/net/sitemap-fetch.js";
import {
  parseSitemap,
  parseSitemapText,
  SITEMAP_NAMESPACE,
  sitemapElement,
  sitemapIndexOpen,
  SITEMAPINDEX_CLOSE,
} from "../src/protocol/sitemap/index.js";
import { Sink } from "../src/protocol/sitemap/sink.js";
import { XmlSitemapReader } from "../src/protocol/sitemap/xml-reader.js";
import { fmt, median, printTable } from "./report.js";

const QUICK = process.argv.includes("--quick");
const URLS = 50_000;
const CHUNK = 64 * 1024;
const now = (): number => performance.now();

// ---------------------------------------------------------------------------------------------
// Corpus: a sitemap as sites write them, every optional tag, some URLs with an escaped `&`.

const FREQS = ["daily", "weekly", "monthly"] as const;
const HEADER = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}">\n`;
const FOOTER = "</urlset>\n";

function urlText(i: number, origin: string, file: number): string {
  const day = String(1 + (i % 28)).padStart(2, "0");
  const query = i % 3 === 0 ? `?color=red&amp;size=${i % 7}` : "";
  return (
    `  <url>\n    <loc>${origin}/catalog/${file}/item-${i}.html${query}</loc>\n` +
    `    <lastmod>2024-05-${day}T10:${String(i % 60).padStart(2, "0")}:00+02:00</lastmod>\n` +
    `    <changefreq>${FREQS[i % 3]}</changefreq>\n    <priority>0.${i % 10}</priority>\n  </url>\n`
  );
}

function sitemapText(count: number, origin: string, file = 0): string {
  let out = HEADER;
  for (let i = 0; i < count; i++) out += urlText(i, origin, file);
  return out + FOOTER;
}

/**
 * A sitemap near the 50 MB limit: 50,000 URLs, each with lastmod, changefreq, priority, three
 * images (Google's image extension) and a news element, as news sites write them.
 */
const IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1";
const NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9";
function fullSitemapText(origin: string): string {
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:image="${IMAGE_NS}" xmlns:news="${NEWS_NS}">\n`,
  ];
  for (let i = 0; i < URLS; i++) {
    const image = `    <image:image>\n      <image:loc>${origin}/photos/${i}/a.jpg</image:loc>\n      <image:caption>A photo of item ${i} &amp; friends</image:caption>\n    </image:image>\n`;
    const news = `    <news:news><news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-05-01</news:publication_date><news:title>Story ${i}</news:title></news:news>\n`;
    parts.push(urlText(i, origin, 0).replace("  </url>\n", image.repeat(3) + news + "  </url>\n"));
  }
  parts.push(FOOTER);
  return parts.join("");
}

/** heed's XML reader with its fast path off: the tokenizer reads every element. */
function heedTokenizerOnly(chunks: readonly Uint8Array[]): number {
  const sink = new Sink({ maxUrls: URLS, scope: null });
  const reader = new XmlSitemapReader(sink, false, { fastPath: false });
  const decoder = new TextDecoder();
  let n = 0;
  const count = () => {
    for (const e of sink.take()) if (e.kind === "url") n++;
  };
  for (const c of chunks) {
    reader.write(decoder.decode(c, { stream: true }));
    count();
  }
  reader.end();
  count();
  return n;
}

/** CPU milliseconds (user + system) one call takes. */
async function cpuMs(run: () => Promise<number>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.byteLength; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Helpers

const fmtInt = (value: number): string => Math.round(value).toLocaleString("en-US");
const mib = (bytes: number): string => `${fmt(bytes / 1024 / 1024, 1)} MiB`;

type Contender = () => Promise<number>;

/**
 * Warm-up runs, then timed runs alternating between contenders until each has `maxRuns` or the
 * budget is spent (never fewer than `minRuns`). Each run returns the entries it read, which must
 * be `expected`.
 */
async function race(
  contenders: readonly Contender[],
  expected: number,
  options: { warmup: number; minRuns: number; maxRuns: number; budgetMs: number },
): Promise<number[][]> {
  for (let w = 0; w < options.warmup; w++) for (const run of contenders) await run();
  const times: number[][] = contenders.map(() => []);
  const start = now();
  for (let r = 0; r < options.maxRuns; r++) {
    if (r >= options.minRuns && now() - start > options.budgetMs) break;
    for (const [i, run] of contenders.entries()) {
      const t = now();
      const n = await run();
      times[i]?.push(now() - t);
      if (n !== expected) throw new Error(`contender ${i} read ${n} entries, not ${expected}`);
    }
  }
  return times;
}

// ---------------------------------------------------------------------------------------------
// Contenders

async function heedEntries(chunks: readonly Uint8Array[], gzip: boolean): Promise<number> {
  let n = 0;
  for await (const e of parseSitemap(chunks, gzip ? { gunzip: gunzipChunks } : {}))
    if (e.kind === "url") n++;
  return n;
}

async function peerEntries(chunks: readonly Uint8Array[], gzip: boolean): Promise<number> {
  const source = Readable.from(chunks, { objectMode: false });
  const xml = gzip ? source.pipe(createGunzip()) : source;
  let n = 0;
  // `logger: false`: the peer would otherwise print each oddity; heed only collects them.
  for await (const _item of xml.pipe(new XMLToSitemapItemStream({ logger: false }))) n++;
  return n;
}

/** Tokenizing alone, counting </loc>: what heed measured to choose its tokenizer. */
function htmlparser2Locs(chunks: readonly Uint8Array[]): number {
  let n = 0;
  const parser = new Parser(
    {
      onclosetag(name) {
        if (name === "loc") n++;
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  const decoder = new TextDecoder();
  for (const c of chunks) parser.write(decoder.decode(c, { stream: true }));
  parser.end();
  return n;
}

function saxesLocs(chunks: readonly Uint8Array[]): number {
  let n = 0;
  const parser = new SaxesParser({ position: true });
  parser.on("closetag", (tag) => {
    if (tag.name === "loc") n++;
  });
  const decoder = new TextDecoder();
  for (const c of chunks) parser.write(decoder.decode(c, { stream: true }));
  parser.close();
  return n;
}

/** seeds/003 §3.2.12's example, with its bare `&`, then a second entry: what each tokenizer keeps. */
function bareAmpersand(): { htmlparser2: number; saxes: number; heed: number } {
  const text = `<urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>http://www.example.com/crawler/news/20141030008.html</loc><srcloc>http://www.example.com/news/hot.asp?date=1030&id=8</srcloc><type>data</type></url><url><loc>http://www.example.com/second.html</loc></url></urlset>`;
  const bytes = [new TextEncoder().encode(text)];
  let saxes = 0;
  const parser = new SaxesParser();
  parser.on("error", () => undefined);
  parser.on("closetag", (tag) => {
    if (tag.name === "loc") saxes++;
  });
  parser.write(text);
  parser.close();
  return {
    htmlparser2: htmlparser2Locs(bytes),
    saxes,
    heed: parseSitemapText(text).urls.length,
  };
}

// ---------------------------------------------------------------------------------------------
// Memory: a child process reads sitemaps over HTTP; it reports its peak RSS and heap.

interface MemoryReport {
  readonly entries: number;
  readonly files: number;
  readonly ms: number;
  readonly maxRssBytes: number;
  readonly peakHeapBytes: number;
  /** Largest heap still in use right after a full collection: what reading keeps alive. */
  readonly peakLiveHeapBytes: number;
  readonly baseRssBytes: number;
}

async function childMain(url: string): Promise<void> {
  const baseRssBytes = process.memoryUsage().rss;
  let peakHeapBytes = 0;
  let peakLiveHeapBytes = 0;
  const sample = () => {
    peakHeapBytes = Math.max(peakHeapBytes, process.memoryUsage().heapUsed);
  };
  // The child runs with --expose-gc: every 25,000 entries, what survives a full collection.
  const gc = (globalThis as { gc?: () => void }).gc;
  const live = () => {
    if (gc === undefined) return;
    gc();
    peakLiveHeapBytes = Math.max(peakLiveHeapBytes, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, 20);
  const started = now();
  let entries = 0;
  const files = new Set<string>();
  for await (const e of readSitemaps(url, { follow: true, allowPrivateAddresses: true })) {
    if (e.kind === "url") {
      entries++;
      if (entries % 5_000 === 0) sample();
      if (entries % 25_000 === 0) live();
    } else if (e.kind === "diagnostic") {
      throw new Error(`${e.source}: ${e.diagnostic.message}`);
    } else if (e.kind === "format") files.add(e.source);
  }
  clearInterval(timer);
  sample();
  const report: MemoryReport = {
    entries,
    files: files.size,
    ms: now() - started,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    peakHeapBytes,
    peakLiveHeapBytes,
    baseRssBytes,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

function runChild(url: string): Promise<MemoryReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", fileURLToPath(import.meta.url), "--child", url],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`child exited with ${code}`));
      else resolve(JSON.parse(out) as MemoryReport);
    });
  });
}

/** Serves `/index.xml` (20 sitemaps), `/one.xml` and `/s{i}.xml`, generated as they are sent. */
async function startSitemapServer(files: number): Promise<{ origin: string; server: Server }> {
  let origin = "";
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path === "/index.xml") {
      res.writeHead(200, { "content-type": "application/xml" });
      let body = sitemapIndexOpen();
      for (let i = 0; i < files; i++) body += sitemapElement({ loc: `${origin}/s${i}.xml` });
      res.end(body + SITEMAPINDEX_CLOSE);
      return;
    }
    const m = /^\/s(\d+)\.xml$/.exec(path) ?? (path === "/one.xml" ? ["", "0"] : null);
    if (m === null) {
      res.writeHead(404).end();
      return;
    }
    // Written in pieces, with back-pressure, so that the server does not hold a whole file.
    res.writeHead(200, { "content-type": "application/xml" });
    const file = Number(m[1]);
    let i = 0;
    res.write(HEADER);
    const write = (): void => {
      while (i < URLS) {
        let piece = "";
        for (const end = Math.min(URLS, i + 2_000); i < end; i++) piece += urlText(i, origin, file);
        if (!res.write(piece)) {
          res.once("drain", write);
          return;
        }
      }
      res.end(FOOTER);
    };
    write();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, server };
}

// ---------------------------------------------------------------------------------------------
// Hostile sitemaps within the 50 MB limit: markup meant to cost a reader time (issue 14 §2).

const HOSTILE_HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:e="urn:e">\n`;
const hostileEntry = (i: number, body: string): string =>
  `<url><loc>https://a.example/${i}</loc>${body}</url>\n`;
function hostileText(entries: number, body: string): string {
  const parts = [HOSTILE_HEAD];
  for (let i = 0; i < entries; i++) parts.push(hostileEntry(i, body));
  parts.push(FOOTER);
  return parts.join("");
}

const HOSTILE: readonly (readonly [string, () => string])[] = [
  ["12 entries of 4.3 MB of <x/>", () => hostileText(12, "<x/>".repeat(1_075_000))],
  ["12 entries of 4.3 MB of nested tags", () => hostileText(12, "<a><b>t</b></a>".repeat(290_000))],
  ["one 51 MB entry of <x/>", () => hostileText(1, "<x/>".repeat(12_800_000))],
  ["800 entries of 15,000 <x/>", () => hostileText(800, "<x/>".repeat(15_000))],
  ["800 plain entries of 10,000 <e:x/>", () => hostileText(800, "<e:x/>".repeat(10_000))],
  ["800 entries of 8,000 comments", () => hostileText(800, "<!---->".repeat(8_000))],
  [
    "800 entries of 2,500 <y:x xmlns:y>",
    () => hostileText(800, "<y:x xmlns:y='urn:y'/>".repeat(2_500)),
  ],
];

/**
 * The CPU heed spends on each hostile shape, with its fast path and with the tokenizer alone, and
 * the peer's on the first shape, as ratios to heed's.
 */
async function hostileTable(runs: number): Promise<void> {
  const rows: string[][] = [];
  for (const [label, make] of HOSTILE) {
    const bytes = new TextEncoder().encode(make());
    const chunks = chunksOf(bytes);
    const stops: string[] = [];
    const fast: number[] = [];
    const tokenizer: number[] = [];
    const peer: number[] = [];
    for (let r = 0; r < runs; r++) {
      fast.push(
        await cpuMs(async () => {
          let n = 0;
          for await (const e of parseSitemap(chunks)) {
            if (e.kind === "url") n++;
            else if (e.kind === "end" && r === 0) stops.push(e.summary.stoppedBy ?? "none");
          }
          return n;
        }),
      );
      tokenizer.push(await cpuMs(async () => heedTokenizerOnly(chunks)));
      if (rows.length === 0)
        peer.push(await cpuMs(() => peerEntries(chunks, false).catch(() => -1)));
    }
    const f = median(fast);
    rows.push([
      label,
      mib(bytes.byteLength),
      stops[0] ?? "",
      fmt(f),
      fmt(median(tokenizer)),
      peer.length > 0 ? `${fmt(median(peer))} (${fmt(median(peer) / f, 1)}x)` : "",
    ]);
  }
  printTable(
    `CPU to read hostile sitemaps within the size limit (median of ${runs} runs)`,
    ["shape", "size", "heed stops with", "heed CPU ms", "tokenizer only ms", "sitemap@9.0.1 ms"],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = now();
  const startLoad = loadavg()
    .map((l) => fmt(l, 2))
    .join(" ");
  const plainBytes = new TextEncoder().encode(sitemapText(URLS, "https://www.example.com"));
  const gzipBytes = gzipSync(plainBytes);
  const plain = chunksOf(plainBytes);
  const gz = chunksOf(gzipBytes);
  console.log(
    `heed sitemap benchmark  (node ${process.version}, ${QUICK ? "quick" : "full"} run)\n` +
      `corpus: one sitemap of ${fmtInt(URLS)} URLs with lastmod, changefreq, priority: ` +
      `${mib(plainBytes.byteLength)} plain, ${mib(gzipBytes.byteLength)} gzip; fed in ${CHUNK / 1024} KiB chunks`,
  );

  const runs = QUICK
    ? { warmup: 1, minRuns: 3, maxRuns: 3, budgetMs: 10_000 }
    : { warmup: 2, minRuns: 5, maxRuns: 9, budgetMs: 30_000 };
  const rows: string[][] = [];
  const ratios: number[] = [];
  for (const [label, chunks, gzip] of [
    ["plain", plain, false],
    ["gzip", gz, true],
  ] as const) {
    const [heed, peer] = await race(
      [() => heedEntries(chunks, gzip), () => peerEntries(chunks, gzip)],
      URLS,
      runs,
    );
    const h = median(heed ?? []);
    const p = median(peer ?? []);
    ratios.push(p / h);
    rows.push([
      label,
      fmtInt((URLS / h) * 1000),
      fmtInt((URLS / p) * 1000),
      `${fmt(p / h, 2)}x`,
      fmt(h),
      fmt(p),
      String(heed?.length ?? 0),
    ]);
  }
  printTable(
    `entries/s, one ${fmtInt(URLS)}-URL sitemap (median of timed runs)`,
    ["input", "heed", "sitemap@9.0.1", "heed/peer", "heed ms", "peer ms", "runs"],
    rows,
  );

  const tokenRuns = await race(
    [async () => htmlparser2Locs(plain), async () => saxesLocs(plain)],
    URLS,
    runs,
  );
  const amp = bareAmpersand();
  printTable(
    "tokenizers heed chose between (tokenizing alone; entries/s)",
    ["tokenizer", "entries/s", "ms", "entries kept from seeds/003's bare-& example (of 2)"],
    [
      [
        "htmlparser2 (xmlMode)",
        fmtInt((URLS / median(tokenRuns[0] ?? [])) * 1000),
        fmt(median(tokenRuns[0] ?? [])),
        String(amp.htmlparser2),
      ],
      [
        "saxes",
        fmtInt((URLS / median(tokenRuns[1] ?? [])) * 1000),
        fmt(median(tokenRuns[1] ?? [])),
        String(amp.saxes),
      ],
    ],
  );
  console.log(`heed on that example: ${amp.heed} entries (and an unescaped-ampersand warning)`);

  // A sitemap near the 50 MB limit: the CPU one read costs, heed with and without its fast path.
  const bigBytes = new TextEncoder().encode(fullSitemapText("https://www.example.com"));
  const big = chunksOf(bigBytes);
  const bigGz = chunksOf(gzipSync(bigBytes));
  const bigRuns = QUICK
    ? { warmup: 1, minRuns: 2, maxRuns: 2, budgetMs: 20_000 }
    : { warmup: 1, minRuns: 3, maxRuns: 5, budgetMs: 60_000 };
  const cpu: number[][] = [[], [], [], []];
  const bigContenders: (() => Promise<number>)[] = [
    () => heedEntries(big, false),
    () => heedEntries(bigGz, true),
    async () => heedTokenizerOnly(big),
    () => peerEntries(big, false),
  ];
  for (let w = 0; w < bigRuns.warmup; w++) for (const run of bigContenders) await run();
  for (let r = 0; r < bigRuns.maxRuns; r++)
    for (const [i, run] of bigContenders.entries()) cpu[i]?.push(await cpuMs(run));
  const bigMs = cpu.map((times) => median(times));
  const heedBig = bigMs[0] ?? 0;
  printTable(
    `CPU to read one ${mib(bigBytes.byteLength)} sitemap (${fmtInt(URLS)} URLs with images and news; median of ${bigRuns.maxRuns} runs)`,
    ["reader", "CPU ms", "x heed"],
    [
      ["heed (fast path)", fmt(heedBig), "1.00x"],
      ["heed, gzip", fmt(bigMs[1] ?? 0), `${fmt((bigMs[1] ?? 0) / heedBig, 2)}x`],
      ["heed, tokenizer only", fmt(bigMs[2] ?? 0), `${fmt((bigMs[2] ?? 0) / heedBig, 2)}x`],
      ["sitemap@9.0.1", fmt(bigMs[3] ?? 0), `${fmt((bigMs[3] ?? 0) / heedBig, 2)}x`],
    ],
  );

  await hostileTable(QUICK ? 1 : 3);

  const files = QUICK ? 5 : 20;
  const { origin, server } = await startSitemapServer(files);
  try {
    const one = await runChild(`${origin}/one.xml`);
    const all = await runChild(`${origin}/index.xml`);
    printTable(
      `peak memory reading over HTTP from 127.0.0.1, in a child process (index: ${files} x ${fmtInt(URLS)} URLs, followed)`,
      [
        "read",
        "files",
        "entries",
        "seconds",
        "entries/s",
        "max RSS",
        "peak heap",
        "live heap*",
        "RSS at start",
      ],
      [one, all].map((r, i) => [
        i === 0 ? "one sitemap" : "the index",
        String(r.files),
        fmtInt(r.entries),
        fmt(r.ms / 1000, 2),
        fmtInt((r.entries / r.ms) * 1000),
        mib(r.maxRssBytes),
        mib(r.peakHeapBytes),
        mib(r.peakLiveHeapBytes),
        mib(r.baseRssBytes),
      ]),
    );
    console.log(
      "* the largest heap left after a full collection, taken every 25,000 entries: what reading keeps alive",
    );
    const growth = all.maxRssBytes / one.maxRssBytes;
    const liveGrowth = all.peakLiveHeapBytes / one.peakLiveHeapBytes;
    printTable(
      "summary",
      ["measure", "value", "target", "met"],
      [
        [
          "entries/s heed/peer, plain",
          `${fmt(ratios[0] ?? 0, 2)}x`,
          ">= 3x",
          (ratios[0] ?? 0) >= 3 ? "yes" : "NO",
        ],
        [
          "entries/s heed/peer, gzip",
          `${fmt(ratios[1] ?? 0, 2)}x`,
          ">= 3x",
          (ratios[1] ?? 0) >= 3 ? "yes" : "NO",
        ],
        [
          `max RSS, ${(files * URLS) / 1000}k entries / 50k`,
          `${fmt(growth, 2)}x`,
          "flat (< 1.5x)",
          growth < 1.5 ? "yes" : "NO",
        ],
        [
          `live heap, ${(files * URLS) / 1000}k entries / 50k`,
          `${fmt(liveGrowth, 2)}x`,
          "flat (< 1.2x)",
          liveGrowth < 1.2 ? "yes" : "NO",
        ],
      ],
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
  const load = loadavg()
    .map((l) => fmt(l, 2))
    .join(" ");
  console.log(
    `\ndone in ${fmt((now() - started) / 1000, 1)} s; load average ${load} (started at ${startLoad}; ` +
      "other work on the machine skews absolute figures more than ratios)",
  );
}

const childAt = process.argv.indexOf("--child");
if (childAt >= 0) {
  const url = process.argv[childAt + 1];
  if (url === undefined) throw new Error("--child needs a URL");
  await childMain(url);
} else {
  await main();
}
