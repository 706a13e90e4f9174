/**
 * An internal error's stack with each frame placed in heed's TypeScript source, for the report a
 * person sends: the bundled command line (scripts/build-cli.mjs) runs from a few large chunk
 * files whose lines mean nothing to a reader. Source maps are read only here, when heed has
 * already failed: turning them on for every run (`--enable-source-maps`) would read them at
 * start-up. A frame without a readable map stays as it is.
 */
import { readFileSync, statSync } from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import { fileURLToPath } from "node:url";

/** Distinct files whose maps are read for one stack (a stack shows 10 frames by default). */
export const MAX_MAPPED_FILES = 16;
/** The largest map read; heed's own are a few hundred KiB. */
export const MAX_MAP_BYTES = 16 * 1024 * 1024;

// "    at name (file:///…/chunk.js:12:34)" or "    at file:///…/chunk.js:12:34"
const FRAME = /(file:\/\/\/[^\s()]+?\.js):(\d+):(\d+)/;

/** The stack with every frame in a mapped file of heed's replaced by its source position. */
export function sourceStack(stack: string): string {
  const maps = new Map<string, SourceMap | null>();
  return stack
    .split("\n")
    .map((line) => {
      const frame = FRAME.exec(line);
      if (frame === null) return line;
      const [whole, url = "", row = "", column = ""] = frame;
      const map = mapOf(url, maps);
      if (map === null) return line;
      // Stack positions are 1-based; source map entries are 0-based.
      const entry = map.findEntry(Number(row) - 1, Number(column) - 1);
      if (!("originalSource" in entry)) return line;
      const source = new URL(entry.originalSource, url);
      const place = `${source.protocol === "file:" ? fileURLToPath(source) : source.href}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
      return line.replace(whole, place);
    })
    .join("\n");
}

function mapOf(url: string, maps: Map<string, SourceMap | null>): SourceMap | null {
  const known = maps.get(url);
  if (known !== undefined) return known;
  if (maps.size >= MAX_MAPPED_FILES) return null;
  const map = readMap(url);
  maps.set(url, map);
  return map;
}

/** The map tsc or esbuild wrote beside a file (`x.js.map`), or null. */
function readMap(url: string): SourceMap | null {
  try {
    const path = `${fileURLToPath(url)}.map`;
    if (statSync(path).size > MAX_MAP_BYTES) return null;
    const payload = JSON.parse(readFileSync(path, "utf8")) as SourceMapPayload;
    return new SourceMap(payload);
  } catch {
    // No map, or one that cannot be read: the frame is shown as Node gave it.
    return null;
  }
}
