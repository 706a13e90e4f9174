// The `heed` entry that npm links, dist/src/cli/bin.js, is a bundle (scripts/build-cli.mjs):
// it must behave exactly as tsc's modules do (process-main.js), from any working directory and
// through npm's symlink; a missing chunk and a crash inside a command must end as an internal
// error (exit 70) whose stack points into the TypeScript source, never a hang or silence.
import assert from "node:assert/strict";
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { PassThrough, Writable } from "node:stream";
import { type Command, CommanderError } from "commander";
import { buildProgram, commandOf } from "../../src/cli/main.js";
import { sourceStack } from "../../src/cli/source-stack.js";
import { VERSION } from "../../src/cli/version.js";
import { BIN, type CliResult, runCli } from "../helpers/run-cli.js";

const MODULES = fileURLToPath(new URL("../../src/cli/process-main.js", import.meta.url));
const DIST = fileURLToPath(new URL("../../", import.meta.url));
const ROOT = join(DIST, "..");
const CHUNKS = join(DIST, "src", "cli-chunks");
const SOURCE = join(ROOT, "src");
// tsc alone (no npm run build) leaves bin.js a plain module: nothing bundled to test then.
const BUNDLED = (await readFile(BIN, "utf8")).includes("cli-chunks/");
const NOT_BUNDLED = BUNDLED ? false : "dist/src/cli/bin.js is not the bundle (npm run build)";

/** Runs `node script args` in `cwd`, killed after 20 s. */
function run(script: string, args: readonly string[], cwd: string): Promise<CliResult> {
  return runCli(args, { script, cwd });
}

/**
 * A copy of the bundle laid out as an installed package (package.json beside dist/), inside
 * dist/ so that its dependencies still resolve from the project's node_modules.
 */
async function copyOfBundle(): Promise<{ root: string; bin: string; chunks: string }> {
  const root = await mkdtemp(join(DIST, ".entry-test-"));
  const cli = join(root, "dist", "src", "cli");
  await mkdir(cli, { recursive: true });
  await cp(join(ROOT, "package.json"), join(root, "package.json"));
  await cp(BIN, join(cli, "bin.js"));
  await cp(`${BIN}.map`, join(cli, "bin.js.map"));
  await cp(CHUNKS, join(root, "dist", "src", "cli-chunks"), { recursive: true });
  return { root, bin: join(cli, "bin.js"), chunks: join(root, "dist", "src", "cli-chunks") };
}

/** The chunk file (in `dir`) that holds `text`. */
async function chunkHolding(dir: string, text: string): Promise<string> {
  for (const name of await readdir(dir)) {
    if (!name.endsWith(".js")) continue;
    if ((await readFile(join(dir, name), "utf8")).includes(text)) return join(dir, name);
  }
  throw new Error(`no chunk holds ${text}`);
}

