// The layers of the source tree, read from its import lines: protocol/ imports nothing else of
// heed; store/ and net/ stay below crawler/ and site/; crawler/ and site/ do not reach each
// other; no layer below the faces (cli/, web/) imports them, and web/ does not reach into cli/.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { it } from "node:test";
import { SRC, sourceFiles } from "./helpers/source-files.js";

const src = SRC;

/** Which top-level directories each one may import from. */
const MAY: Readonly<Record<string, readonly string[]>> = {
  protocol: ["protocol"],
  store: ["store", "protocol"],
  net: ["net", "protocol"],
  crawler: ["crawler", "net", "store", "protocol"],
  site: ["site", "net", "store", "protocol"],
  crawlee: ["crawlee", "crawler", "net", "store", "protocol"],
  web: ["web", "crawler", "site", "net", "store", "protocol"],
};

it("no import runs up a layer (web/ into cli/, site/ into crawler/ …)", async () => {
  const wrong: string[] = [];
  for (const file of await sourceFiles(src)) {
    const from = relative(src, file).split("/")[0] ?? "";
    const allowed = MAY[from];
    if (allowed === undefined) continue; // cli/ and the package's index sit on top
    const text = await readFile(file, "utf8");
    for (const m of text.matchAll(/^(?:import|export)[^;]*?from "(\.{1,2}\/[^"]+)"/gms)) {
      const target = relative(src, join(dirname(file), m[1] ?? "")).split("/")[0] ?? "";
      const line = `${relative(src, file)} → ${m[1]}`;
      if (!allowed.includes(target)) wrong.push(line);
    }
  }
  assert.deepEqual(wrong, []);
});
