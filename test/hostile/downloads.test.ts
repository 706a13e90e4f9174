// `heed datasets --download` against a hostile site and a tampered download folder (issue 14 §5):
// distinct URLs never share a file nor a reported hash, heed's records cannot be overwritten or
// planted by a dataset, no link inside the folder is followed (file, part or folder links), a
// file heed did not write is never overwritten, an endless body stops at --max-bytes, and the
// disk's free space is kept.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { discoverDatasets } from "../../src/crawler/datasets/discover.js";
import { DownloadFolder, downloadFile } from "../../src/crawler/datasets/download.js";
import { createHttpClient } from "../../src/net/http-client.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { type Route, startServer, text, type TestServer } from "../helpers/http-server.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

const sha = (body: string | Buffer): string => createHash("sha256").update(body).digest("hex");

interface Downloaded {
  readonly url: string;
  readonly file: string | null;
  readonly sha256?: string;
  readonly how?: string;
  readonly error?: string;
}

function downloadsOf(stdout: string): Downloaded[] {
  return jsonLines(stdout).flatMap((o) => (o.downloads ?? []) as Downloaded[]);
}

/** A body that never ends: 64 KiB chunks until the client goes, or 64 MiB as a bound. */
const endless: Route = (req, res) => {
  res.writeHead(200, { "content-type": "application/octet-stream" });
  const chunk = Buffer.alloc(64 * 1024, 7);
  let sent = 0;
  const pump = (): void => {
    while (sent < 64 * 1024 * 1024) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    res.end();
  };
  req.socket.on("close", () => res.destroy());
  pump();
};

