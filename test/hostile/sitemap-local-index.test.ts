// issue 27, row 4: `heed sitemap index.xml --follow` on a local index reads the sitemaps it
// lists only from inside the index's folder, judged on real paths. A `<loc>` whose last segment
// decodes to `../../etc/passwd`, a served-at URL whose rest does, and a symbolic link beside the
// index that points out of its folder are each refused with their reason (`sitemap-outside-
// folder`), and the refused file is never opened: its content appears in no message.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "../helpers/run-cli.js";

const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const SECRET = "root:x:0:0:secret-first-line";
const index = (locs: readonly string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${locs
    .map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`)
    .join("\n")}\n</sitemapindex>\n`;
const urlset = (locs: readonly string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n${locs
    .map((loc) => `<url><loc>${loc}</loc></url>`)
    .join("\n")}\n</urlset>\n`;

describe("a local sitemap index, --follow: its sitemaps only from its own folder", () => {
  let base = "";
  let site = "";
  before(async () => {
    base = await mkdtemp(join(tmpdir(), "heed-local-index-"));
    site = join(base, "site");
    await mkdir(join(site, "maps"), { recursive: true });
    // The file an attacker wants shown: outside the index's folder, one level up.
    await writeFile(join(base, "passwd"), `${SECRET}\n`);
    await writeFile(join(site, "a.xml"), urlset(["https://e.example/a"]));
    await writeFile(join(site, "maps", "b.xml"), urlset(["https://e.example/maps/b"]));
    await symlink(join(base, "passwd"), join(site, "link.xml"));
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("refuses ..%2F in a <loc>'s name and under the served folder; reads the rest", async () => {
    await writeFile(
      join(site, "index.xml"),
      index([
        "https://e.example/a.xml",
        "https://e.example/x/..%2Fpasswd",
        "https://e.example/..%2F..%2F..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
        "https://e.example/maps%2F..%2F..%2Fpasswd",
        "https://e.example/maps/b.xml",
      ]),
    );
    const result = await runCli(
      ["sitemap", join(site, "index.xml"), "--follow", "--url", "https://e.example/index.xml"],
      { timeoutMs: 30_000 },
    );
    assert.deepEqual(result.stdout.split("\n").filter(Boolean), [
      "https://e.example/a",
      "https://e.example/maps/b",
    ]);
    const refusals = result.stderr
      .split("\n")
      .filter((l) => l.includes("[sitemap-outside-folder]"));
    assert.equal(refusals.length, 3, result.stderr);
    for (const line of refusals)
      assert.match(line, /: error: .*: its name leads out of the index's folder .*; not read/);
    assert.ok(!result.stderr.includes("secret-first-line"), result.stderr);
    assert.ok(!result.stderr.includes("root:x"), result.stderr);
    assert.equal(result.code, 1);
  });

  it("refuses a symbolic link beside the index that leads out of its folder", async () => {
    await writeFile(join(site, "links.xml"), index(["https://e.example/link.xml"]));
    const result = await runCli(["sitemap", join(site, "links.xml"), "--follow"], {
      timeoutMs: 30_000,
    });
    assert.match(
      result.stderr,
      /link\.xml is a link to a file outside the index's folder .*; not read \[sitemap-outside-folder\]/,
    );
    assert.ok(!result.stderr.includes("secret-first-line"), result.stderr);
    assert.equal(result.stdout, "");
    assert.equal(result.code, 1);
  });

  it("without --url too: the last segment's name is not a way out", async () => {
    await writeFile(
      join(site, "index2.xml"),
      index(["https://e.example/..%2F..%2F..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd"]),
    );
    const result = await runCli(["sitemap", join(site, "index2.xml"), "--follow"], {
      timeoutMs: 30_000,
    });
    assert.match(result.stderr, /\[sitemap-outside-folder\]/);
    assert.ok(!result.stderr.includes("root:"), result.stderr);
    assert.equal(result.stdout, "");
    assert.equal(result.code, 1);
  });
});
