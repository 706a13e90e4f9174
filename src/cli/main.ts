/**
 * The `heed` command line. Commands are plain functions that return an exit code; only
 * `process-main.ts` (run by `bin.ts`) sets the process's exit status.
 */
import { DEADLINE_FLAG_HELP } from "./deadline-flag.js";
import {
  AGENT_HOST_CONNECTION_DEFAULTS,
  connectionOptions,
  HTTP_CONNECTION_DEFAULTS,
} from "./connection-flags.js";
import { PROXY_FLAG_HELP, PROXY_FOR_FLAG_HELP } from "./proxy-flags.js";
import { Argument, Command, CommanderError, Option } from "commander";
import type { DialectChoice } from "../protocol/robots/dialect.js";
import {
  DEFAULT_AGENT,
  DEFAULT_SAMPLE_ROWS,
  DIALECTS,
  EXPORT_FORMATS,
  JSON_FIELDS,
  LINT_KINDS,
} from "./choices.js";
import { CliError, EXIT_BAD_INPUT, EXIT_OK } from "./errors.js";
import { addExamples } from "./help-examples.js";
import type { Io } from "./io.js";
import { printableLines } from "./printable.js";
import { VERSION } from "./version.js";

const DIALECT_CHOICES: readonly DialectChoice[] = ["auto", ...DIALECTS];

function dialectOption(): Option {
  return new Option(
    "--dialect <dialect>",
    "which rules apply: auto picks by the file's Robot-version line",
  )
    .choices(DIALECT_CHOICES)
    .default("auto");
}

/**
 * `--agent` in every command: the flag, else HEED_AGENT, else "heed" (docs/cli.md#agent). Where
 * a command sends heed's own User-Agent when none is named (sitemap), `fallback` is null.
 */
function agentOption(description: string, fallback: string | null = DEFAULT_AGENT): Option {
  const option = new Option("--agent <name>", description).env("HEED_AGENT");
  return fallback === null ? option : option.default(fallback);
}

