// Bundles the `heed` command line so that it starts faster: loading some seventy small ES modules
// one by one (resolve, read, compile each) was most of `heed check`'s start-up, and a bundle
// with code splitting loads the command line and then only the chunks of the command that runs.
//
// Run after tsc (npm run build). It writes:
//   dist/src/cli/bin.js        the entry, over tsc's bin.js: package.json's bin stays where it was
//   dist/src/cli-chunks/*.js   the commands and the code they share, each loaded when needed
// with a source map beside each. Running tsc alone rewrites bin.js as a plain module again, so
// a stale bundle can never run: the chunks are reached only from the bundled bin.js.
//
// Only the command line is bundled. The library (`import "heed"` and the other exports) stays
// tsc's modules, and so do the worker threads (check --batch --jobs, the agent sandbox), which
// start from their own files. Dependencies are not bundled, except commander, which every
// command loads.
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const out = join(root, "dist", "src");
const CHUNKS = "cli-chunks";

const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
const external = Object.keys(manifest.dependencies ?? {})
  .filter((name) => name !== "commander")
  .flatMap((name) => [name, `${name}/*`]);

/**
 * A module that finds a file beside itself (`new URL("./worker.js", import.meta.url)`) must
 * still find it once its code sits in a chunk: `import.meta.url` becomes the URL tsc's output of
 * that module has. Every output file (dist/src/cli/bin.js, dist/src/cli-chunks/*.js) is one
 * directory below dist/src, so "../" from any of them is dist/src.
 */
const moduleUrl = {
  name: "module-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const js = relative(src, args.path).split(sep).join("/").replace(/\.ts$/, ".js");
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

/**
 * heed's modules do nothing when loaded but declare (bin.ts and process-main.ts aside): told so,
 * esbuild leaves out the chunks of modules that hold only types, each a file to load for nothing.
 */
const pureModules = {
  name: "pure-modules",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      if (!args.importer.startsWith(src)) return undefined;
      const path = join(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
      if (!existsSync(path) || SIDE_EFFECTS.has(relative(src, path).split(sep).join("/"))) {
        return undefined;
      }
      return { path, sideEffects: false };
    });
  },
};
const SIDE_EFFECTS = new Set(["cli/bin.ts", "cli/process-main.ts"]);

await rm(join(out, CHUNKS), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { "cli/bin": join(src, "cli", "bin.ts") },
  outdir: out,
  chunkNames: `${CHUNKS}/[name]-[hash]`,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  // commander is CommonJS: its require() calls of Node's modules need a require in ES modules.
  banner: {
    js: 'import { createRequire as __heedRequire } from "node:module"; const require = __heedRequire(import.meta.url);',
  },
  sourcemap: "linked",
  sourcesContent: false,
  tsconfig: join(root, "tsconfig.json"),
  plugins: [moduleUrl, pureModules],
  logLevel: "warning",
});
