// A crawl of a local site that publishes usage preferences in every form heed reads: robots.txt
// Content-Usage and Content-Signal lines, the Content-Usage header, robots meta noai, TDMRep
// meta and header. Read from the crawl log (heed export) and the WARC files: pages refused for
// the crawl's purpose are fetched and not kept (archived without their bodies), and every page's
// preferences are recorded.
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { tempDir } from "../helpers/crawl-harness.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";
import { type Site, startSite } from "../helpers/synthetic-site.js";

function page(
  res: ServerResponse,
  body: string,
  headers: Record<string, string | string[]> = {},
): true {
  res.writeHead(200, { "content-type": "text/html", ...headers }).end(`<html>${body}</html>`);
  return true;
}

const ROBOTS = `User-agent: *
Allow: /
Content-Usage: /robots-no/ train-ai=n
Content-Signal: /signal-no/ ai-train=no, search=yes
`;

const PAGES: Record<string, [string, Record<string, string | string[]>]> = {
  "/robots-no/a.html": ["", {}],
  "/signal-no/a.html": ["", {}],
  "/header-no.html": ["", { "content-usage": "train-ai=n" }],
  // The refusal on a second header line, or on an X-Robots-Tag line after one naming a robot.
  "/header-second-line.html": ["", { "content-usage": ["train-ai=y", "train-ai=n"] }],
  "/tag-second-line.html": ["", { "x-robots-tag": ["otherbot: noindex", "noai"] }],
  "/meta-noai.html": ['<head><meta name="robots" content="noai, noimageai"></head>', {}],
  "/tdm-meta.html": ['<head><meta name="tdm-reservation" content="1"></head>', {}],
  "/tdm-header.html": ["", { "tdm-reservation": "1" }],
  // Two header lines: the reservation on the second one counts.
  "/tdm-header-second-line.html": ["", { "tdm-reservation": ["0", "1"] }],
  "/tdm-file/a.html": ["", {}],
  "/search-no.html": ["", { "content-usage": "search=n" }],
  "/ok.html": ["", { "content-usage": "train-ai=y" }],
  "/plain.html": ["", {}],
};
const REFUSED_FOR_TRAINING = [
  "/robots-no/a.html",
  "/signal-no/a.html",
  "/header-no.html",
  "/header-second-line.html",
  "/tag-second-line.html",
  "/meta-noai.html",
  "/tdm-meta.html",
  "/tdm-header.html",
  "/tdm-header-second-line.html",
  "/tdm-file/a.html",
];
const TDMREP = JSON.stringify([{ location: "/tdm-file/", "tdm-reservation": 1 }]);

async function warcText(dir: string): Promise<string> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(".warc.gz"));
  const parts = await Promise.all(
    names.map(async (n) => gunzipSync(await readFile(join(dir, n))).toString("latin1")),
  );
  return parts.join("");
}

