/**
 * The `heed` command line. Commands are plain functions that return an exit code; only
 * `bin.ts` calls `process.exit`.
 */
import { Command, CommanderError, Option } from "commander";
import { DIALECTS, type DialectChoice } from "../protocol/robots/index.js";
import { runAgentsDispatch } from "./commands/agents-dispatch.js";
import { runAgentsHost } from "./commands/agents-host.js";
import { runAgentsResolve } from "./commands/agents-resolve.js";
import { runCheck } from "./commands/check.js";
import { runCrawl } from "./commands/crawl.js";
import { runDatasets, DEFAULT_AGENT } from "./commands/datasets.js";
import { DEFAULT_SAMPLE_ROWS, runDatasetsBuild } from "./commands/datasets-build.js";
import { LINT_KINDS } from "./commands/lint-data-txt.js";
import { runDemo } from "./commands/demo.js";
import { EXPORT_FORMATS, runExport } from "./commands/export.js";
import { runLint } from "./commands/lint.js";
import { runReport } from "./commands/report.js";
import {
  runRupIndex,
  runRupInbox,
  runRupInfo,
  runRupKey,
  runRupModify,
  runRupRegister,
  runRupSeq,
  runRupUnregister,
} from "./commands/rup.js";
import { runServeDir } from "./commands/serve.js";
import { runServeDemo } from "./commands/serve-demo.js";
import { runSitemapBuild, runSitemapList, runSitemapUpdate } from "./commands/sitemap.js";
import { CliError, EXIT_BAD_INPUT, EXIT_OK } from "./errors.js";
import type { Io } from "./io.js";
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

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
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

  program
    .command("check")
    .description(
      "answer whether robots may fetch URLs. Exit 0: all allowed; 1: one is not; 2: bad input",
    )
    .argument("[robots]", "robots.txt file, http(s) URL, or - for standard input")
    .option("--agent <name>", "the robot's name token or User-Agent header")
    .option("--url <url>", "URL to check (repeatable)", collect, [])
    .option(
      "--queries <file>",
      "one query a line: agent<TAB>url[<TAB>ip<TAB>time]; - for standard input",
    )
    .option("--batch <file>", "one query a line: robots-file<TAB>agent<TAB>url[<TAB>ip<TAB>time]")
    .option(
      "--jobs <n>",
      "--batch: worker threads that read and parse files beside the main one (default: one per spare core for a batch file of 1 MiB or more)",
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
    .option("--json", "one JSON object a line", false)
    .action(async (robots: string | undefined, options) => {
      setExit(await runCheck(robots, options, io));
    });

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
      setExit(await runLint(robots, options, io));
    });

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
    .option("--agent <name>", "User-Agent header for fetching")
    .enablePositionalOptions()
    .action(async (source: string, options) => {
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
    .action(async (list: string | undefined, options) => {
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
    .action(async (file: string, options) => {
      setExit(await runSitemapUpdate(file, options, io));
    });

  program
    .command("crawl")
    .description(
      "crawl politely from seed URLs, obeying every robots.txt dialect; run again to resume",
    )
    .argument("[url...]", "seed URLs (none with --queued)")
    .option(
      "--agent <name>",
      "the robot's name token, matched in robots.txt and sent in User-Agent",
    )
    .option(
      "--info-url <url>",
      "the URL in the User-Agent header: NAME/<version> (+<url>)",
      "https://www.npmjs.com/package/heed",
    )
    .option(
      "--store <path>",
      "the crawl's SQLite file, or redis://host:port[#prefix] to share it",
      "./heed-crawl.db",
    )
    .option("--out <dir>", "write what is fetched as WARC 1.1 files (.warc.gz) in this directory")
    .option(
      "--warc-max-bytes <n>",
      "start a new WARC file once one holds this many bytes (default 1000000000)",
    )
    .option("--max-pages <n>", "stop after this many pages in all", "1000")
    .option("--max-depth <n>", "follow links this many steps from the seeds", "5")
    .option("--max-per-host <n>", "fetch at most this many pages of one site in a run")
    .option("--concurrency <n>", "requests in flight at once, over all sites", "16")
    .option("--per-host <n>", "requests in flight at once to one site", "1")
    .addOption(
      new Option("--scope <scope>", "which links to follow")
        .choices(["host", "domain", "prefix"])
        .default("host"),
    )
    .option("--ip <addr>", "send from this local address; REGP Ip-* rules see it")
    .option("--languages <list>", "languages the crawler supports (REGP Language)")
    .option("--encodings <list>", "content codings the crawler supports (REGP Encoding)")
    .option("--charsets <list>", "charsets the crawler supports (REGP Charset)")
    .option(
      "--allow-private",
      "crawl private and loopback addresses (on by itself when a seed is one)",
    )
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
      "fetch what the store has queued (URLs heed rup inbox took from RUP reports), with or without seeds",
      false,
    )
    .option(
      "--sort-query",
      "sort query parameters when normalising URLs (?b=1&a=2 and ?a=2&b=1 become one page)",
      false,
    )
    .option("--quiet", "no progress line", false)
    .option(
      "--datasets",
      "after the crawl, read each host's /data.txt (and manifests, or the 404 guesses) and keep its catalog in the store; heed report lists them",
      false,
    )
    .option("--json", "print a summary object at the end", false)
    .action(async (urls: string[], options) => {
      setExit(await runCrawl(urls, options, io));
    });

  program
    .command("report")
    .description(
      "what a crawl's log says, per host and overall: pages by status and by how they were found, gaps kept against those required, time waited, errors. Exit 0: reported; 2: no store there, or it cannot be read",
    )
    .option(
      "--store <path>",
      "the crawl's SQLite file, or redis://host:port[#prefix]; a missing file is an error",
      "./heed-crawl.db",
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
      setExit(await runReport(options, io));
    });

  program
    .command("export")
    .description(
      "write every record of a crawl's log, one a line: url, origin, at, ms, status, bytes, outcome, detail, canonical, via, requiredGapMs, gapMs, waitedMs. Exit 0: written; 2: no store there, or it cannot be read",
    )
    .option(
      "--store <path>",
      "the crawl's SQLite file, or redis://host:port[#prefix]; a missing file is an error",
      "./heed-crawl.db",
    )
    .addOption(
      new Option(
        "--format <format>",
        "jsonl: one JSON object a line; csv: RFC 4180 with a header row, nulls as empty fields",
      )
        .choices(EXPORT_FORMATS)
        .makeOptionMandatory(),
    )
    .option("--out <file>", "write to this file instead of standard output")
    .action(async (options) => {
      setExit(await runExport(options, io));
    });

  const datasets = program
    .command("datasets")
    .description(
      "the datasets a site offers to a robot: robots.txt first, then /data.txt (YAML catalog or seeds/002 draft form) and its folders' manifests; on a 404, guesses from sitemaps and links. Exit 0: datasets listed (and downloaded); 1: none, or a download failed; 2: bad input",
    )
    .argument("<site-url>", "any URL of the site, e.g. https://example.com/")
    .option(
      "--agent <name>",
      "the robot's name token, matched in robots.txt and in data.txt's User-agent lines",
      DEFAULT_AGENT,
    )
    .option(
      "--json",
      "one JSON object a dataset: site, agent, source, via, form, guess, guessWhy, line, path, urls, name, title, description, license, type, rows, cols, columns, extra, agents, fetchable, closedBy, files, downloads",
      false,
    )
    .option(
      "--download <dir>",
      "fetch the fetchable files (not guesses) into DIR, paced by robots.txt, resuming partial files; sizes and SHA-256 go to DIR/SHA256SUMS and DIR/heed-downloads.json",
    )
    .option(
      "--allow-private",
      "fetch from private addresses (on by itself for a loopback or private site)",
    )
    .enablePositionalOptions()
    .action(async (site: string, options) => {
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
      "write a data.txt in each sub-folder describing its files, and list the folders from the top file",
      false,
    )
    .option("--sample-rows <n>", "rows read to infer column types", String(DEFAULT_SAMPLE_ROWS))
    .action(async (dir: string, options) => {
      setExit(await runDatasetsBuild(dir, options, io));
    });

  program
    .command("serve")
    .description(
      "serve a directory as a web site (static files, conditional GET, its robots.txt), with --rup its Remote Update Protocol service (seeds/001); or a demo site (--demo news). Runs until interrupted (Ctrl-C). Exit 0: stopped; 2: bad options or the port is taken",
    )
    .argument("[dir]", "the site's directory (not with --demo)")
    .option(
      "--demo <site>",
      "news: the news site of the REGP paper (seeds/003 §4.1): login, registration, search, Ajax comments, snapshots, news release, a sitemap it keeps current",
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
    .option("--quiet", "--demo: do not log each request on standard error", false)
    .option(
      "--rup",
      "offer RUP for the directory: /rupinfo.txt (and .tex), the action endpoint /cgi-bin/rup, the modification log, reports by e-mail",
      false,
    )
    .option("--smtp <url>", "--rup: mail server for reports, smtp://host:port (or smtps://)")
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
    .option("--latency <list>", "--rup: latency units offered, e.g. day,week,month (the default)")
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
    .action(async (dir: string | undefined, options) => {
      if (options.demo !== undefined) {
        if (dir !== undefined) throw new CliError("give a directory or --demo, not both");
        if (options.rup === true) throw new CliError("--rup serves a directory, not --demo");
        setExit(await runServeDemo({ ...options, port: options.port ?? "8089" }, io));
        return;
      }
      if (dir === undefined) throw new CliError("give --demo news, or a directory to serve");
      setExit(await runServeDir(dir, { ...options, port: options.port ?? "8080" }, io));
    });

  const rup = program
    .command("rup")
    .description(
      "the robot's side of the Remote Update Protocol (seeds/001): register with sites, take their reports in, queue what changed. Exit 0: done; 1: the site refused (seq: reports lost); 2: bad input or unreachable",
    );
  const storeOption = (): Option =>
    new Option(
      "--store <path>",
      "the crawl store, where registrations and keys are kept: an SQLite file, or redis://host:port[#prefix]",
    ).default("./heed-crawl.db");
  const agentOption = (): Option =>
    new Option("--agent <name>", "the robot's name token, sent in User-Agent").default("heed");
  const prefsOptions = (command: Command): Command =>
    command
      .option(
        "--latency <value>",
        "time between reports: day, week, month, or N-unit such as 3-day",
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
    .addOption(agentOption())
    .option("--json", "one JSON object: url, cgiUrl, info, diagnostics", false)
    .action(async (site: string, options) => {
      setExit(await runRupInfo(site, { ...options, store: "" }, io));
    });
  prefsOptions(
    rup
      .command("register")
      .description(
        "register with a site; prints the RegistrationKey once and keeps it in the store",
      )
      .argument("<site>", "the site's URL")
      .option("--email <addr>", "where the site mails reports (required)"),
  )
    .addOption(storeOption())
    .addOption(agentOption())
    .option("--json", "one JSON object: site, email, registrationKey, cgiUrl", false)
    .action(async (site: string, options) => {
      setExit(await runRupRegister(site, options, io));
    });
  prefsOptions(
    rup
      .command("modify")
      .description("change preferences with a site (only what is given)")
      .argument("<site>", "the site's URL")
      .option("--email <addr>", "a new address for reports"),
  )
    .addOption(storeOption())
    .addOption(agentOption())
    .action(async (site: string, options) => {
      setExit(await runRupModify(site, options, io));
    });
  rup
    .command("unregister")
    .description("cancel the registration with a site")
    .argument("<site>", "the site's URL")
    .addOption(storeOption())
    .addOption(agentOption())
    .action(async (site: string, options) => {
      setExit(await runRupUnregister(site, options, io));
    });
  rup
    .command("seq")
    .description(
      "ask a site for its SequenceNumber and compare it with the last report received. Exit 1: reports were lost",
    )
    .argument("<site>", "the site's URL")
    .addOption(storeOption())
    .addOption(agentOption())
    .option("--json", "one JSON object: sequenceNumber, received, lost", false)
    .action(async (site: string, options) => {
      setExit(await runRupSeq(site, options, io));
    });
  rup
    .command("key")
    .description("print the RegistrationKey kept for a site")
    .argument("<site>", "the site's URL")
    .addOption(storeOption())
    .action(async (site: string, options) => {
      setExit(await runRupKey(site, { ...options, agent: "heed" }, io));
    });
  rup
    .command("index")
    .description(
      "ask a site for its changes of the last span (GetIndex), printed as a report; no registration needed",
    )
    .argument("<site>", "the site's URL")
    .option("--span <N-unit>", "how far back, e.g. 2-week (required)")
    .addOption(agentOption())
    .option("--json", "one JSON object: sequenceNumber, urlBase, changes, diagnostics", false)
    .action(async (site: string, options) => {
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
    .addOption(storeOption())
    .addOption(agentOption())
    .option("--json", "one JSON object a line per report", false)
    .action(async (options) => {
      setExit(await runRupInbox(options, io));
    });

  const agents = program
    .command("agents")
    .description(
      "mobile agents (seeds/000, ATP/0.1): resolve a URL to its agent host, run a host, dispatch an indexing agent",
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
      setExit(await runAgentsResolve(robots, options, io));
    });

  agents
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
    .option("--max-per-sender <n>", "agents one sender may hold at once (default 8)")
    .option("--allow-private", "let agents move on to private and loopback addresses", false)
    .option("--quiet", "no log lines on standard error", false)
    .action(async (options) => {
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
    .option(
      "--agent <name>",
      "the robot's name token: the site's robots.txt rules for it bind the agent",
      "heed",
    )
    .option("--from <email>", "who answers for the robot, sent as ATP's From field (§8.3)")
    .option("--max-pages <n>", "stop after this many pages (default 100000)")
    .option(
      "--allow-private",
      "connect to private and loopback addresses (on by itself when the host is one)",
      false,
    )
    .action(async (atpUrl: string, options) => {
      setExit(await runAgentsDispatch(atpUrl, options, io));
    });

  program
    .command("demo")
    .description(
      "run the news-site experiment of the REGP paper (seeds/003 §5): the site crawled with no robots.txt, the old REP file and the REGP file (Tables 9-11), then with a Visit-time window and Language: fr. Exit 0: every table agrees with the paper's; 1: one differs",
    )
    .option(
      "--json",
      "print the results as one JSON object: { items, agent, agrees, runs: [{ robots, table, rows: [{ resource, fetched, total, minGapSeconds, … }], log, … }] }",
      false,
    )
    .option("--items <n>", "news items of the three main runs (at least 4)", "30")
    .action(async (options) => {
      setExit(await runDemo(options, io));
    });

  return program;
}

/** Runs the command line; resolves to the exit code. Never exits the process itself. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let code = EXIT_OK;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not errors; anything else commander refuses is a usage error.
      return error.exitCode === 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (error instanceof CliError) {
      io.stderr.write(`heed: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
