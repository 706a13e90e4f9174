// Bundles the `heed` command line so that it starts faster: loading some seventy small ES modules
// one by one (resolve, read, compile each) was most of `heed check`'s start-up, and a bundle
// with code splitting loads the command line and then only the chunks of the command that runs.
//
// Run after tsc (npm run build). It writes, each with a source map beside it:
//   dist/src/cli/bin.js           the entry, over tsc's bin.js: package.json's bin stays put
//   dist/src/cli/batch/worker.js  the thread of check --batch --jobs, over tsc's worker.js
//   dist/src/cli-chunks/*.js      the commands and the code they share, loaded when needed
// Running tsc alone writes both entries back as plain modules, so that a stale bundle never
// runs: the chunks are reached only from the bundled entries.
//
// Only the command line is bundled. The library (`import "heed"` and the other exports) stays
// tsc's modules, and so does the agent sandbox's thread. Of the dependencies, only those named
// in BUNDLED_PACKAGES are bundled.
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const out = join(root, "dist", "src");
const CHUNKS = "cli-chunks";

/**
 * Dependencies bundled in: plain JavaScript that loads as many small CommonJS files, each read
 * and compiled one by one. commander: every command; undici (some hundred files, about 30 ms):
 * every command that fetches; yaml: /data.txt and datasets. The others stay outside: native
 * (better-sqlite3, @parcel/watcher), files found at run time (quickjs-emscripten's WebAssembly),
 * or only in commands that run for long anyway (ioredis, mail, HTML, WARC).
 */
const BUNDLED_PACKAGES = new Set(["commander", "undici", "yaml"]);

const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
const external = Object.keys(manifest.dependencies ?? {})
  .filter((name) => !BUNDLED_PACKAGES.has(name))
  .flatMap((name) => [name, `${name}/*`]);

/** A path below src/, with "/" on every system. */
const fromSrc = (path) => relative(src, path).split(sep).join("/");

/** Modules whose `import.meta.url` was rewritten (paths below src/). */
const locating = new Set();

/**
 * A module that finds a file beside itself (`new URL("../../package.json", import.meta.url)`)
 * must still find it once its code sits in a chunk: `import.meta.url` becomes the URL tsc's
 * output of that module has, written as "../" + its path below dist/src. That holds in an output
 * file one directory below dist/src (dist/src/cli/, dist/src/cli-chunks/): checked after the
 * build for every output that holds such a module.
 */
const moduleUrl = {
  name: "module-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      locating.add(fromSrc(args.path));
      const js = fromSrc(args.path).replace(/\.ts$/, ".js");
      return {
        contents: text.replaceAll(
          "import.meta.url",
          `new URL(${JSON.stringify(`../${js}`)}, import.meta.url).href`,
        ),
        loader: "ts",
      };
    });
  },
};

/** Modules with effects when loaded: the entries. */
const SIDE_EFFECTS = new Set(["cli/bin.ts", "cli/process-main.ts", "cli/batch/worker.ts"]);

/**
 * heed's other modules do nothing when loaded but declare: told so, esbuild leaves out the
 * chunks of modules that hold only types, each a file to load for nothing.
 */
const pureModules = {
  name: "pure-modules",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      if (!args.importer.startsWith(src)) return undefined;
      const path = join(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
      if (!existsSync(path) || SIDE_EFFECTS.has(fromSrc(path))) return undefined;
      return { path, sideEffects: false };
    });
  },
};

await rm(join(out, CHUNKS), { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    "cli/bin": join(src, "cli", "bin.ts"),
    "cli/batch/worker": join(src, "cli", "batch", "worker.ts"),
  },
  outdir: out,
  chunkNames: `${CHUNKS}/[name]-[hash]`,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  // The bundled packages are CommonJS: their require() calls of Node's own modules need a
  // require in ES modules.
  banner: {
    js: 'import { createRequire as __heedRequire } from "node:module"; const require = __heedRequire(import.meta.url);',
  },
  sourcemap: "linked",
  sourcesContent: false,
  tsconfig: join(root, "tsconfig.json"),
  plugins: [moduleUrl, pureModules],
  metafile: true,
  logLevel: "warning",
});

for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (file.endsWith(".map")) continue;
  const depth = relative(out, dirname(join(root, file))).split(sep).length;
  for (const input of Object.keys(output.inputs)) {
    const module = fromSrc(join(root, input));
    if (locating.has(module) && depth !== 1) {
      throw new Error(
        `${module} finds files beside itself, and its code landed in ${file}, not one directory below dist/src: its import.meta.url would be wrong (scripts/build-cli.mjs)`,
      );
    }
  }
}
