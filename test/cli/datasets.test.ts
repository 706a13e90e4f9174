// `heed datasets` as users run it: the built CLI against real sites on 127.0.0.1 (the issue's
// Proof). A YAML catalog with manifests; a draft-form file with two robots' records; a 404
// site whose data is only in its sitemap and links; a catalog whose paths robots.txt forbids;
// malformed, refused, huge and outside-the-site catalogs; polite, resumable downloads. What
// each site was asked is read from its own request log.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { MAX_DATA_TXT_BYTES } from "../../src/protocol/datasets/index.js";
import { tempDir, TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";
import { startRouteSite, type RouteRequest } from "../helpers/route-site.js";

/**
 * What is slow here is starting the CLI, not the sites: each run loads the HTTP client and the
 * YAML reader, about half a second of CPU (more unbundled), and 17 runs share the machine with
 * whatever else runs. Two tests at a time keep a run from queueing behind ten others for the
 * CPU, and the limit on a run is there to end a hang, not to time it: no assertion rests on how
 * fast a run is.
 */
const TESTS_AT_ONCE = 2;
const RUN_LIMIT_MS = 120_000;
const heed = (args: readonly string[]) => runCli(args, { timeoutMs: RUN_LIMIT_MS });

const byPath = (objects: Record<string, unknown>[]) =>
  new Map(objects.map((o) => [JSON.stringify(o.path), o]));

describe("heed datasets", { concurrency: TESTS_AT_ONCE, timeout: 600_000 }, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    temp = await tempDir("heed-datasets-");
  });
  after(async () => {
    await temp.cleanup();
  });

  it("a YAML catalog with manifests: folders are read one level, robots.txt is asked first", async () => {
    const site = await startRouteSite({
      "/robots.txt": "User-agent: *\nDisallow:\n",
      "/data.txt": [
        "# our data",
        "- path: /top.csv",
        "  name: top",
        "  license: CC0-1.0",
        "  columns: {a: int, b: string}",
        "- path: census/",
        "  title: Census",
        "- path: gone/",
        "",
      ].join("\n"),
      "/census/data.txt": "- path: 2020.csv\n  rows: 2\n- path: deeper/\n",
    });
    try {
      const result = await heed(["datasets", `${site.origin}/`, "--json"]);
      assert.equal(result.code, 0, result.stderr);
      const objects = jsonLines(result.stdout);
      assert.deepEqual(
        objects.map((o) => [o.path, o.via, o.source]),
        [
          ["/top.csv", "data.txt", `${site.origin}/data.txt`],
          ["2020.csv", "manifest", `${site.origin}/census/data.txt`],
          ["deeper/", "manifest", `${site.origin}/census/data.txt`],
          ["gone/", "data.txt", `${site.origin}/data.txt`],
        ],
      );
      const top = objects[0] as Record<string, unknown>;
      assert.equal(top.license, "CC0-1.0");
      assert.deepEqual(top.columns, { a: "int", b: "string" });
      assert.equal(top.form, "yaml");
      assert.equal(top.line, 2);
      assert.deepEqual(top.urls, [`${site.origin}/top.csv`]);
      assert.equal(objects[1]?.rows, 2);
      assert.deepEqual(objects[1]?.urls, [`${site.origin}/census/2020.csv`]);
      assert.equal(site.paths()[0], "/robots.txt");
      assert.ok(!site.paths().includes("/census/deeper/data.txt"), "one level only");
      assert.ok(site.paths().includes("/gone/data.txt"));
      assert.match(result.stderr, /read as the YAML catalog form/);
      assert.match(
        result.stderr,
        /manifests are followed one level only \[manifest-not-followed\]/,
      );
      assert.match(result.stderr, /gone\/data\.txt: 404, no manifest/);
    } finally {
      await site.close();
    }
  });

  it("the table on a terminal names state, name, path, rows and where each came from", async () => {
    const site = await startRouteSite({
      "/data.txt": "- path: /a.csv\n  name: alpha\n  rows: 12\n  cols: 3\n  license: MIT\n",
    });
    try {
      const result = await heed(["datasets", site.origin]);
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.trimEnd().split("\n");
      assert.match(lines[0] ?? "", /^STATE\s+NAME\s+PATH\s+ROWS\s+COLS\s+LICENSE\s+TYPE\s+FROM$/);
      assert.match(lines[1] ?? "", /^fetchable\s+alpha\s+\/a\.csv\s+12\s+3\s+MIT\s+data\.txt$/);
      assert.match(result.stderr, /robots\.txt: 404/);
    } finally {
      await site.close();
    }
  });

  it("the draft form with two robots' records: each robot sees its own record, Disallow closes", async () => {
    const site = await startRouteSite({
      "/data.txt": [
        "User-agent: harvester",
        "Name: full dump",
        "License: CC0-1.0",
        "Allow: /dumps/all.csv",
        "",
        "User-agent: *",
        "Description: the open sample",
        "Disallow: /samples/draft.csv",
        "Allow: /samples/open.csv",
        "Allow: /samples/draft.csv",
        "",
      ].join("\n"),
      "/samples/open.csv": "a\n1\n",
      "/samples/draft.csv": "a\n2\n",
    });
    try {
      const harvester = await heed(["datasets", site.origin, "--agent", "Harvester", "--json"]);
      assert.equal(harvester.code, 0, harvester.stderr);
      const mine = jsonLines(harvester.stdout);
      assert.deepEqual(
        mine.map((o) => [o.path, o.name, o.license, o.agents, o.form]),
        [["/dumps/all.csv", "full dump", "CC0-1.0", ["harvester"], "draft"]],
      );
      assert.match(harvester.stderr, /draft form \(robots\.txt grammar\)/);

      const dir = join(temp.dir, "draft-download");
      const other = await heed([
        "datasets",
        site.origin,
        "--agent",
        "otherbot",
        "--json",
        "--download",
        dir,
      ]);
      assert.equal(other.code, 0, other.stderr);
      const theirs = byPath(jsonLines(other.stdout));
      assert.deepEqual([...theirs.keys()], ['"/samples/open.csv"', '"/samples/draft.csv"']);
      const draft = theirs.get('"/samples/draft.csv"') as Record<string, unknown>;
      assert.equal(draft.fetchable, false);
      assert.deepEqual(draft.closedBy, { line: 8, rule: "Disallow: /samples/draft.csv" });
      assert.equal(draft.description, "the open sample");
      assert.equal(theirs.get('"/samples/open.csv"')?.fetchable, true);
      assert.ok(site.paths().includes("/samples/open.csv"));
      assert.ok(
        !site.paths().includes("/samples/draft.csv"),
        "a closed dataset is never downloaded",
      );
    } finally {
      await site.close();
    }
  });

  it("a 404 site: says so, and lists sitemap entries and links that look like data, as guesses", async () => {
    const sitemap = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      "<url><loc>{origin}/about.html</loc></url>",
      "<url><loc>{origin}/files/prices.csv</loc></url>",
      "<url><loc>{origin}/files/archive.json.gz</loc></url>",
      "<url><loc>{origin}/export</loc><type>data</type></url>",
      "<url><loc>{origin}/news/</loc></url>",
      "</urlset>",
    ].join("\n");
    const site = await startRouteSite({
      "/robots.txt": "User-agent: *\nDisallow:\nSitemap: {origin}/maps/sitemap.xml\n",
      "/maps/sitemap.xml": (_req, res, origin) => {
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(sitemap.replaceAll("{origin}", origin));
      },
      "/": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(
          '<html><body><a href="/dl/trips.parquet">trips</a> <a href="/report.pdf">report</a>' +
            ' <a type="text/csv" href="/get?id=3">table</a> <a href="https://elsewhere.example/x.csv">x</a></body></html>',
        );
      },
      "/files/prices.csv": "p\n1\n",
    });
    try {
      const dir = join(temp.dir, "guesses");
      const result = await heed(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /404: the site has no \/data\.txt/);
      const objects = jsonLines(result.stdout);
      assert.deepEqual(
        objects.map((o) => [o.path, o.via, o.guess]),
        [
          ["/files/prices.csv", "sitemap", true],
          ["/files/archive.json.gz", "sitemap", true],
          ["/export", "sitemap", true],
          ["/dl/trips.parquet", "link", true],
          ["/get?id=3", "link", true],
        ],
      );
      assert.equal(objects[2]?.guessWhy, "the sitemap marks it <type>data</type>");
      assert.equal(objects[4]?.guessWhy, "declared as text/csv");
      assert.ok(!site.paths().includes("/files/prices.csv"), "guesses are listed, not downloaded");
    } finally {
      await site.close();
    }
  });

  it("seeds/002 §5.2: an HTML page answered for /data.txt is read as the 404 it stands for", async () => {
    const site = await startRouteSite({
      "/data.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<!doctype html><h1>What are you looking for?</h1>");
      },
      "/": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end('<a href="/d/x.csv">x</a>');
      },
    });
    try {
      const result = await heed(["datasets", site.origin, "--json"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /200 with an HTML page, not a data\.txt/);
      assert.deepEqual(
        jsonLines(result.stdout).map((o) => [o.path, o.guess]),
        [["/d/x.csv", true]],
      );
    } finally {
      await site.close();
    }
  });

  it("a catalog whose paths robots.txt forbids: listed as not fetchable with the line, never fetched", async () => {
    const site = await startRouteSite({
      "/robots.txt": "User-agent: *\nDisallow: /private/\n\nUser-agent: greedy\nDisallow: /\n",
      "/data.txt":
        "- path: /private/secret.csv\n- path: /open/b.csv\n- path: [/open/c.csv, /private/d.csv]\n",
      "/open/b.csv": "b\n1\n",
      "/open/c.csv": "c\n1\n",
      "/private/secret.csv": "s\n1\n",
      "/private/d.csv": "d\n1\n",
    });
    try {
      const dir = join(temp.dir, "forbidden");
      const result = await heed(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(result.code, 0, result.stderr);
      const objects = jsonLines(result.stdout);
      assert.deepEqual(
        objects.map((o) => o.fetchable),
        [false, true, true],
      );
      const files = objects[0]?.files as { url: string; fetchable: boolean; why: string }[];
      assert.match(files[0]?.why ?? "", /forbidden by robots\.txt line 2: Disallow: \/private\//);
      const mixed = objects[2]?.files as { fetchable: boolean }[];
      assert.deepEqual(
        mixed.map((f) => f.fetchable),
        [true, false],
      );
      const asked = site.paths();
      assert.ok(!asked.some((p) => p.startsWith("/private/")), `asked: ${asked.join(" ")}`);
      assert.ok(asked.includes("/open/b.csv") && asked.includes("/open/c.csv"));
      const host = new URL(site.origin).host;
      assert.equal(await readFile(join(dir, host, "open", "b.csv"), "utf8"), "b\n1\n");

      // A robot the robots.txt shuts out entirely does not even read /data.txt.
      const before = site.log.length;
      const greedy = await heed(["datasets", site.origin, "--agent", "greedy", "--json"]);
      assert.equal(greedy.code, 1);
      assert.match(
        greedy.stderr,
        /data\.txt: not fetched: forbidden by robots\.txt line 5: Disallow: \//,
      );
      assert.deepEqual(
        site.log.slice(before).map((r) => r.path),
        ["/robots.txt"],
      );
    } finally {
      await site.close();
    }
  });

  it("bad catalogs: malformed YAML, anchors and tags, a huge file, a path outside the site — each a diagnostic", async () => {
    const huge = "- path: /a.csv\n  description: " + "x".repeat(MAX_DATA_TXT_BYTES) + "\n";
    const site = await startRouteSite({
      "/data.txt":
        "- path: /ok.csv\n- path: https://elsewhere.example/x.csv\n- path: /y.csv\n  license: &l MIT\n- path: !!str /z.csv\n",
      "/broken/data.txt": "- path: /a.csv\n  name: [unclosed\n",
      "/huge/data.txt": huge,
    });
    try {
      const result = await heed(["datasets", site.origin, "--json"]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(
        jsonLines(result.stdout).map((o) => o.path),
        ["/ok.csv"],
      );
      const data = `${site.origin}/data.txt`;
      assert.match(
        result.stderr,
        new RegExp(`${data}:2: error: "https://elsewhere.example/x.csv" is outside the site`),
      );
      assert.match(
        result.stderr,
        new RegExp(`${data}:4: error: anchor &l: anchors are not allowed \\[yaml-anchor\\]`),
      );
      assert.match(
        result.stderr,
        new RegExp(
          `${data}:5: error: tag tag:yaml.org,2002:str: tags and custom types are not allowed \\[yaml-tag\\]`,
        ),
      );

      const broken = await heed(["lint", `${site.origin}/broken/data.txt`]);
      assert.equal(broken.code, 1);
      assert.match(broken.stdout, /broken\/data\.txt:\d+: error: YAML: .* \[yaml-syntax\]/);

      const big = await heed(["lint", `${site.origin}/huge/data.txt`]);
      assert.equal(big.code, 1);
      assert.match(
        big.stdout,
        new RegExp(
          `error: the file is over ${MAX_DATA_TXT_BYTES} bytes, the most a data\\.txt may have; not read \\[size-limit\\]`,
        ),
      );
    } finally {
      await site.close();
    }
  });

  it("downloads: paced by Crawl-delay, resumed with Range after a cut, size and SHA-256 recorded", async () => {
    const body = Buffer.alloc(256 * 1024);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7919) % 251;
    const sha = createHash("sha256").update(body).digest("hex");
    let cutNext = true;
    const site = await startRouteSite({
      "/robots.txt": "User-agent: *\nCrawl-delay: 0.3\nDisallow: /nothing\n",
      "/data.txt": "- path: /big.bin\n- path: /small.csv\n",
      "/small.csv": "a\n1\n",
      "/big.bin": (req, res) => {
        const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
        if (range !== null && req.headers["if-range"] === '"v1"') {
          const from = Number(range[1]);
          res.writeHead(206, {
            etag: '"v1"',
            "content-length": String(body.length - from),
            "content-range": `bytes ${from}-${body.length - 1}/${body.length}`,
          });
          res.end(body.subarray(from));
          return;
        }
        res.writeHead(200, { etag: '"v1"', "content-length": String(body.length) });
        if (cutNext) {
          cutNext = false;
          // Half the body, then the connection drops.
          res.write(body.subarray(0, body.length / 2), () => res.destroy());
          return;
        }
        res.end(body);
      },
    });
    try {
      const dir = join(temp.dir, "resume");
      const first = await heed(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(first.code, 1, "a cut download is a failure");
      assert.match(first.stderr, /big\.bin: failed: .*run again to resume/);
      const host = new URL(site.origin).host;
      const partName = createHash("sha256").update(`${site.origin}/big.bin`).digest("hex");
      const part = await stat(join(dir, ".heed", "parts", `${partName}.part`));
      assert.ok(part.size > 0 && part.size < body.length, `part of ${part.size} bytes`);

      const second = await heed(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(second.code, 0, second.stderr);
      const big = jsonLines(second.stdout)[0] as { downloads: Record<string, unknown>[] };
      assert.deepEqual(big.downloads[0], {
        url: `${site.origin}/big.bin`,
        file: `${host}/big.bin`,
        bytes: body.length,
        sha256: sha,
        how: "resumed",
      });
      const ranged = site.log
        .filter((r) => r.path === "/big.bin")
        .map((r) => r.headers.range ?? null);
      assert.deepEqual(ranged, [null, `bytes=${part.size}-`]);
      assert.ok((await readFile(join(dir, host, "big.bin"))).equals(body));
      const sums = await readFile(join(dir, ".heed", "SHA256SUMS"), "utf8");
      assert.ok(sums.includes(`${sha}  ${host}/big.bin\n`), sums);
      const records = JSON.parse(
        await readFile(join(dir, ".heed", "heed-downloads.json"), "utf8"),
      ) as {
        file: string;
        bytes: number;
      }[];
      assert.deepEqual(
        records.map((r) => [r.file, r.bytes]),
        [
          [`${host}/big.bin`, body.length],
          [`${host}/small.csv`, 4],
        ],
      );
      // Within each run (each starts with robots.txt), every request waited the site's
      // Crawl-delay after the answer before it, so arrivals are at least that far apart.
      const runs: RouteRequest[][] = [];
      for (const request of site.log) {
        if (request.path === "/robots.txt") runs.push([]);
        runs[runs.length - 1]?.push(request);
      }
      assert.equal(runs.length, 2);
      for (const run of runs) {
        for (let i = 1; i < run.length; i++) {
          const gap = (run[i] as RouteRequest).at - (run[i - 1] as RouteRequest).at;
          assert.ok(
            gap >= 300 - TOLERANCE_MS,
            `gap of ${gap} ms before ${(run[i] as RouteRequest).path}`,
          );
        }
      }
      // A third run finds the files whole and fetches nothing but robots.txt and the catalog.
      const before = site.log.length;
      const third = await heed(["datasets", site.origin, "--download", dir]);
      assert.equal(third.code, 0);
      assert.deepEqual(
        site.log.slice(before).map((r) => r.path),
        ["/robots.txt", "/data.txt"],
      );
    } finally {
      await site.close();
    }
  });

  it("an R pins board: the index a list, each pin's folder data.txt a mapping; both read, files downloaded", async () => {
    const site = await startRouteSite({
      "/data.txt":
        "- path: mtcars/\n  name: mtcars\n  description: Motor Trend cars\n  type: table\n",
      "/mtcars/data.txt":
        "path:\n- data.csv\n- extra.csv\ntype: table\nrows: 2\ncols: 2\ncolumns:\n  mpg: numeric\n  cyl: numeric\n",
      "/mtcars/data.csv": "mpg,cyl\n21,6\n",
      "/mtcars/extra.csv": "mpg,cyl\n22,4\n",
    });
    try {
      const dir = join(temp.dir, "pins");
      const result = await heed(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(result.code, 0, result.stderr);
      const [pin, ...rest] = jsonLines(result.stdout);
      assert.deepEqual(rest, []);
      assert.deepEqual(pin?.urls, [
        `${site.origin}/mtcars/data.csv`,
        `${site.origin}/mtcars/extra.csv`,
      ]);
      assert.equal(pin?.via, "manifest");
      // What the folder's data.txt does not say (name, description), the index says.
      assert.equal(pin?.name, "mtcars");
      assert.equal(pin?.description, "Motor Trend cars");
      assert.equal(pin?.rows, 2);
      assert.deepEqual(pin?.columns, { mpg: "numeric", cyl: "numeric" });
      assert.doesNotMatch(result.stderr, /expected a list of entries/);
      const host = new URL(site.origin).host;
      assert.equal(
        await readFile(join(dir, host, "mtcars", "extra.csv"), "utf8"),
        "mpg,cyl\n22,4\n",
      );
    } finally {
      await site.close();
    }
  });

  it("bad input: exit 2 with a message", async () => {
    const notUrl = await heed(["datasets", "not a url"]);
    assert.equal(notUrl.code, 2);
    assert.match(notUrl.stderr, /expected a site URL/);
    const badAgent = await heed(["datasets", "http://127.0.0.1:9/", "--agent", "@bot"]);
    assert.equal(badAgent.code, 2);
    assert.match(badAgent.stderr, /--agent: expected a name token/);
  });
});
