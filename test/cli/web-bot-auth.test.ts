// The "done when", from the built CLI: a fresh key, its directory served by one
// `heed serve --bot-keys`, a site served by `heed serve --verify-bots --require-signature '/*'
// --allow-private`; the signed crawl fetches every page, the unsigned one is refused with 401
// and reported; `heed verify-request` checks a recorded request. The private key appears in no
// output, log, report, WARC file or error.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { originOf, runCli, spawnCli } from "../helpers/run-cli.js";

/** `heed crawl` of the site into `store`, quiet, with a JSON summary. */
function crawlArgs(origin: string, store: string, ...more: string[]): string[] {
  return [
    "crawl",
    `${origin}/`,
    "--agent",
    "heedbot",
    "--store",
    store,
    "--quiet",
    "--json",
    ...more,
  ];
}

describe("heed keys, serve --bot-keys, serve --verify-bots, crawl --sign", () => {
  let dir: string;
  let secret: string;
  let thumbprint: string;
  const seen: string[] = [];
  let agent: ReturnType<typeof spawnCli>;
  let site: ReturnType<typeof spawnCli>;
  let agentOrigin: string;
  let siteOrigin: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-wba-cli-"));
    await mkdir(join(dir, "site"));
    await mkdir(join(dir, "agent"));
    await writeFile(join(dir, "site", "robots.txt"), "User-agent: *\nAllow: /\n");
    await writeFile(
      join(dir, "site", "index.html"),
      '<a href="/a.html">a</a> <a href="/b.html">b</a>',
    );
    await writeFile(join(dir, "site", "a.html"), "a");
    await writeFile(join(dir, "site", "b.html"), "b");
    const made = await runCli(["keys", "new", "bot.jwk"], { cwd: dir });
    assert.equal(made.code, 0, made.stderr);
    thumbprint = made.stdout.trim();
    assert.match(thumbprint, /^[A-Za-z0-9_-]{43}$/);
    secret = (JSON.parse(await readFile(join(dir, "bot.jwk"), "utf8")) as { d: string }).d;
    seen.push(made.stdout, made.stderr);
    const directory = await runCli(["keys", "directory", "bot.jwk", "--out", "directory.json"], {
      cwd: dir,
    });
    assert.equal(directory.code, 0, directory.stderr);
    assert.equal(directory.stdout.trim(), thumbprint);
    seen.push(
      directory.stdout,
      directory.stderr,
      await readFile(join(dir, "directory.json"), "utf8"),
    );
    agent = spawnCli(["serve", "agent", "--port", "0", "--bot-keys", "directory.json"], {
      cwd: dir,
      timeoutMs: 90_000,
    });
    site = spawnCli(
      [
        "serve",
        "site",
        "--port",
        "0",
        "--verify-bots",
        "--require-signature",
        "/*",
        "--allow-private",
      ],
      { cwd: dir, timeoutMs: 90_000 },
    );
    [agentOrigin, siteOrigin] = await Promise.all([originOf(agent.child), originOf(site.child)]);
  });

  after(async () => {
    agent.child.kill("SIGTERM");
    site.child.kill("SIGTERM");
    await Promise.all([agent.done, site.done]);
    await rm(dir, { recursive: true, force: true });
  });

  it("keys new writes a private JWK of mode 0600 and never overwrites it", async () => {
    assert.equal((await stat(join(dir, "bot.jwk"))).mode & 0o777, 0o600);
    const again = await runCli(["keys", "new", "bot.jwk"], { cwd: dir });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /exists already/);
  });

  it("a signed crawl fetches every page; the log names the key", async () => {
    const signing = ["--sign", "bot.jwk", "--signature-agent", `${agentOrigin}/`];
    const crawl = await runCli(crawlArgs(siteOrigin, "signed.db", "--out", "warc", ...signing), {
      cwd: dir,
      timeoutMs: 60_000,
    });
    assert.equal(crawl.code, 0, crawl.stderr);
    const summary = JSON.parse(crawl.stdout) as { fetched: number; skipped: number };
    assert.equal(summary.fetched, 3);
    assert.equal(summary.skipped, 0);
    const report = await runCli(["report", "--store", "signed.db"], { cwd: dir });
    seen.push(crawl.stdout, crawl.stderr, report.stdout, report.stderr);
    for (const name of await readdir(join(dir, "warc"))) {
      seen.push(gunzipSync(await readFile(join(dir, "warc", name))).toString("latin1"));
    }
  });

  it("the same crawl unsigned is refused with 401, and the report says so", async () => {
    const crawl = await runCli(crawlArgs(siteOrigin, "unsigned.db"), {
      cwd: dir,
      timeoutMs: 60_000,
    });
    assert.equal(crawl.code, 0, crawl.stderr);
    assert.equal((JSON.parse(crawl.stdout) as { fetched: number }).fetched, 0);
    const report = await runCli(["report", "--store", "unsigned.db"], { cwd: dir });
    assert.match(report.stdout, /robots\.txt HTTP 401/);
  });

  it("check --sign fetches robots.txt signed; unsigned it meets the 401", async () => {
    const args = ["check", `${siteOrigin}/robots.txt`, "--agent", "heedbot", "--url", "/"];
    const signed = await runCli(
      [...args, "--sign", "bot.jwk", "--signature-agent", `${agentOrigin}/`],
      {
        cwd: dir,
      },
    );
    assert.equal(signed.code, 0, signed.stdout + signed.stderr);
    assert.match(signed.stdout, /^allowed \//);
    const unsigned = await runCli(args, { cwd: dir });
    assert.equal(unsigned.code, 1);
    assert.match(unsigned.stdout, /401/);
    seen.push(signed.stdout, signed.stderr);
  });

  it("verify-request checks a recorded request: verified, then refused once expired", async () => {
    // A request signed by heed, recorded as a server received it.
    const { BotKey } = await import("../../src/net/bot-key.js");
    const { createRequestSigner } = await import("../../src/net/request-signer.js");
    const key = await BotKey.load(join(dir, "bot.jwk"));
    const fields = createRequestSigner({ key, signatureAgent: `${agentOrigin}/` }).fieldsFor(
      "GET",
      "http://shop.example/item?id=1",
    );
    const recorded = [
      "GET /item?id=1 HTTP/1.1",
      "Host: shop.example",
      ...Object.entries(fields).map(([name, value]) => `${name}: ${value}`),
      "",
      "",
    ].join("\r\n");
    await writeFile(join(dir, "request.txt"), recorded);
    const ok = await runCli(["verify-request", "request.txt", "--allow-private"], { cwd: dir });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, new RegExp(`^verified ${thumbprint}`));
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const late = await runCli(
      ["verify-request", "request.txt", "--at", later, "--key", "bot.jwk"],
      {
        cwd: dir,
      },
    );
    assert.equal(late.code, 1);
    assert.match(late.stdout, /^refused expired/);
    seen.push(ok.stdout, ok.stderr, late.stdout, late.stderr);
  });

  it("a bad key file is a clear error that does not quote it", async () => {
    await writeFile(join(dir, "broken.jwk"), `{"kty":"OKP","crv":"Ed25519","d":"${secret}",`);
    const crawl = await runCli(
      ["crawl", `${siteOrigin}/`, "--agent", "heedbot", "--store", "x.db", "--sign", "broken.jwk"],
      { cwd: dir },
    );
    assert.equal(crawl.code, 2);
    assert.match(crawl.stderr, /--sign: .*broken\.jwk: not JSON/);
    const serve = await runCli(["serve", "site", "--port", "0", "--bot-keys", "bot.jwk"], {
      cwd: dir,
    });
    assert.equal(serve.code, 2);
    seen.push(crawl.stdout, crawl.stderr, serve.stdout, serve.stderr);
  });

  it("the private key is in no output, log, report or WARC file", async () => {
    agent.child.kill("SIGTERM");
    site.child.kill("SIGTERM");
    const [a, s] = await Promise.all([agent.done, site.done]);
    assert.match(s.stderr, new RegExp(`GET /a\\.html 200 \\d+ bot=${thumbprint}`));
    assert.match(s.stderr, /GET \/robots\.txt 401 \d+ unsigned/);
    seen.push(a.stdout, a.stderr, s.stdout, s.stderr);
    assert.ok(seen.join("").includes(thumbprint));
    for (const text of seen) assert.ok(!text.includes(secret), "the private key leaked");
  });
});

describe("heed serve's Web Bot Auth flags that need --verify-bots", () => {
  it("--require-signed-directory and --authority need it; a bad --authority is named", async () => {
    const lone = await runCli(["serve", ".", "--port", "0", "--require-signed-directory"]);
    assert.equal(lone.code, 2);
    assert.match(lone.stderr, /--require-signed-directory needs --verify-bots/);
    const authority = await runCli(["serve", ".", "--port", "0", "--authority", "a.example"]);
    assert.equal(authority.code, 2);
    assert.match(authority.stderr, /--authority needs --verify-bots/);
    const bad = await runCli(["serve", ".", "--verify-bots", "--authority", "a.example/x"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--authority: expected HOST or HOST:PORT.*"a\.example\/x"/);
  });
});
