// Two and three `heed datasets --download` runs into one folder at once (issue 14 §5, "loses
// nothing"): every run's records survive the others' (heed-downloads.json and SHA256SUMS are
// changed under a lock, read again and merged), and a URL two runs want is fetched by one while
// the other waits and then finds it present. A folder of heed's older layout is refused with what
// to do. Real CLI processes against real local servers.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
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

describe("a download folder of heed's older layout", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let server: TestServer;
  before(async () => {
    temp = await tempDir("heed-dl-old-");
    server = await site("old");
  });
  after(async () => {
    await server.close();
    await temp.cleanup();
  });

  it("is refused with what to do, and nothing in it is touched; moved away, the run downloads", async () => {
    const dir = join(temp.dir, "old");
    await mkdir(dir, { recursive: true });
    const record = [
      {
        url: `${server.origin}/old-0.csv`,
        file: "old-0.csv",
        bytes: 6,
        sha256: sha("old,0\n"),
        at: "2025-01-01T00:00:00.000Z",
      },
    ];
    const oldRecords = `${JSON.stringify(record, null, 2)}\n`;
    await writeFile(join(dir, "heed-downloads.json"), oldRecords);
    await writeFile(join(dir, "SHA256SUMS"), `${sha("old,0\n")}  old-0.csv\n`);
    await writeFile(join(dir, "old-0.csv"), "old,0\n");
    const before = (await readdir(dir)).sort();

    const refused = await runCli(["datasets", server.origin, "--json", "--download", dir]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /older layout/);
    assert.match(refused.stderr, /DIR\/HOST\/PATH/);
    assert.match(refused.stderr, /mv .*heed-downloads\.json .*SHA256SUMS/);
    assert.deepEqual((await readdir(dir)).sort(), before, "nothing was added or changed");
    assert.equal(await readFile(join(dir, "heed-downloads.json"), "utf8"), oldRecords);
    assert.equal(server.requests.filter((r) => r.endsWith(".csv")).length, 0);

    // Doing what the message says.
    await mkdir(join(dir, "old-records"));
    await rename(join(dir, "heed-downloads.json"), join(dir, "old-records", "heed-downloads.json"));
    await rename(join(dir, "SHA256SUMS"), join(dir, "old-records", "SHA256SUMS"));
    const run = await runCli(["datasets", server.origin, "--json", "--download", dir], {
      timeoutMs: 60_000,
    });
    assert.equal(run.code, 0, run.stderr);
    const host = new URL(server.origin).host;
    assert.equal(await readFile(join(dir, host, "old-0.csv"), "utf8"), "old,0\n");
    assert.equal(await readFile(join(dir, "old-0.csv"), "utf8"), "old,0\n", "the old file stays");
  });
});
