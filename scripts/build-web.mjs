// Builds the page of `heed ui` into dist/src/web/assets/: the browser code (src/web/client/,
// with the protocol code it imports) bundled by esbuild into one file, and the page and its
// style copied beside it. Nothing is loaded from elsewhere at run time.
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "src", "web", "assets");
await mkdir(out, { recursive: true });
await build({
  entryPoints: [join(root, "src", "web", "client", "main.ts")],
  outfile: join(out, "app.js"),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
});
for (const file of ["index.html", "app.css"]) {
  await copyFile(join(root, "src", "web", "assets", file), join(out, file));
}
