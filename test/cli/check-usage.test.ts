// `heed check` with usage preferences: the `usage` object, --purpose, --header, --tdmrep, and the
// DESIGN §6 fields kept. Run as a child process on real files and a real HTTP server.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type TestServer, text } from "../helpers/http-server.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";
import { MAX_PREFERENCE_LENGTH, MAX_TDMREP_BYTES } from "../../src/protocol/usage/index.js";

// draft-ietf-aipref-attach-05 §3.4's example, restated, with Cloudflare's Content-Signal line.
const ROBOTS = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
Content-Signal: search=yes, ai-input=no
`;

describe("heed check: usage preferences", () => {
  let dir: string;
  let robots: string;
  let plain: string;
  let server: TestServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-check-usage-"));
    robots = join(dir, "robots.txt");
    plain = join(dir, "plain.txt");
    await writeFile(robots, ROBOTS);
    await writeFile(plain, "User-agent: *\nDisallow: /private/\n");
    await writeFile(join(dir, "tdmrep.json"), '[{"location":"/books/","tdm-reservation":1}]');
    server = await startServer({ "/robots.txt": text(ROBOTS) });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("--json: a usage object per answer, DESIGN §6 fields kept, line and source named", async () => {
    const r = await runCli([
      "check",
      robots,
      "--agent",
      "bot",
      "--json",
      "--url",
      "/test",
      "--url",
      "/ai-ok/test",
      "--url",
      "/never/test",
    ]);
    assert.equal(r.code, 1);
    const [test, ok, never] = jsonLines(r.stdout);
    for (const o of [test, ok, never])
      for (const f of ["allowed", "agent", "url", "dialect", "line", "rule"])
        assert.ok(f in (o ?? {}), f);
    const usage = (o: Record<string, unknown> | undefined) =>
      o?.usage as Record<string, { value: string; from: { line?: number; place: string } | null }>;
    assert.equal(usage(test)["train-ai"]?.value, "disallowed");
    assert.equal(usage(test)["train-ai"]?.from?.line, 4);
    assert.equal(usage(test)["train-ai"]?.from?.place, "robots.txt");
    assert.equal(usage(ok)["train-ai"]?.value, "allowed");
    assert.equal(usage(ok)["train-ai"]?.from?.line, 5);
    // attach §3.1: no preferences for what may not be crawled.
    assert.equal(never?.allowed, false);
    assert.equal(usage(never)["train-ai"]?.value, "unknown");
  });

  it("--purpose train-ai: allowed means may fetch and use; exit 1 when refused", async () => {
    const refused = await runCli([
      "check",
      robots,
      "--agent",
      "bot",
      "--url",
      "/test",
      "--purpose",
      "train-ai",
      "--json",
    ]);
    assert.equal(refused.code, 1);
    const [o] = jsonLines(refused.stdout);
    assert.equal(o?.allowed, false);
    assert.equal(o?.refusedFor, "train-ai");
    assert.equal(o?.reason, "rule");
    assert.equal(o?.line, 2);
    const ok = await runCli([
      "check",
      robots,
      "--agent",
      "bot",
      "--url",
      "/ai-ok/x",
      "--purpose",
      "train-ai",
    ]);
    assert.equal(ok.code, 0);
    assert.match(ok.stdout, /^allowed \/ai-ok\/x .*train-ai allowed \(Content-Usage line 5/);
    const text = await runCli([
      "check",
      robots,
      "--agent",
      "ExampleBot",
      "--url",
      "/x",
      "--purpose",
      "search,ai-input",
    ]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^disallowed \/x .*may not be used for ai-input/);
  });

  it("--header and --tdmrep are weighed with robots.txt; the restrictive one wins", async () => {
    const r = await runCli([
      "check",
      robots,
      "--agent",
      "ExampleBot",
      "--json",
      "--url",
      "/books/a",
      "--url",
      "/x",
      "--header",
      "Content-Usage: search=n",
      "--tdmrep",
      join(dir, "tdmrep.json"),
    ]);
    const [books, x] = jsonLines(r.stdout);
    const usage = (o: Record<string, unknown> | undefined) =>
      o?.usage as Record<string, { value: string; from: { place: string } | null }>;
    assert.equal(usage(books)["train-ai"]?.value, "disallowed");
    assert.equal(usage(books)["train-ai"]?.from?.place, "tdmrep.json");
    assert.equal(usage(x)["train-ai"]?.value, "allowed");
    assert.equal(usage(x).search?.value, "disallowed");
    assert.equal(usage(x).search?.from?.place, "header");
  });

  it("repeated --header lines: Content-Usage lines combine, X-Robots-Tag lines stand alone", async () => {
    const ask = async (...headers: string[]) => {
      const r = await runCli([
        "check",
        plain,
        "--agent",
        "ExampleBot",
        "--json",
        "--url",
        "/x",
        "--purpose",
        "train-ai",
        ...headers.flatMap((h) => ["--header", h]),
      ]);
      const [o] = jsonLines(r.stdout);
      return (o?.usage as Record<string, { value: string }>)["train-ai"]?.value;
    };
    // The second line's `noai` is for every robot, not for the one the first line names.
    assert.equal(await ask("X-Robots-Tag: otherbot: noindex", "X-Robots-Tag: noai"), "disallowed");
    assert.equal(await ask("X-Robots-Tag: otherbot: noindex, noai"), "unknown");
    assert.equal(await ask("Content-Usage: train-ai=y", "Content-Usage: train-ai=n"), "disallowed");
    assert.equal(await ask("Constructor: x", "Content-Usage: train-ai=n"), "disallowed");
    // A reservation on either tdm-reservation line reserves; two 0 lines do not.
    assert.equal(await ask("tdm-reservation: 0", "tdm-reservation: 1"), "disallowed");
    assert.equal(await ask("tdm-reservation: 1", "tdm-reservation: 0"), "disallowed");
    assert.equal(await ask("tdm-reservation: 0", "tdm-reservation: 0"), "allowed");
  });

  it("a statement over 8 KiB is not read, and the answer says so (text and JSON)", async () => {
    const long = `train-ai=n, ${Array.from({ length: 1200 }, (_, i) => `x${i}=y`).join(", ")}`;
    assert.ok(long.length > MAX_PREFERENCE_LENGTH);
    const file = join(dir, "long.txt");
    await writeFile(file, `User-agent: *\nAllow: /\nContent-Usage: /long/ ${long}\n`);
    const big = join(dir, "big-tdmrep.json");
    await writeFile(big, `[${'{"location":"/","tdm-reservation":1},'.repeat(20_000)}{}]`);
    const json = await runCli([
      "check",
      file,
      "--agent",
      "bot",
      "--json",
      "--url",
      "/long/a",
      "--url",
      "/short",
      "--header",
      `Content-Usage: ${long}`,
    ]);
    const [atLong, atShort] = jsonLines(json.stdout);
    const warningsOf = (o: Record<string, unknown> | undefined) => (o?.warnings ?? []) as string[];
    assert.equal(warningsOf(atLong).length, 2, json.stdout);
    assert.match(
      warningsOf(atLong)[0] ?? "",
      new RegExp(
        `^Content-Usage line 3: the statement is ${long.length} characters; more than ${MAX_PREFERENCE_LENGTH} is not read`,
      ),
    );
    assert.match(
      warningsOf(atLong)[1] ?? "",
      /^header content-usage: .* more than 8192 is not read/,
    );
    // The robots.txt line's path does not match /short: only the header is said there.
    assert.deepEqual(
      warningsOf(atShort).map((w) => w.split(":")[0]),
      ["header content-usage"],
    );
    // The DESIGN §6 fields are all still there.
    for (const f of ["allowed", "agent", "url", "dialect", "line", "rule"])
      assert.ok(f in (atLong ?? {}), f);

    const text = await runCli(["check", file, "--agent", "bot", "--url", "/long/a"]);
    assert.match(
      text.stdout,
      /; usage warning: Content-Usage line 3: the statement is \d+ characters; more than 8192 is not read/,
    );
    const tdm = await runCli([
      "check",
      file,
      "--agent",
      "bot",
      "--json",
      "--url",
      "/short",
      "--tdmrep",
      big,
    ]);
    assert.match(
      warningsOf(jsonLines(tdm.stdout)[0]).join("\n"),
      new RegExp(
        `--tdmrep .*big-tdmrep\\.json: tdmrep\\.json is over ${MAX_TDMREP_BYTES} bytes; more is not read`,
      ),
    );
    // Under the limit, nothing to say: no warnings field.
    const fine = await runCli(["check", robots, "--agent", "bot", "--json", "--url", "/test"]);
    assert.equal("warnings" in (jsonLines(fine.stdout)[0] ?? {}), false);
  });

  it("a file without usage lines answers as before: no usage field", async () => {
    const r = await runCli(["check", plain, "--agent", "bot", "--json", "--url", "/x"]);
    const [o] = jsonLines(r.stdout);
    assert.equal("usage" in (o ?? {}), false);
    const asked = await runCli([
      "check",
      plain,
      "--agent",
      "bot",
      "--json",
      "--url",
      "/x",
      "--purpose",
      "train-ai",
    ]);
    assert.equal(asked.code, 0);
    assert.equal(
      (jsonLines(asked.stdout)[0]?.usage as Record<string, { value: string }>)["train-ai"]?.value,
      "unknown",
    );
  });

  it("a robots.txt fetched over HTTP, and --queries", async () => {
    const queries = join(dir, "queries.txt");
    await writeFile(queries, "bot\t/test\nbot\t/ai-ok/x\n");
    const r = await runCli([
      "check",
      `${server.origin}/robots.txt`,
      "--queries",
      queries,
      "--purpose",
      "train-ai",
      "--json",
    ]);
    const lines = jsonLines(r.stdout);
    assert.deepEqual(
      lines.map((o) => o.allowed),
      [false, true],
    );
  });

  it("bad input: exit 2 with a message", async () => {
    const bad = await runCli([
      "check",
      robots,
      "--agent",
      "bot",
      "--url",
      "/x",
      "--purpose",
      "spam",
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--purpose: expected search, train-ai or ai-input, got "spam"/);
    const header = await runCli([
      "check",
      robots,
      "--agent",
      "bot",
      "--url",
      "/x",
      "--header",
      "nocolon",
    ]);
    assert.equal(header.code, 2);
    const batch = await runCli(["check", "--batch", robots, "--purpose", "train-ai"]);
    assert.equal(batch.code, 2);
    assert.match(batch.stderr, /not --batch/);
  });
});