describe("the heed entry (bundle)", { timeout: 120_000, skip: NOT_BUNDLED }, () => {
  let dir: string;
  const copies: string[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-entry-"));
    await writeFile(join(dir, "robots.txt"), "User-agent: *\nDisallow: /private/\nAllow: /\n");
    await writeFile(join(dir, "one.tsv"), "robots.txt\tbot\thttp://example.com/private/x\n");
    await writeFile(join(dir, "bad.txt"), "User-agent: *\nDisalow: /x\n");
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    for (const copy of copies) await rm(copy, { recursive: true, force: true });
  });

  // Each answered from another working directory, with paths relative to it.
  const cases: readonly (readonly string[])[] = [
    ["--version"],
    ["-V"],
    ["--help"],
    [],
    ["nope"],
    ["help", "nope"],
    ["help", "rup", "inbox"],
    ["crawl", "--help"],
    ["check", "robots.txt", "--agent", "bot", "--url", "http://example.com/private/x"],
    ["check", "robots.txt", "--agent", "bot", "--url", "http://example.com/", "--json"],
    ["check", "robots.txt", "--agent", "bot", "--url", "::"],
    ["check", "robots.txt", "--dialect", "nope", "--url", "/"],
    ["check", "--batch", "one.tsv", "--json"],
    ["check", "--batch", "one.tsv", "--json", "--jobs", "1"],
    ["lint", "bad.txt"],
    ["lint", "missing.txt"],
    ["completion", "fish"],
  ];
  for (const args of cases) {
    it(`heed ${args.join(" ")}: the same as tsc's modules`, async () => {
      const [bundle, modules] = await Promise.all([run(BIN, args, dir), run(MODULES, args, dir)]);
      assert.deepEqual(bundle, modules);
      assert.doesNotMatch(bundle.stderr, /internal error/);
    });
  }

  it("--version names package.json's version", async () => {
    const r = await run(BIN, ["--version"], dir);
    assert.equal(r.stdout, `${VERSION}\n`);
    assert.notEqual(VERSION, "0.0.0");
  });

  it("runs through npm's symlink (node_modules/.bin/heed), from another directory", async () => {
    const bin = join(dir, "node_modules", ".bin");
    await mkdir(bin, { recursive: true });
    await symlink(BIN, join(bin, "heed"));
    const r = await run(join(bin, "heed"), ["check", "robots.txt", "--url", "/private/"], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^disallowed \/private\/ /);
    const first = (await readFile(BIN, "utf8")).split("\n", 1)[0];
    assert.equal(first, "#!/usr/bin/env node", "npm runs the linked file by its #! line");
  });

  it("a command whose chunk is missing: an internal error naming the file, other commands run", async () => {
    const copy = await copyOfBundle();
    copies.push(copy.root);
    const lint = await chunkHolding(copy.chunks, "async function runLint(");
    await rm(lint);
    const r = await run(copy.bin, ["lint", "bad.txt"], dir);
    assert.equal(r.code, 70, r.stderr);
    assert.match(r.stderr, /^heed: internal error: /);
    assert.ok(r.stderr.includes(lint), r.stderr);
    const version = await run(copy.bin, ["--version"], dir);
    assert.deepEqual(version, { code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  it("a chunk the entry itself needs is missing: Node's error naming it, no hang", async () => {
    const copy = await copyOfBundle();
    copies.push(copy.root);
    const errors = await chunkHolding(copy.chunks, "var CliError = class");
    await rm(errors);
    const r = await run(copy.bin, ["--version"], dir);
    assert.notEqual(r.code, 0);
    assert.equal(r.stdout, "");
    assert.ok(r.stderr.includes(errors), r.stderr);
  });

  it("a crash inside a command: exit 70, the stack in TypeScript source positions", async () => {
    const copy = await copyOfBundle();
    copies.push(copy.root);
    const lint = await chunkHolding(copy.chunks, "async function runLint(");
    const text = await readFile(lint, "utf8");
    // Planted on the function's own line, so that the map's lines stay where they were.
    const planted = text.replace(
      /(async function runLint\([^)]*\) \{)/,
      '$1 throw new Error("planted failure");',
    );
    assert.notEqual(planted, text);
    await writeFile(lint, planted);
    const r = await run(copy.bin, ["lint", "bad.txt"], dir);
    assert.equal(r.code, 70, r.stderr);
    assert.match(r.stderr, /^heed: internal error: Error: planted failure\n/);
    const frame = /^\s+at runLint \((.+):(\d+):\d+\)$/m.exec(r.stderr);
    assert.ok(frame !== null, r.stderr);
    const [, file = "", line = ""] = frame;
    // The map names the source beside the package, as it is beside the project's dist/.
    assert.equal(file, join(copy.root, "src", "cli", "commands", "lint.ts"));
    const source = join(SOURCE, "cli", "commands", "lint.ts");
    const lines = (await readFile(source, "utf8")).split("\n");
    // The throw sits after the body's "{": the signature's last line, a few below its first.
    const start = lines.findIndex((l) => l.startsWith("export async function runLint(")) + 1;
    assert.ok(start > 0);
    assert.ok(Number(line) >= start && Number(line) <= start + 6, `${line} vs ${start}`);
    assert.match(lines[Number(line) - 1] ?? "", /\{$/);
  });
});

describe("sourceStack", () => {
  it("leaves frames of files without a readable map as they are", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-stack-"));
    try {
      const js = join(dir, "x.js");
      await writeFile(js, "0\n");
      await writeFile(`${js}.map`, "{ not json");
      const stack = [
        "Error: boom",
        `    at f (file://${js}:1:1)`,
        "    at g (file:///nowhere/y.js:3:4)",
        "    at node:internal/process/task_queues:95:5",
      ].join("\n");
      assert.equal(sourceStack(stack), stack);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("places a frame of the bundle in its source file", { skip: NOT_BUNDLED }, async () => {
    // The bundle's own first line of main(): found through its map, as a crash's frame is.
    const text = await readFile(BIN, "utf8");
    const lines = text.split("\n");
    const row = lines.findIndex((l) => l.startsWith("async function main("));
    assert.ok(row >= 0);
    const mapped = sourceStack(`    at main (file://${BIN}:${row + 1}:1)`);
    assert.match(mapped, /^ {4}at main \((.+)\/src\/cli\/main\.ts:\d+:\d+\)$/);
    assert.ok((await stat(join(SOURCE, "cli", "main.ts"))).isFile());
  });
});

/** A program writing into a string; what it wrote is read back after each parse. */
function programOf(only?: string): { program: Command; written: () => string } {
  let text = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  const io = { stdout: sink, stderr: sink, stdin: new PassThrough(), cwd: "/" };
  return { program: buildProgram(io, () => {}, only), written: () => text };
}

/** Every command below `command`, with its path: ["sitemap", "build"]. */
function paths(command: Command, prefix: readonly string[] = []): (readonly string[])[] {
  return command.commands.flatMap((c) => {
    const path = [...prefix, c.name()];
    return [path, ...paths(c, path)];
  });
}

describe("a command built alone (heed check … builds only check)", () => {
  const whole = programOf().program;
  const names = whole.commands.map((c) => c.name());

  it("commandOf names the command only where building it alone changes nothing", () => {
    assert.equal(commandOf(["check", "robots.txt"]), "check");
    assert.equal(commandOf(["sitemap", "build"]), "sitemap");
    assert.equal(commandOf(["completion", "bash"]), undefined, "completion lists every command");
    for (const argv of [[], ["--help"], ["--version"], ["help", "check"], ["chek"], ["-V"]]) {
      assert.equal(commandOf(argv), undefined, argv.join(" "));
    }
    for (const name of names) if (name !== "completion") assert.equal(commandOf([name]), name);
  });

  for (const name of names.filter((n) => n !== "completion")) {
    it(`${name}: the same help, options and errors as in the whole program`, async () => {
      const alone = programOf(name).program;
      assert.deepEqual(
        alone.commands.map((c) => c.name()),
        [name],
      );
      const wholeCommands = paths(whole).filter((p) => p[0] === name);
      assert.deepEqual(paths(alone), wholeCommands);
      for (const path of wholeCommands) {
        const find = (program: Command): Command =>
          path.reduce<Command>(
            (c, word) => c.commands.find((s) => s.name() === word) ?? c,
            program,
          );
        assert.equal(find(alone).helpInformation(), find(whole).helpInformation(), path.join(" "));
      }
      // An option no command has: the same refusal, word for word.
      const refusals = await Promise.all(
        [programOf(name), programOf()].map(async ({ program, written }) => {
          await assert.rejects(
            program.parseAsync([name, "--no-such-option"], { from: "user" }),
            CommanderError,
          );
          return written();
        }),
      );
      assert.equal(refusals[0], refusals[1]);
      assert.match(refusals[0] ?? "", /unknown option '--no-such-option'/);
    });
  }
});
