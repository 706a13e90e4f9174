// `heed lint` on a /data.txt: picked by the file name or --kind, the form said, every finding
// with its line; robots.txt linting unchanged.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";

describe("heed lint on data.txt", { concurrency: true }, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    temp = await tempDir("heed-lint-data-");
  });
  after(async () => {
    await temp.cleanup();
  });

  it("a file named data.txt is read as one, and the form is said", async () => {
    const path = join(temp.dir, "data.txt");
    await writeFile(path, "- path: /a.csv\n  rows: lots\n- path: /b.csv\n  title: !x B\n");
    const result = await runCli(["lint", path]);
    assert.equal(result.code, 1);
    const lines = result.stdout.trimEnd().split("\n");
    assert.equal(
      lines[0],
      `${path}: info: read as the YAML catalog form: line 1 starts a YAML list or document [form]`,
    );
    assert.ok(
      lines.includes(
        `${path}:2: error: rows must be a whole number, got "lots"; ignored [bad-count]`,
      ),
      lines.join("\n"),
    );
    assert.ok(
      lines.includes(`${path}:4: error: tag !x: tags and custom types are not allowed [yaml-tag]`),
      lines.join("\n"),
    );
    assert.equal(lines.at(-1), "1 dataset; 3 errors, 0 warnings, 1 note");
  });

  it("--kind data on standard input, draft form, as JSON", async () => {
    const result = await runCli(["lint", "-", "--kind", "data", "--json"], {
      input: "User-agent: *\nName: x\nAllow: /a.csv\nAllow: /b.csv\n",
    });
    assert.equal(result.code, 0, result.stdout);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(report.kind, "data.txt");
    assert.equal(report.form, "draft");
    assert.equal(report.datasets, 2);
    assert.equal(report.records, 1);
  });

  it("--kind data-yaml forces the form; --kind robots keeps a data.txt-named file a robots.txt", async () => {
    const path = join(temp.dir, "other-data.txt");
    await writeFile(path, "User-agent: *\nAllow: /a.csv\n");
    const forced = await runCli(["lint", path, "--kind", "data-yaml", "--json"]);
    assert.equal((JSON.parse(forced.stdout) as { form: string }).form, "yaml");
    const robots = await runCli(["lint", path, "--kind", "robots", "--json"]);
    const report = JSON.parse(robots.stdout) as Record<string, unknown>;
    assert.equal(report.kind, undefined);
    assert.equal(report.dialect, "rfc9309");
  });

  it("a robots.txt is linted as before", async () => {
    const path = join(temp.dir, "robots.txt");
    await writeFile(path, "User-agent: *\nDisalow: /x\n");
    const result = await runCli(["lint", path, "--json"]);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(report.dialect, "rfc9309");
    assert.equal(report.kind, undefined);
  });

  it("an unknown --kind is bad input", async () => {
    const result = await runCli(["lint", "-", "--kind", "yaml"]);
    assert.equal(result.code, 2);
  });
});
