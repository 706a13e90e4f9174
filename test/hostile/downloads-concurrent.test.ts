// Two and three `heed datasets --download` runs into one folder at once (issue 14 §5, "loses
// nothing"): every run's records survive the others' (heed-downloads.json and SHA256SUMS are
// changed under a lock, read again and merged), and a URL two runs want is fetched by one while
// the other waits and then finds it present. Real CLI processes against real local servers.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tempDir } from "../helpers/crawl-harness.js";
import { type Route, startServer, text, type TestServer } from "../helpers/http-server.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

const sha = (body: string): string => createHash("sha256").update(body).digest("hex");
const FILES = 6;

/** A file answered after a short pause, so that the runs overlap. */
function slow(body: string): Route {
  return (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { "content-type": "text/csv", "content-length": Buffer.byteLength(body) });
      res.end(body);
    }, 60);
  };
}

function site(name: string): Promise<TestServer> {
  const routes: Record<string, Route> = {
    "/data.txt": text(
      Array.from({ length: FILES }, (_, i) => `- path: /${name}-${i}.csv\n`).join(""),
    ),
  };
  for (let i = 0; i < FILES; i++) routes[`/${name}-${i}.csv`] = slow(`${name},${i}\n`);
  return startServer(routes);
}

interface Downloaded {
  readonly file: string | null;
  readonly sha256?: string;
  readonly how?: string;
  readonly error?: string;
}

describe("hostile: several heed datasets --download runs into one folder at once", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let one: TestServer;
  let two: TestServer;
  before(async () => {
    temp = await tempDir("heed-dl-concurrent-");
    one = await site("one");
    two = await site("two");
  });
  after(async () => {
    await one.close();
    await two.close();
    await temp.cleanup();
  });

  it("keeps every run's records, and fetches a URL both want once", async () => {
    const dir = join(temp.dir, "shared");
    const args = (origin: string) => ["datasets", origin, "--json", "--download", dir];
    const runs = await Promise.all([
      runCli(args(one.origin), { timeoutMs: 60_000 }),
      runCli(args(two.origin), { timeoutMs: 60_000 }),
      runCli(args(one.origin), { timeoutMs: 60_000 }),
    ]);
    for (const run of runs) assert.equal(run.code, 0, run.stderr);

    const expected = new Map<string, string>();
    for (const [server, name] of [
      [one, "one"],
      [two, "two"],
    ] as const) {
      const host = new URL(server.origin).host;
      for (let i = 0; i < FILES; i++)
        expected.set(`${host}/${name}-${i}.csv`, sha(`${name},${i}\n`));
    }
    const records = JSON.parse(
      await readFile(join(dir, ".heed", "heed-downloads.json"), "utf8"),
    ) as { file: string; sha256: string }[];
    assert.deepEqual(
      new Map(records.map((r) => [r.file, r.sha256])),
      expected,
      "every file of every run is recorded",
    );
    const sums = (await readFile(join(dir, ".heed", "SHA256SUMS"), "utf8")).trim().split("\n");
    assert.deepEqual(sums.sort(), [...expected].map(([file, hash]) => `${hash}  ${file}`).sort());
    for (const [file, hash] of expected)
      assert.equal(sha(await readFile(join(dir, ...file.split("/")), "utf8")), hash);

    // The two runs of the same site: each file fetched by one, found present by the other.
    const howOf = (stdout: string) =>
      jsonLines(stdout).flatMap((o) => (o.downloads ?? []) as Downloaded[]);
    const first = howOf(runs[0]?.stdout ?? "");
    const third = howOf(runs[2]?.stdout ?? "");
    assert.equal(first.length, FILES);
    assert.equal(third.length, FILES);
    for (let i = 0; i < FILES; i++) {
      const pair = [first[i]?.how, third[i]?.how].sort();
      assert.deepEqual(pair, ["downloaded", "present"], `file ${i}: ${JSON.stringify(pair)}`);
    }
    const fetched = one.requests.filter((r) => r.endsWith(".csv")).length;
    assert.equal(fetched, FILES, "each of the site's files was fetched once");
    // Nothing of the runs is left behind in heed's folder: no temporary record, no lock.
    const left = await readdir(join(dir, ".heed"));
    assert.deepEqual(left.sort(), ["SHA256SUMS", "heed-downloads.json", "parts"]);
    assert.deepEqual(await readdir(join(dir, ".heed", "parts")), []);
  });
});