describe(
  "crawl --purpose: usage preferences kept in the log and the WARC",
  { timeout: 90_000 },
  () => {
    let site: Site;
    let temp: Awaited<ReturnType<typeof tempDir>>;
    before(async () => {
      temp = await tempDir("heed-usage-crawl-");
      site = await startSite({
        pages: 1,
        robots: ROBOTS,
        route: (req, res) => {
          if (req.url === "/.well-known/tdmrep.json") {
            res.writeHead(200, { "content-type": "application/json" }).end(TDMREP);
            return true;
          }
          if (req.url === "/")
            return page(
              res,
              Object.keys(PAGES)
                .map((p) => `<a href="${p}">x</a>`)
                .join(" "),
            );
          const known = PAGES[req.url ?? ""];
          if (known === undefined) return false;
          return page(res, `${known[0]}<p>leaf</p>`, known[1]);
        },
      });
    });
    after(async () => {
      await site.close();
      await temp.cleanup();
    });

    async function crawlFor(purposes: readonly string[], name: string) {
      const store = join(temp.dir, `${name}.db`);
      const out = join(temp.dir, name);
      const result = await runCli(
        [
          "crawl",
          `${site.origin}/`,
          "--agent",
          "UsageBot",
          "--store",
          store,
          "--out",
          out,
          "--quiet",
          ...purposes.flatMap((p) => ["--purpose", p]),
        ],
        { timeoutMs: 60_000 },
      );
      assert.equal(result.code, 0, result.stderr);
      const exported = await runCli(["export", "--store", store, "--format", "jsonl"]);
      assert.equal(exported.code, 0, exported.stderr);
      const log = new Map(
        jsonLines(exported.stdout).map((r) => [new URL(String(r.url)).pathname, r]),
      );
      return { log, warc: await warcText(out), store };
    }

    it("--purpose train-ai: refused pages are fetched, logged with who refused, and not kept", async () => {
      const { log, warc, store } = await crawlFor(["train-ai"], "train");
      for (const path of REFUSED_FOR_TRAINING) {
        const record = log.get(path);
        assert.equal(record?.outcome, "fetched-usage-refused", path);
        assert.match(String(record?.detail), /^usage: train-ai refused by /, path);
        assert.equal(JSON.parse(String(record?.usage))["train-ai"].value, "disallowed", path);
        // Archived as asked, without its body: the note says why.
        assert.ok(warc.includes(`WARC-Target-URI: ${site.origin}${path}\r`), `${path} archived`);
      }
      assert.equal(
        warc.match(/body-withheld: usage preferences refuse the crawl's purpose/g)?.length,
        REFUSED_FOR_TRAINING.length,
      );
      assert.equal(
        warc.match(/WARC-Truncated: unspecified\r/g)?.length,
        REFUSED_FOR_TRAINING.length,
        "each refused page's response is stored without its body",
      );
      assert.match(String(log.get("/robots-no/a.html")?.detail), /robots\.txt line 3/);
      assert.match(String(log.get("/header-no.html")?.detail), /header content-usage/);
      assert.match(String(log.get("/tdm-meta.html")?.detail), /meta tdm-reservation/);
      assert.match(String(log.get("/tdm-file/a.html")?.detail), /tdmrep\.json rule 1/);
      assert.equal(log.get("/.well-known/tdmrep.json")?.outcome, "tdmrep");
      for (const path of ["/ok.html", "/search-no.html", "/plain.html", "/"]) {
        assert.equal(log.get(path)?.outcome, "fetched", path);
        assert.ok(warc.includes(`WARC-Target-URI: ${site.origin}${path}\r`), `${path} in the WARC`);
      }
      assert.equal(JSON.parse(String(log.get("/ok.html")?.usage))["train-ai"].value, "allowed");
      assert.equal(log.get("/plain.html")?.usage, null);
      assert.match(warc, /usage-preferences: \{"search":\{"value":"disallowed"/);

      const report = await runCli(["report", "--store", store]);
      assert.equal(report.code, 0, report.stderr);
      assert.match(
        report.stdout,
        new RegExp(`not kept for the crawl's purpose: ${REFUSED_FOR_TRAINING.length}\\b`),
      );
      const filtered = await runCli([
        "export",
        "--store",
        store,
        "--format",
        "jsonl",
        "--usage",
        "train-ai=disallowed",
      ]);
      assert.deepEqual(
        jsonLines(filtered.stdout)
          .map((r) => new URL(String(r.url)).pathname)
          .sort(),
        [...REFUSED_FOR_TRAINING].sort(),
      );
    });

    it("--purpose search keeps what training refuses and leaves out what search refuses", async () => {
      const asked = site.paths().length;
      const { log, warc } = await crawlFor(["search"], "search");
      // A crawl for search alone does not ask for tdmrep.json.
      assert.ok(!site.paths().slice(asked).includes("/.well-known/tdmrep.json"));
      assert.equal(log.get("/search-no.html")?.outcome, "fetched-usage-refused");
      for (const path of REFUSED_FOR_TRAINING) {
        assert.equal(log.get(path)?.outcome, "fetched", path);
        assert.ok(warc.includes(`WARC-Target-URI: ${site.origin}${path}\r`), path);
      }
    });

    it("without --purpose every page is kept and the preferences are still recorded", async () => {
      const { log } = await crawlFor([], "none");
      assert.equal(log.get("/header-no.html")?.outcome, "fetched");
      assert.equal(
        JSON.parse(String(log.get("/header-no.html")?.usage))["train-ai"].value,
        "disallowed",
      );
      const bad = await runCli(["crawl", `${site.origin}/`, "--agent", "x", "--purpose", "ads"]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--purpose: expected search, train-ai or ai-input, got "ads"/);
    });
  },
);