/** `--store` in every command that keeps a crawl's state: the flag, else HEED_STORE. */
function storeOption(description: string): Option {
  return new Option("--store <path>", description).env("HEED_STORE").default("./heed-crawl.db");
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

type SetExit = (code: number) => void;

/**
 * The program with every command, or with `only` that top-level command (and its own
 * subcommands): what `heed check …` parses is check's alone, and building the other commands'
 * two hundred options was a tenth of its start-up.
 */
export function buildProgram(io: Io, setExit: SetExit, only?: string): Command {
  const program = new Command("heed")
    .description(
      "robots-control protocols for robots and for sites: robots.txt (Koster 1996, RFC 9309, REGP 3.0) and more",
    )
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError("(run with --help for usage)")
    // Options belong to the command they follow, so that `heed sitemap build --max-urls 2`
    // reaches build and not `heed sitemap` (which has a --max-urls of its own).
    .enablePositionalOptions();

  for (const [name, define] of COMMANDS) {
    if (only === undefined || name === only) define(program, io, setExit);
  }
  addExamples(program);
  return program;
}

function defineCheck(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("check")
    .description(
      "answer whether robots may fetch URLs. Exit 0: all allowed; 1: one is not; 2: bad input",
    )
    .argument("[robots]", "robots.txt file, http(s) URL, or - for standard input")
    .addOption(agentOption("the robot's name token or User-Agent header"))
    .option("--url <url>", "URL to check (repeatable)", collect, [])
    .option(
      "--queries <file>",
      "one query a line: agent<TAB>url[<TAB>ip<TAB>time]; - for standard input",
    )
    .option("--batch <file>", "one query a line: robots-file<TAB>agent<TAB>url[<TAB>ip<TAB>time]")
    .option(
      "--jobs <n>",
      "--batch: worker threads that answer runs of lines beside the main one (default: one per spare core, at most 4, for a batch file of 1 MiB or more on a machine of 4 or more cores; else none)",
    )
    .addOption(dialectOption())
    .option("--ip <addr>", "the robot's IP address (REGP Ip-allow/Ip-disallow)")
    .option(
      "--at <rfc3339>",
      'the moment of the visit, or "now" (REGP Visit-time/Time-forbidden; without it, time windows refuse nothing)',
    )
    .option(
      "--languages <list>",
      "languages the robot supports, e.g. en,fr (REGP Language; without it, no language is required)",
    )
    .option(
      "--encodings <list>",
      "content codings the robot supports, e.g. gzip,br (REGP Encoding)",
    )
    .option("--charsets <list>", "charsets the robot supports, e.g. utf-8 (REGP Charset)")
    .option(
      "--purpose <purpose>",
      'what the content is for: search, train-ai or ai-input (repeatable); "allowed" then means may fetch and use for it (docs/usage-preferences.md)',
      collect,
      [],
    )
    .option(
      "--header <name:value>",
      "a response header to weigh with robots.txt's usage preferences, e.g. 'Content-Usage: train-ai=n' (repeatable)",
      collect,
      [],
    )
    .option("--tdmrep <file>", "the site's /.well-known/tdmrep.json, to weigh as well")
    .option("--json", "one JSON object a line", false)
    .option("--deadline <seconds>", DEADLINE_FLAG_HELP)
    .option("--proxy <url>", PROXY_FLAG_HELP)
    .option("--proxy-for <host=url>", PROXY_FOR_FLAG_HELP, collect, [])
    .option(
      "--plan",
      "--batch --json: give every answer its access plan (Crawl-delay, sitemaps); with --fields all, REGP answers always have it",
      false,
    )
    .addOption(
      new Option(
        "--fields <which>",
        "--batch --json: contract (default) writes allowed, agent, url, dialect, line, rule and, when a query cannot be answered, error; all adds reason, delay, next, basis, token, group, robots, input and detail, as --queries writes (docs/check-batch.md)",
      ).choices(JSON_FIELDS),
    )
    .option(
      "--sign <keyfile>",
      "a URL: sign the robots.txt fetch, each redirect too, with Web Bot Auth, with this private key (docs/web-bot-auth.md)",
    )
    .option(
      "--signature-agent <url>",
      "--sign: the URL of the key directory sites fetch the key from, sent as Signature-Agent",
    )
    .action(async (robots: string | undefined, options) => {
      const { runCheck } = await import("./commands/check.js");
      setExit(await runCheck(robots, options, io));
    });
}

function defineLint(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("lint")
    .description(
      "find errors and warnings in a robots.txt or a /data.txt. Exit 0: no errors; 1: errors; 2: bad input",
    )
    .argument("<robots>", "robots.txt or data.txt file, http(s) URL, or - for standard input")
    .addOption(dialectOption())
    .addOption(
      new Option(
        "--kind <kind>",
        "what the file is: auto (a file named data.txt is a /data.txt, else robots.txt), robots, data (form read from the content), data-yaml or data-draft (form forced)",
      )
        .choices(LINT_KINDS)
        .default("auto"),
    )
    .option("--json", "one JSON object with every finding", false)
    .action(async (robots: string, options) => {
      const { runLint } = await import("./commands/lint.js");
      setExit(await runLint(robots, options, io));
    });
}

function defineSitemap(program: Command, io: Io, setExit: SetExit): void {
  const sitemap = program
    .command("sitemap")
    .description(
      "list a sitemap's entries (urlset, index, text, RSS, Atom; gzip or not). Exit 0: read; 1: errors (a limit, a DOCTYPE, broken XML, an unreadable listed sitemap); 2: cannot read it at all",
    )
    .argument(
      "<sitemap>",
      "sitemap file, http(s) URL, or - for standard input (--discover: a site URL)",
    )
    .option(
      "--json",
      "one JSON object a line: kind, loc, lastmod, changefreq, priority, type, srcloc, sitemap, line",
      false,
    )
    .option("--count", "print only the number of entries", false)
    .option(
      "--follow",
      "read the sitemaps an index lists (and theirs, to --max-depth), not the index's list",
      false,
    )
    .option(
      "--discover",
      "the argument is a site: read the sitemaps its robots.txt names (else /sitemap.xml)",
      false,
    )
    .option(
      "--url <url>",
      "the URL a local file is served at: checks that entries are in its scope, finds an index's sitemaps beside it",
    )
    .option("--max-urls <n>", "entries one file may hold before reading stops (default 50000)")
    .option(
      "--max-depth <n>",
      "deepest index level followed (default 2: an index, its sitemaps, theirs)",
    )
    .addOption(agentOption("User-Agent header for fetching (default: heed's own)", null))
    .option("--deadline <seconds>", DEADLINE_FLAG_HELP)
    .option("--proxy <url>", PROXY_FLAG_HELP)
    .option("--proxy-for <host=url>", PROXY_FOR_FLAG_HELP, collect, [])
    .enablePositionalOptions()
    .action(async (source: string, options) => {
      const { runSitemapList } = await import("./commands/sitemap.js");
      setExit(await runSitemapList(source, options, io));
    });

  sitemap
    .command("build")
    .description(
      "write sitemaps from a list of URLs (one a line) or JSON lines {loc, lastmod, changefreq, priority, type, srcloc}; split at the limits, with an index. Exit 1: some lines skipped",
    )
    .argument("[list]", "the list; standard input when absent or -")
    .option("--out <dir>", "directory to write into", ".")
    .option(
      "--base <url>",
      "URL the directory is served at, for the index's locs (default: the first URL's origin)",
    )
    .option("--gzip", "write .xml.gz files", false)
    .option("--max-urls <n>", "URLs a file may hold (default 50000)")
    .option("--max-bytes <n>", "uncompressed bytes a file may hold (default 52428800)")
    .option(
      "--name <stem>",
      "file name stem: STEM.xml, or STEM-1.xml … and the index STEM.xml",
      "sitemap",
    )
    .option(
      "--any-path",
      "entries may be on any path of the --base host, not only under its directory (when that host's robots.txt names the sitemap; docs/sitemaps.md#scope)",
      false,
    )
    .option(
      "--json",
      "print one JSON object: root, sitemaps [{path, url, urls, bytes}], index, urls, skipped",
      false,
    )
    .action(async (list: string | undefined, options) => {
      const { runSitemapBuild } = await import("./commands/sitemap.js");
      setExit(await runSitemapBuild(list, options, io));
    });

  sitemap
    .command("update")
    .description(
      "add an entry to a sitemap, or change the entry with the same loc, in place (a full file is split and indexed)",
    )
    .argument("<file>", "the sitemap (urlset or index) to change; made if missing")
    .requiredOption("--loc <url>", "the entry's URL")
    .option("--lastmod <w3c>", 'W3C datetime, e.g. 2015-03-19 or 2015-03-19T10:00:00Z, or "now"')
    .option("--changefreq <word>", "always, hourly, daily, weekly, monthly, yearly or never")
    .option("--priority <n>", "0.0 to 1.0")
    .option("--type <type>", "REGP page type: data, list or other")
    .option("--srcloc <url>", "REGP: the original page this crawler page stands for")
    .option(
      "--base <url>",
      "URL the file's directory is served at (used when a full file becomes an index)",
    )
    .option("--max-urls <n>", "URLs a file may hold (default 50000)")
    .option(
      "--any-path",
      "the entry may be on any path of the file's host, not only under its directory (docs/sitemaps.md#scope)",
      false,
    )
    .option("--json", "print one JSON object: action, file, created", false)
    .action(async (file: string, options) => {
      const { runSitemapUpdate } = await import("./commands/sitemap.js");
      setExit(await runSitemapUpdate(file, options, io));
    });
}

function defineCrawl(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("crawl")
    .description(
      "crawl politely from seed URLs, obeying every robots.txt dialect; run again to resume",
    )
    .argument("[url...]", "seed URLs (none with --queued)")
    .addOption(agentOption("the robot's name token, matched in robots.txt and sent in User-Agent"))
    .option(
      "--info-url <url>",
      "the URL in the User-Agent header: NAME/<version> (+<url>)",
      "https://www.npmjs.com/package/heed",
    )
    .addOption(
      storeOption(
        "the crawl's SQLite file, or redis://host:port[#prefix] " +
          "(redis+cluster://host:port,…[#prefix] for a cluster) to share it",
      ),
    )
    .option("--out <dir>", "write what is fetched as WARC 1.1 files (.warc.gz) in this directory")
    .option(
      "--warc-max-bytes <n>",
      "start a new WARC file once one holds this many bytes (default 1000000000)",
    )
    .option(
      "--max-pages <n>",
      "stop after this many pages in this run (--total: in the crawl)",
      "1000",
    )
    .option(
      "--max-depth <n>",
      "follow links this many steps from the seeds; sitemap entries are one step",
      "5",
    )
    .option(
      "--max-per-host <n>",
      "fetch at most this many pages of one site in this run (--total: in the crawl); the rest stay queued",
    )
    .option(
      "--total",
      "--max-pages and --max-per-host count the whole crawl, earlier runs too",
      false,
    )
    .option("--concurrency <n>", "requests in flight at once, over all sites", "16")
    .option(
      "--max-sockets <n>",
      "connections open at once over all sites; at the cap the idlest site's is closed first " +
        "(default: 3/4 of the open-files limit, ulimit -n, at most 4096; docs/crawler.md)",
    )
    .option(
      "--per-host <n>",
      "requests in flight at once to one site, over every process sharing the store",
      "1",
    )
    .addOption(
      new Option("--scope <scope>", "which links to follow")
        .choices(["host", "domain", "prefix"])
        .default("host"),
    )
    .option(
      "--include <pattern>",
      "follow only found URLs this matches (repeatable; any one): a glob on the path (/blog/**), on the whole URL (https://example.com/docs/*), or re:REGEX (RE2, searched in the URL); checked before robots.txt, the seeds always fetched (docs/crawler.md#include-and-exclude)",
      collect,
      [],
    )
    .option(
      "--exclude <pattern>",
      "never fetch found URLs this matches (repeatable), written as for --include; a URL left out is not fetched nor counted as refused by robots.txt",
      collect,
      [],
    )
    .option("--ip <addr>", "send from this local address; REGP Ip-* rules see it")
    .option(
      "--languages <list>",
      "languages the crawler supports (REGP Language; without it, not checked)",
    )
    .option(
      "--encodings <list>",
      "content codings the crawler supports (REGP Encoding; without it, not checked)",
    )
    .option(
      "--charsets <list>",
      "charsets the crawler supports (REGP Charset; without it, not checked)",
    )
    .option(
      "--allow-private",
      "crawl private and loopback addresses (on by itself when a seed is one)",
    )
    .option("--proxy <url>", PROXY_FLAG_HELP)
    .option("--proxy-for <host=url>", PROXY_FOR_FLAG_HELP, collect, [])
    .option(
      "--agents",
      "where a site names an agent host for a path (Mobile-agent-server), dispatch heed's indexing agent there instead of fetching the subtree; HTTP when the host is none, unreachable or refuses",
      false,
    )
    .option("--recrawl", "fetch again what earlier runs fetched, with conditional requests", false)
    .option(
      "--revisit",
      "fetch again, with conditional requests, the pages the site's guidance brings back now " +
        "(sitemap changefreq and a lastmod newer than the last fetch; REGP Index-page and Change-*)",
      false,
    )
    .option(
      "--queued",
      "fetch what the store has queued (URLs heed rup inbox took from RUP reports), with or without seeds; no links followed unless --follow",
      false,
    )
    .option("--follow", "with --queued: follow links and read sitemaps too", false)
    .option(
      "--purpose <purpose>",
      "what the crawl collects for: search, train-ai or ai-input (repeatable); pages whose usage preferences refuse it are fetched and not kept, as noindex pages are (docs/usage-preferences.md)",
      collect,
      [],
    )
    .option(
      "--keep-refused",
      "keep pages whose usage preferences refuse a --purpose all the same; the crawl log still records the preferences",
      false,
    )
    .option(
      "--sort-query",
      "sort query parameters when normalising URLs (?b=1&a=2 and ?a=2&b=1 become one page)",
      false,
    )
    .option("--quiet", "no progress line", false)
    .option(
      "--progress <how>",
      "auto: a line redrawn in place on a terminal, off one a line every 5 s; lines: a line every 5 s; json: a JSON object every 5 s (fetched, queued, skipped, errors, waiting, pagesPerSecond)",
      "auto",
    )
    .option(
      "--datasets",
      "after the crawl, read each host's /data.txt (and manifests, or the 404 guesses) and keep its catalog in the store; heed report lists them",
      false,
    )
    .option("--no-sitemaps", "read no sitemaps: fetch the seeds and the links found")
    .option(
      "--site-wait <seconds>",
      "how long a run waits for a site whose robots.txt does not answer before it sets the site aside (its URLs stay queued)",
      "600",
    )
    .option(
      "--store-wait <seconds>",
      "how long to wait for a shared store (Redis) that became unreachable, then stop (exit 3)",
      "60",
    )
    .option(
      "--accept-restored-store",
      "crawl on a store that went back to an older state (restored from an older snapshot or copy) from what it holds now; without it such a store is refused (exit 3)",
      false,
    )
    .option("--json", "print a summary object at the end", false)
    .option(
      "--sign <keyfile>",
      "sign every request (robots.txt, sitemaps, pages, RUP, /data.txt, each redirect) with Web Bot Auth, with this private key (heed keys new; docs/web-bot-auth.md)",
    )
    .option(
      "--signature-agent <url>",
      "--sign: the URL of the key directory sites fetch the key from, sent as Signature-Agent",
    )
    .action(async (urls: string[], options) => {
      const { runCrawl } = await import("./commands/crawl.js");
      setExit(await runCrawl(urls, options, io));
    });
}

function defineReport(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("report")
    .description(
      "what a crawl's log says, per host and overall: pages by status and by how they were found, gaps kept against those required, time waited, errors. Exit 0: reported; 2: no store there, or it cannot be read",
    )
    .addOption(
      storeOption(
        "the crawl's SQLite file, or redis://host:port[#prefix]; a missing file is an error",
      ),
    )
    .option(
      "--json",
      "print one JSON object (overall, origins, timeline) instead of text tables",
      false,
    )
    .option(
      "--html <file>",
      "also write a self-contained HTML page with a chart of requests over time per host",
    )
    .action(async (options) => {
      const { runReport } = await import("./commands/report.js");
      setExit(await runReport(options, io));
    });
}

function defineUi(program: Command, io: Io, setExit: SetExit): void {
  const ui = program
    .command("ui")
    .description(
      "a local web page: the robots.txt tester (every dialect, the deciding line, lint, REGP plans, sitemaps, Mobile-agent-server, /data.txt) and, with --store, a live view of a crawl. Runs until interrupted. Exit 0: stopped; 2: bad option or the port is taken",
    )
    .option("--port <n>", "the port to listen on (0: any free port)", "8377")
    .option(
      "--host <addr>",
      "the address to listen on; anything but loopback is warned about (others could use the page)",
      "127.0.0.1",
    )
    .option(
      "--store <path>",
      "a crawl's SQLite file, or redis://host:port[#prefix], to follow live",
    )
    .option(
      "--agent <name>",
      "the crawl's robot name token (as given to heed crawl --agent): the crawl view shows each site's delay and rates from its robots.txt rules for that robot (default: the rules for any robot, User-agent: *)",
    )
    .option(
      "--ip <addr>",
      "the crawl's --ip: the crawl view reads each site's Ip-delay and Ip-rate windows for that address",
    )
    .option(
      "--open",
      "open the page in the desktop's browser; if that fails, a note on stderr gives the address to open by hand",
      false,
    )
    .option("--deadline <seconds>", DEADLINE_FLAG_HELP);
  connectionOptions(ui, HTTP_CONNECTION_DEFAULTS).action(async (options) => {
    const { runUi } = await import("./commands/ui.js");
    setExit(await runUi(options, io));
  });
}

function defineExport(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("export")
    .description(
      "write every record of a crawl's log, one a line: url, origin, at, ms, status, bytes, outcome, detail, canonical, via, requiredGapMs, gapMs, waitedMs, usage, referrer (the page that linked to it). Exit 0: written; 2: no store there, or it cannot be read",
    )
    .addOption(
      storeOption(
        "the crawl's SQLite file, or redis://host:port[#prefix]; a missing file is an error",
      ),
    )
    .addOption(
      new Option(
        "--format <format>",
        "jsonl: one JSON object a line; csv: RFC 4180 with a header row, nulls as empty fields",
      )
        .choices(EXPORT_FORMATS)
        .default("jsonl"),
    )
    .option("--out <file>", "write to this file instead of standard output")
    .option(
      "--items",
      "write the records the crawl's page handlers pushed (a crawler written with heed's library, docs/crawler.md) instead of the crawl log; JSON lines only",
      false,
    )
    .option(
      "--usage <category=value>",
      "only records whose usage preferences say this, e.g. train-ai=disallowed (repeatable; docs/usage-preferences.md)",
      collect,
      [],
    )
    .action(async (options) => {
      const { runExport } = await import("./commands/export.js");
      setExit(await runExport(options, io));
    });
}

function defineDatasets(program: Command, io: Io, setExit: SetExit): void {
  const datasets = program
    .command("datasets")
    .description(
      "the datasets a site offers to a robot: robots.txt first, then /data.txt (YAML catalog or draft form, docs/data-txt.md) and its folders' manifests; on a 404, guesses from sitemaps and links. Exit 0: datasets listed (and downloaded); 1: none, or a download failed; 2: bad input",
    )
    .argument("<site-url>", "any URL of the site, e.g. https://example.com/")
    .addOption(
      agentOption(
        "the robot's name token, matched in robots.txt and in data.txt's User-agent lines",
      ),
    )
    .option(
      "--json",
      "one JSON object a dataset: site, agent, source, via, form, guess, guessWhy, line, path, urls, name, title, description, license, type, rows, cols, columns, extra, agents, fetchable, closedBy, files, downloads",
      false,
    )
    .option(
      "--download <dir>",
      "fetch the fetchable files (not guesses) into DIR/HOST/PATH (one file per URL; nothing there is overwritten, no link followed), paced by robots.txt, resuming partial files; sizes and SHA-256 go to DIR/.heed/SHA256SUMS (cd DIR && sha256sum -c .heed/SHA256SUMS) and DIR/.heed/heed-downloads.json",
    )
    .option(
      "--max-bytes <size>",
      "--download: most bytes one file may have, e.g. 500M, 20G (powers of 1024); a bigger file stops there, its part kept to resume with a higher cap",
      "1G",
    )
    .option(
      "--allow-private",
      "fetch from private addresses (on by itself for a loopback or private site)",
    )
    .option("--deadline <seconds>", DEADLINE_FLAG_HELP)
    .option("--proxy <url>", PROXY_FLAG_HELP)
    .option("--proxy-for <host=url>", PROXY_FOR_FLAG_HELP, collect, [])
    .enablePositionalOptions()
    .action(async (site: string, options) => {
      const { runDatasets } = await import("./commands/datasets.js");
      setExit(await runDatasets(site, options, io));
    });

  datasets
    .command("build")
    .description(
      "write a YAML-form /data.txt for a folder of data files, with rows, cols and columns inferred from CSV, TSV and JSON-lines headers and samples. Exit 0: written; 2: bad input",
    )
    .argument("<dir>", "the folder served as the site's root")
    .option("--out <file>", "where to write the catalog (default DIR/data.txt)")
    .option(
      "--manifests",
      "write a data.txt in each sub-folder, the folder as one dataset in the mapping form R pins reads (path: [files…], name, type, rows, cols, columns), and list the folders from the top file",
      false,
    )
    .option("--sample-rows <n>", "rows read to infer column types", String(DEFAULT_SAMPLE_ROWS))
    .option("--json", "one JSON object: files [{path, entries}], notes, skipped", false)
    .action(async (dir: string, options) => {
      const { runDatasetsBuild } = await import("./commands/datasets-build.js");
      setExit(await runDatasetsBuild(dir, options, io));
    });
}

function defineServe(program: Command, io: Io, setExit: SetExit): void {
  const serve = program
    .command("serve")
    .description(
      "serve a directory as a web site (static files, conditional GET, its robots.txt), with --rup its Remote Update Protocol service (docs/rup.md); or a demo site (--demo news). Runs until interrupted (Ctrl-C). Exit 0: stopped; 2: bad options or the port is taken",
    )
    .argument("[dir]", "the site's directory (not with --demo)")
    .option(
      "--demo <site>",
      "news: the news site of the REGP paper (docs/demo.md): login, registration, search, Ajax comments, snapshots, news release, a sitemap it keeps current",
    )
    .option("--host <addr>", "address to listen on", "127.0.0.1")
    .option(
      "--port <n>",
      "port to listen on (0: any free one, printed); default 8080 for a directory, 8089 for --demo",
    )
    .addOption(
      new Option(
        "--robots <variant>",
        "--demo: robots.txt: none (404), rep (the old REP file of §5), regp (the REGP file of §5)",
      )
        .choices(["none", "rep", "regp"])
        .default("regp"),
    )
    .option("--items <n>", "--demo: news items to start with, one a day up to today", "30")
    .option(
      "--admin-password <pw>",
      "--demo: password of the administrator (user admin); default random, printed",
    )
    .option(
      "--url <url>",
      "--demo: the URL the site is reached at, named in robots.txt and the sitemap (default http://HOST:PORT)",
    )
    .option("--quiet", "do not log each request on standard error", false);
  connectionOptions(serve, HTTP_CONNECTION_DEFAULTS)
    .option(
      "--usage <file>",
      "usage preferences to attach (docs/usage-preferences.md#one-description): a Content-Usage header per path, and /.well-known/tdmrep.json",
    )
    .option(
      "--bot-keys <file>",
      "serve a robot's key directory at /.well-known/http-message-signatures-directory: a file from heed keys directory, served as is and unsigned, or a directory of key files, whose public halves are served and whose private keys sign each answer (docs/web-bot-auth.md)",
    )
    .option(
      "--verify-bots",
      "verify Web Bot Auth signatures (fetching each robot's key directory) and log the verified key beside each request",
      false,
    )
    .option(
      "--require-signature <pattern>",
      "--verify-bots: answer 401 to unsigned or failing requests for paths matching this pattern, in robots.txt syntax such as '/*' (repeatable)",
      collect,
      [],
    )
    .option(
      "--authority <host[:port]>",
      "--verify-bots: an authority this site answers for, beside the host:port it listens on; a signature made for any other is refused (repeatable)",
      collect,
      [],
    )
    .option(
      "--require-signed-directory",
      "--verify-bots: refuse keys from a key directory whose answer is not signed by the keys it lists (default: plain directories are accepted)",
      false,
    )
    .option(
      "--allow-private",
      "--verify-bots: fetch key directories from loopback and private addresses, and over plain http",
      false,
    )
    .option(
      "--rup",
      "offer RUP for the directory: /rupinfo.txt (and .tex), the action endpoint /cgi-bin/rup, the modification log, reports by e-mail",
      false,
    )
    .option("--smtp <url>", "--rup: mail server for reports, smtp://host:port (or smtps://)")
    .option(
      "--confirm",
      "--rup: mail each new recipient once, asking it to confirm; send it nothing else until it does (webhook registrations are then refused; see docs/rup-abuse.md)",
      false,
    )
    .option("--from <addr>", "--rup: From address of reports (default rup@localhost)")
    .option(
      "--state <path>",
      "--rup: SQLite file of the RUP state: registrations, log, snapshot, unsent reports",
      "./heed-rup.db",
    )
    .option(
      "--base <url>",
      "--rup: the site's public URL, for URLBase and RUP-CGI (default: the address listened on)",
    )
    .option(
      "--latency <list>",
      "--rup: latency units offered, comma-separated, of hour, day, week, month (default: day,week,month)",
    )
    .option(
      "--max-query-span <N-unit>",
      "--rup: how long the modification log is kept and GetIndex reaches back",
      "1-month",
    )
    .option(
      "--exclude <patterns>",
      "--rup: Exclude patterns offered (regular expressions, comma-separated)",
    )
    .option(
      "--include-only <patterns>",
      "--rup: IncludeOnly patterns offered (regular expressions, comma-separated)",
    )
    .option(
      "--scan-interval <seconds>",
      "--rup: compare the whole tree with the snapshot this often, besides watching it (0: only at start-up)",
      "300",
    )
    .option(
      "--allow-private-webhooks",
      "--rup: let webhook registrations (a URL in place of RobotEmail) name loopback and private addresses",
      false,
    )
    .action(async (dir: string | undefined, options, command: Command) => {
      // An option of the other kind of site would be ignored without a word: say so instead.
      const given = (flags: readonly string[]): string | undefined =>
        flags.find((f) => command.getOptionValueSource(f) === "cli");
      const demoOnly = given(["robots", "items", "adminPassword", "url"]);
      const dirOnly = given([
        "botKeys",
        "verifyBots",
        "requireSignature",
        "requireSignedDirectory",
        "authority",
        "allowPrivate",
      ]);
      if (options.demo !== undefined && dirOnly !== undefined)
        throw new CliError(`--${kebabCase(dirOnly)} serves a directory, not --demo`);
      if (options.demo === undefined && demoOnly !== undefined)
        throw new CliError(`--${kebabCase(demoOnly)} needs --demo`);
      if (options.demo !== undefined) {
        if (dir !== undefined) throw new CliError("give a directory or --demo, not both");
        if (options.rup === true) throw new CliError("--rup serves a directory, not --demo");
        const rupOnly = given([
          "smtp",
          "confirm",
          "from",
          "state",
          "base",
          "latency",
          "maxQuerySpan",
          "exclude",
          "includeOnly",
          "scanInterval",
          "allowPrivateWebhooks",
        ]);
        if (rupOnly !== undefined)
          throw new CliError(`--${kebabCase(rupOnly)} needs --rup, which serves a directory`);
        const dirOnly = given(["maxConnections", "maxConnectionsPerAddress", "progressTimeout"]);
        if (dirOnly !== undefined)
          throw new CliError(`--${kebabCase(dirOnly)} applies to a directory served, not --demo`);
        const { runServeDemo } = await import("./commands/serve-demo.js");
        setExit(await runServeDemo({ ...options, port: options.port ?? "8089" }, io));
        return;
      }
      if (dir === undefined) throw new CliError("give --demo news, or a directory to serve");
      const { runServeDir } = await import("./commands/serve.js");
      setExit(await runServeDir(dir, { ...options, port: options.port ?? "8080" }, io));
    });
}

function defineUsage(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("usage")
    .description(
      "usage preferences for a site (docs/usage-preferences.md): what its content may be used for once fetched",
    )
    .command("build")
    .description(
      "write the robots.txt lines (Content-Usage, Content-Signal) and tdmrep.json from one description. Exit 0: written; 2: bad input",
    )
    .argument(
      "<description>",
      "the description, a JSON file (docs/usage-preferences.md#one-description)",
    )
    .option(
      "--robots <file>",
      "write the lines into this robots.txt (its User-agent: * group, replacing earlier usage lines) instead of printing them",
    )
    .option("--tdmrep <file>", "also write the TDMRep file (serve it as /.well-known/tdmrep.json)")
    .action(async (description: string, options) => {
      const { runUsageBuild } = await import("./commands/usage-build.js");
      setExit(await runUsageBuild(description, options, io));
    });
}

function defineRup(program: Command, io: Io, setExit: SetExit): void {
  const rup = program
    .command("rup")
    .description(
      "the robot's side of the Remote Update Protocol (docs/rup.md): register with sites, take their reports in, queue what changed. Exit 0: done; 1: the site refused (seq: reports lost); 2: bad input or unreachable",
    );
  const rupStore = (): Option =>
    storeOption(
      "the crawl store, where registrations and keys are kept: an SQLite file, or redis://host:port[#prefix]",
    );
  const rupAgent = (): Option => agentOption("the robot's name token, sent in User-Agent");
  const prefsOptions = (command: Command): Command =>
    command
      .option(
        "--latency <value>",
        "time between reports: hour, day, week, month, or N-unit such as 3-day (one the site offers)",
      )
      .option(
        "--exclude <pattern>",
        "hear of everything but paths matching this offered pattern (repeatable)",
        collect,
        [],
      )
      .option(
        "--include-only <pattern>",
        "hear only of paths matching this offered pattern (repeatable)",
        collect,
        [],
      );

  rup
    .command("info")
    .description("read a site's /rupinfo.txt. Exit 2: the site offers no RUP")
    .argument("<site>", "the site's URL")
    .addOption(rupAgent())
    .option("--json", "one JSON object: url, cgiUrl, info, diagnostics", false)
    .action(async (site: string, options) => {
      const { runRupInfo } = await import("./commands/rup.js");
      setExit(await runRupInfo(site, { ...options, store: "" }, io));
    });
  prefsOptions(
    rup
      .command("register")
      .description(
        "register with a site; prints the RegistrationKey once and keeps it in the store",
      )
      .argument("<site>", "the site's URL")
      .option(
        "--email <addr>",
        "where the site mails reports (required); an http(s) URL gets them posted as signed JSON (docs/rup.md#webhooks)",
      ),
  )
    .addOption(rupStore())
    .addOption(rupAgent())
    .option("--json", "one JSON object: site, email, registrationKey, cgiUrl", false)
    .action(async (site: string, options) => {
      const { runRupRegister } = await import("./commands/rup.js");
      setExit(await runRupRegister(site, options, io));
    });
  prefsOptions(
    rup
      .command("modify")
      .description("change preferences with a site (only what is given)")
      .argument("<site>", "the site's URL")
      .option("--email <addr>", "a new address (or http(s) callback URL) for reports"),
  )
    .addOption(rupStore())
    .addOption(rupAgent())
    .option("--json", "one JSON object: site, changed", false)
    .action(async (site: string, options) => {
      const { runRupModify } = await import("./commands/rup.js");
      setExit(await runRupModify(site, options, io));
    });
  rup
    .command("unregister")
    .description("cancel the registration with a site")
    .argument("<site>", "the site's URL")
    .addOption(rupStore())
    .addOption(rupAgent())
    .option("--json", "one JSON object: site, unregistered", false)
    .action(async (site: string, options) => {
      const { runRupUnregister } = await import("./commands/rup.js");
      setExit(await runRupUnregister(site, options, io));
    });
  rup
    .command("seq")
    .description(
      "ask a site for its SequenceNumber and compare it with the last report received. Exit 1: reports were lost",
    )
    .argument("<site>", "the site's URL")
    .addOption(rupStore())
    .addOption(rupAgent())
    .option("--json", "one JSON object: sequenceNumber, received, lost, behind", false)
    .action(async (site: string, options) => {
      const { runRupSeq } = await import("./commands/rup.js");
      setExit(await runRupSeq(site, options, io));
    });
  rup
    .command("key")
    .description("print the RegistrationKey kept for a site")
    .argument("<site>", "the site's URL")
    .addOption(rupStore())
    .action(async (site: string, options) => {
      const { runRupKey } = await import("./commands/rup.js");
      setExit(await runRupKey(site, { ...options, agent: "heed" }, io));
    });
  rup
    .command("index")
    .description(
      "ask a site for its changes of the last span (GetIndex), printed as a report; no registration needed",
    )
    .argument("<site>", "the site's URL")
    .option("--span <N-unit>", "how far back, e.g. 2-week (required)")
    .addOption(rupAgent())
    .option("--json", "one JSON object: sequenceNumber, urlBase, changes, diagnostics", false)
    .action(async (site: string, options) => {
      const { runRupIndex } = await import("./commands/rup.js");
      setExit(await runRupIndex(site, { ...options, store: "" }, io));
    });
  rup
    .command("inbox")
    .description(
      "receive reports by SMTP: check sequence numbers, recover lost reports (GetIndex, else a full re-crawl), queue New/Change URLs and mark Delete ones gone in the store. Runs until interrupted",
    )
    .requiredOption("--listen <host:port>", "address to listen on, e.g. 127.0.0.1:2525")
    .option(
      "--check-every <minutes>",
      "ask sites whose report is overdue for their SequenceNumber, and recover what was lost (0: never)",
      "15",
    )
    .addOption(rupStore())
    .addOption(rupAgent())
    .option("--json", "one JSON object a line per report", false)
    .action(async (options) => {
      const { runRupInbox } = await import("./commands/rup.js");
      setExit(await runRupInbox(options, io));
    });
}

function defineAgents(program: Command, io: Io, setExit: SetExit): void {
  const agents = program
    .command("agents")
    .description(
      "mobile agents (docs/mobile-agents.md; ATP/0.1): resolve a URL to its agent host, run a host, dispatch an indexing agent",
    );

  agents
    .command("resolve")
    .description(
      "print the agent host (Mobile-agent-server) for each URL, or none. Exit 0: every URL has a host; 1: some have none; 2: bad input",
    )
    .argument("<robots>", "robots.txt file, http(s) URL, or - for standard input")
    .option("--url <url>", "URL (or /path) to resolve (repeatable)", collect, [])
    .option(
      "--json",
      'one JSON object a line: { "url", "host", "line" }, host null when none',
      false,
    )
    .action(async (robots: string, options) => {
      const { runAgentsResolve } = await import("./commands/agents-resolve.js");
      setExit(await runAgentsResolve(robots, options, io));
    });

  const host = agents
    .command("host")
    .description(
      "run an ATP/0.1 agent host: visiting heed agents index the site's files in a sandbox (QuickJS), only on the paths the site's Mobile-agent-server records assign to this host and only what its robots.txt allows their robot. Runs until SIGINT/SIGTERM. Exit 0 after a signal; 2: bad options",
    )
    .option("--root <dir>", "the site's document root (the directory that serves /)")
    .option(
      "--listen <host:port>",
      "address to listen on (ATP's port is 434; 10434 without root)",
      "127.0.0.1:10434",
    )
    .option(
      "--site <url>",
      "the site's URL: robots.txt is fetched from it (else ROOT/robots.txt is read)",
    )
    .option(
      "--assign <path>",
      "accept agents for this path (repeatable); default: the paths whose Mobile-agent-server record names this host",
      collect,
      [],
    )
    .option("--time-limit <ms>", "running time of one agent, in ms (default 30000)")
    .option("--memory-limit <MiB>", "heap of one agent, in MiB (default 64)")
    .option("--max-running <n>", "agents running at once (default 2)")
    .option("--max-per-sender <n>", "agents one sender may hold at once (default 8)");
  connectionOptions(host, AGENT_HOST_CONNECTION_DEFAULTS)
    .option("--allow-private", "let agents move on to private and loopback addresses", false)
    .option("--quiet", "no log lines on standard error", false)
    .action(async (options) => {
      const { runAgentsHost } = await import("./commands/agents-host.js");
      setExit(await runAgentsHost(options, io));
    });

  agents
    .command("dispatch")
    .description(
      "send heed's indexing agent to an agent host, retract it, and print its index as JSON lines (url, title, digest, sha256, links, lastmod). Exit 0: finished; 1: refused or failed; 2: bad input or unreachable",
    )
    .argument(
      "<atp-url>",
      "the agent host, e.g. atp://127.0.0.1:4434 (port 434 when none is given)",
    )
    .option("--site <url>", "the site whose subtree to index")
    .option("--path <path>", "the subtree to index", "/")
    .addOption(
      agentOption("the robot's name token: the site's robots.txt rules for it bind the agent"),
    )
    .option("--from <email>", "who answers for the robot, sent as ATP's From field (§8.3)")
    .option("--max-pages <n>", "stop after this many pages (default 100000)")
    .option(
      "--allow-private",
      "connect to private and loopback addresses (on by itself when the host is one)",
      false,
    )
    .action(async (atpUrl: string, options) => {
      const { runAgentsDispatch } = await import("./commands/agents-dispatch.js");
      setExit(await runAgentsDispatch(atpUrl, options, io));
    });
}

function defineKeys(program: Command, io: Io, setExit: SetExit): void {
  const keys = program
    .command("keys")
    .description(
      "a robot's Web Bot Auth keys (docs/web-bot-auth.md): make one, and the key directory its owner publishes",
    );
  keys
    .command("new")
    .description(
      "write a fresh Ed25519 private key as JWK (file mode 0600, never over an existing file) and print its JWK thumbprint, the keyid of its signatures",
    )
    .argument("<keyfile>", "the file to create")
    .action(async (file: string) => {
      const { runKeysNew } = await import("./commands/keys.js");
      setExit(await runKeysNew(file, io));
    });
  keys
    .command("directory")
    .description(
      "write the key directory (a JWK set of the public halves) to publish at /.well-known/http-message-signatures-directory; prints each key's thumbprint. The file is unsigned: heed serve --bot-keys DIR, given the key files, serves the directory with each answer signed",
    )
    .argument("<keyfile...>", "key files, private (heed keys new) or public")
    .option("--out <file>", "the directory file to write (required)")
    .action(async (files: string[], options: { out?: string }) => {
      const { runKeysDirectory } = await import("./commands/keys.js");
      setExit(await runKeysDirectory(files, options, io));
    });
}

function defineVerifyRequest(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("verify-request")
    .description(
      "check the Web Bot Auth signature of one recorded HTTP request (request line and header lines, as received; - for standard input). Exit 0: verified; 1: refused, with the reason; 2: bad input",
    )
    .argument("<file>", "the recorded request")
    .option(
      "--key <keyfile>",
      "a robot's key to believe without fetching its directory (repeatable)",
      collect,
      [],
    )
    .option("--at <rfc3339>", "judge the signature's times at this moment (default: now)")
    .option("--https", "the request came over TLS (its target URI is https)", false)
    .option(
      "--allow-private",
      "fetch key directories from loopback and private addresses, and over plain http",
      false,
    )
    .option("--json", "one JSON object: ok, keyid, directory, or reason and message", false)
    .action(async (file: string, options) => {
      const { runVerifyRequest } = await import("./commands/verify-request.js");
      setExit(await runVerifyRequest(file, options, io));
    });
}

function defineDemo(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("demo")
    .description(
      "run the news-site experiment of the REGP paper (docs/demo.md): the site crawled with no robots.txt, the old REP file and the REGP file (Tables 9-11), then with a Visit-time window and Language: fr. Exit 0: every table agrees with the paper's; 1: one differs",
    )
    .option(
      "--json",
      "print the results as one JSON object: { items, agent, agrees, runs: [{ robots, table, rows: [{ resource, fetched, total, minGapSeconds, … }], log, … }] }",
      false,
    )
    .option("--items <n>", "news items of the three main runs (at least 4)", "30")
    .action(async (options) => {
      const { runDemo } = await import("./commands/demo.js");
      setExit(await runDemo(options, io));
    });
}

function defineCompletion(program: Command, io: Io): void {
  program
    .command("completion")
    .description("print a completion script for your shell (bash, zsh or fish)")
    .addArgument(new Argument("<shell>", "the shell").choices(["bash", "zsh", "fish"]))
    .action(async (shell: "bash" | "zsh" | "fish") => {
      const { completionScript } = await import("./completion.js");
      io.stdout.write(completionScript(program, shell));
    });
}

/** Each top-level command, in the order `heed --help` lists them. */
const COMMANDS: readonly (readonly [
  string,
  (program: Command, io: Io, setExit: SetExit) => void,
])[] = [
  ["check", defineCheck],
  ["lint", defineLint],
  ["sitemap", defineSitemap],
  ["crawl", defineCrawl],
  ["report", defineReport],
  ["ui", defineUi],
  ["export", defineExport],
  ["datasets", defineDatasets],
  ["serve", defineServe],
  ["usage", defineUsage],
  ["rup", defineRup],
  ["agents", defineAgents],
  ["keys", defineKeys],
  ["verify-request", defineVerifyRequest],
  ["demo", defineDemo],
  ["completion", defineCompletion],
];

/**
 * The command `argv` runs, when building that one alone answers exactly as the whole program
 * does; else undefined (help, --version, an unknown word, completion, which lists every command).
 */
export function commandOf(argv: readonly string[]): string | undefined {
  const first = argv[0];
  if (first === undefined || first === "completion") return undefined;
  return COMMANDS.some(([name]) => name === first) ? first : undefined;
}

/** Runs the command line; resolves to the exit code. Never exits the process itself. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let code = EXIT_OK;
  const program = buildProgram(
    io,
    (c) => {
      code = c;
    },
    commandOf(argv),
  );
  const unknown = unknownHelpTopic(program, argv);
  if (unknown !== null) {
    io.stderr.write(`heed help: no command "${unknown}" (heed --help lists them)\n`);
    return EXIT_BAD_INPUT;
  }
  try {
    await program.parseAsync(helpArgs(argv), { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not errors; anything else commander refuses is a usage error.
      return error.exitCode === 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (error instanceof CliError) {
      // A message may quote a site's answer (a RUP refusal): its control characters shown.
      io.stderr.write(`heed: ${printableLines(error.message)}\n`);
      return error.exitCode;
    }
    const system = systemErrorText(error);
    if (system !== null) {
      // A file or folder the person named cannot be used: one line, not a stack trace.
      io.stderr.write(`heed: ${system}\n`);
      return EXIT_BAD_INPUT;
    }
    throw error;
  }
}

function kebabCase(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The words after `heed help` that name no command ("rup nope"), or null when they all do. */
function unknownHelpTopic(program: Command, argv: readonly string[]): string | null {
  if (argv[0] !== "help") return null;
  let command = program;
  const path: string[] = [];
  for (const word of argv.slice(1)) {
    if (word.startsWith("-") || word === "help") break; // commander's own help command
    path.push(word);
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub === undefined) return path.join(" ");
    command = sub;
  }
  return null;
}

/** `heed help rup inbox` is `heed rup inbox --help`; commander's own help goes one level only. */
function helpArgs(argv: readonly string[]): string[] {
  if (argv[0] === "help" && argv.length > 1) return [...argv.slice(1), "--help"];
  return [...argv];
}

const SYSTEM_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or folder",
  EISDIR: "it is a folder",
  ENOTDIR: "a part of the path is not a folder",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EEXIST: "it exists already",
  ENOSPC: "no space left on the device",
  EROFS: "the file system is read-only",
};

/** A file-system error as one line naming the path, or null for anything else. */
function systemErrorText(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code, path, syscall } = error as { code?: unknown; path?: unknown; syscall?: unknown };
  if (typeof code !== "string") return null;
  const reason = SYSTEM_REASONS[code];
  if (reason === undefined) return null;
  const where = typeof path === "string" ? ` ${path}` : "";
  return `cannot ${typeof syscall === "string" ? syscall : "use"}${where}: ${reason}`;
}