describe("hostile: heed datasets --download", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    temp = await tempDir("heed-hostile-dl-");
  });
  after(async () => {
    await temp.cleanup();
  });

  it("/get?id=1 and /get?id=2 are two files, each with the hash of its own bytes", async () => {
    const site = await startServer({
      "/data.txt": text("- path: /get?id=1\n- path: /get?id=2\n"),
      "/get?id=1": text("first\n"),
      "/get?id=2": text("second, other bytes\n"),
    });
    try {
      const dir = join(temp.dir, "query");
      const run = await runCli(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(run.code, 0, run.stderr);
      const got = downloadsOf(run.stdout);
      const host = new URL(site.origin).host;
      assert.deepEqual(
        got.map((d) => [d.file, d.sha256, d.how]),
        [
          [`${host}/get?id=1`, sha("first\n"), "downloaded"],
          [`${host}/get?id=2`, sha("second, other bytes\n"), "downloaded"],
        ],
      );
      assert.equal(await readFile(join(dir, host, "get?id=2"), "utf8"), "second, other bytes\n");
    } finally {
      await site.close();
    }
  });

  it("datasets named like heed's records land in their own files; the records stay heed's", async () => {
    const planted = `${"0".repeat(64)}  ../../etc/passwd\n`;
    const site = await startServer({
      "/data.txt": text(
        "- path: /SHA256SUMS\n- path: /heed-downloads.json\n- path: /.heed/SHA256SUMS\n",
      ),
      "/SHA256SUMS": text(planted),
      "/heed-downloads.json": text('[{"url":"x","file":"../x","bytes":1,"sha256":"0","at":"0"}]'),
      "/.heed/SHA256SUMS": text(planted),
    });
    try {
      const dir = join(temp.dir, "records");
      const run = await runCli(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(run.code, 0, run.stderr);
      const host = new URL(site.origin).host;
      assert.equal(await readFile(join(dir, host, "SHA256SUMS"), "utf8"), planted);
      assert.equal(await readFile(join(dir, host, "%2Eheed", "SHA256SUMS"), "utf8"), planted);
      const sums = await readFile(join(dir, ".heed", "SHA256SUMS"), "utf8");
      assert.deepEqual(
        sums.trim().split("\n").sort(),
        [
          `${sha(planted)}  ${host}/%2Eheed/SHA256SUMS`,
          `${sha(planted)}  ${host}/SHA256SUMS`,
          `${sha('[{"url":"x","file":"../x","bytes":1,"sha256":"0","at":"0"}]')}  ${host}/heed-downloads.json`,
        ].sort(),
      );
      assert.ok(!sums.includes("etc/passwd"));
    } finally {
      await site.close();
    }
  });

  it("no link inside the folder is followed: a planted file, part or folder link writes nothing outside", async () => {
    const site = await startServer({
      "/data.txt": text("- path: /c.csv\n- path: /sub/d.csv\n"),
      "/c.csv": text("c from the site\n"),
      "/sub/d.csv": text("d from the site\n"),
    });
    try {
      const outside = join(temp.dir, "victim");
      await mkdir(outside, { recursive: true });
      const precious = join(outside, "precious.txt");
      await writeFile(precious, "keep me\n");
      const dir = join(temp.dir, "links");
      const host = new URL(site.origin).host;
      await mkdir(join(dir, host), { recursive: true });
      // The file itself, and the folder on its way, are links out of the folder.
      await symlink(precious, join(dir, host, "c.csv"));
      await symlink(outside, join(dir, host, "sub"));
      const run = await runCli(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(run.code, 1, "nothing was written, and that is a failure");
      const got = downloadsOf(run.stdout);
      assert.match(got[0]?.error ?? "", /c\.csv exists and is not a download of this URL/);
      assert.match(got[1]?.error ?? "", /symbolic link; heed does not follow links here/);
      assert.equal(await readFile(precious, "utf8"), "keep me\n");
      assert.deepEqual(await readdir(outside), ["precious.txt"]);

      // heed's own folder replaced by a link: refused before anything is fetched or written.
      const dir3 = join(temp.dir, "own-link");
      await mkdir(dir3);
      await symlink(outside, join(dir3, ".heed"));
      const refused = await runCli(["datasets", site.origin, "--download", dir3]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /--download: cannot use .*\.heed is a symbolic link/);
      assert.deepEqual(await readdir(outside), ["precious.txt"]);
    } finally {
      await site.close();
    }
  });

  it("a planted part link is replaced, not followed, when the download runs", async () => {
    const site = await startServer({
      "/data.txt": text("- path: /p.csv\n"),
      "/p.csv": text("p\n"),
    });
    try {
      const outside = join(temp.dir, "victim2.txt");
      await writeFile(outside, "keep me too\n");
      const dir = join(temp.dir, "part-link");
      await mkdir(join(dir, ".heed", "parts"), { recursive: true });
      const id = sha(`${site.origin}/p.csv`);
      await symlink(outside, join(dir, ".heed", "parts", `${id}.part`));
      await writeFile(
        join(dir, ".heed", "parts", `${id}.json`),
        JSON.stringify({ url: `${site.origin}/p.csv`, validator: null }),
      );
      const run = await runCli(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(await readFile(outside, "utf8"), "keep me too\n");
      const host = new URL(site.origin).host;
      assert.equal(await readFile(join(dir, host, "p.csv"), "utf8"), "p\n");
    } finally {
      await site.close();
    }
  });

  it("a file heed did not write, or one changed since, is never overwritten nor reported present", async () => {
    const site = await startServer({
      "/data.txt": text("- path: /m.csv\n"),
      "/m.csv": text("m\n"),
    });
    try {
      const dir = join(temp.dir, "mine");
      const host = new URL(site.origin).host;
      await mkdir(join(dir, host), { recursive: true });
      await writeFile(join(dir, host, "m.csv"), "the user's own file\n");
      const first = await runCli(["datasets", site.origin, "--json", "--download", dir]);
      assert.equal(first.code, 1);
      assert.match(downloadsOf(first.stdout)[0]?.error ?? "", /not overwritten/);
      assert.equal(await readFile(join(dir, host, "m.csv"), "utf8"), "the user's own file\n");

      const dir2 = join(temp.dir, "changed");
      const fresh = await runCli(["datasets", site.origin, "--json", "--download", dir2]);
      assert.equal(fresh.code, 0, fresh.stderr);
      await writeFile(join(dir2, host, "m.csv"), "edited\n");
      const again = await runCli(["datasets", site.origin, "--json", "--download", dir2]);
      assert.equal(again.code, 1);
      assert.match(downloadsOf(again.stdout)[0]?.error ?? "", /changed since it was downloaded/);
      assert.equal(await readFile(join(dir2, host, "m.csv"), "utf8"), "edited\n");
    } finally {
      await site.close();
    }
  });

  it("an endless body stops at --max-bytes, its part kept; a bad --max-bytes is exit 2", async () => {
    const site = await startServer({
      "/data.txt": text("- path: /endless\n"),
      "/endless": endless,
    });
    try {
      const dir = join(temp.dir, "endless");
      const run = await runCli([
        "datasets",
        site.origin,
        "--json",
        "--download",
        dir,
        "--max-bytes",
        "1M",
      ]);
      assert.equal(run.code, 1);
      assert.match(downloadsOf(run.stdout)[0]?.error ?? "", /stopped at 1048576 bytes/);
      const part = join(dir, ".heed", "parts", `${sha(`${site.origin}/endless`)}.part`);
      assert.ok((await stat(part)).size <= 1024 * 1024);
      const bad = await runCli(["datasets", site.origin, "--download", dir, "--max-bytes", "lots"]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--max-bytes: expected a size such as 500M/);
    } finally {
      await site.close();
    }
  });

  it("the disk's free space is kept: nothing is written past minFreeBytes", async () => {
    const site: TestServer = await startServer({
      "/data.txt": text("- path: /sized\n- path: /endless\n"),
      "/sized": text(Buffer.alloc(4096, 1), 200, { "content-length": "4096" }),
      "/endless": endless,
    });
    const client = createHttpClient({ userAgent: "t/1", allowPrivateAddresses: true });
    try {
      const dir = join(temp.dir, "disk");
      const folder = await DownloadFolder.open(dir);
      // More free space asked for than the disk has: every write would go below it.
      const minFreeBytes = (await folder.freeBytes()) + 1024 * 1024 * 1024;
      const { access, pacer } = await discoverDatasets(site.origin, { client, agent: "t" });
      const options = { dir, folder, client, access, pacer, minFreeBytes };
      const sized = await downloadFile(`${site.origin}/sized`, options);
      assert.match(sized.ok ? "" : sized.message, /would leave less than .* free on the disk/);
      const streamed = await downloadFile(`${site.origin}/endless`, options);
      assert.match(streamed.ok ? "" : streamed.message, /stopped at 0 bytes: less than/);
      const host = new URL(site.origin).host;
      await assert.rejects(stat(join(dir, host, "sized")));
    } finally {
      await client.close();
      await site.close();
    }
  });
});
