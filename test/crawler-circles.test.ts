// No import circle in src/crawler/: crawler.ts composes the stages (src/crawler/stages/), and
// each stage depends on the run's context and the store, never on the crawl that composes it.
// Type-only imports count: a circle of types is still a circle of concepts.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { it } from "node:test";
import { SRC, sourceFiles } from "./helpers/source-files.js";

const src = SRC;
const crawler = join(src, "crawler");

/** Each file of src/crawler/ and the files of src/crawler/ it imports. */
async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await sourceFiles(crawler)) {
    const text = await readFile(file, "utf8");
    const targets: string[] = [];
    for (const m of text.matchAll(/^(?:import|export)[^;]*?from "(\.{1,2}\/[^"]+)"/gms)) {
      const target = resolve(dirname(file), (m[1] ?? "").replace(/\.js$/, ".ts"));
      if (target.startsWith(`${crawler}/`)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The first circle found, as the files around it; null when there is none. */
export function findCircle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found !== null) return found;
      }
    }
    path.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of graph.keys()) {
    if (state.get(node) !== undefined) continue;
    const found = visit(node);
    if (found !== null) return found;
  }
  return null;
}

it("finds a circle where there is one (the check itself)", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a"]],
    ["d", ["a"]],
  ]);
  assert.deepEqual(findCircle(graph), ["a", "b", "c", "a"]);
  assert.equal(
    findCircle(
      new Map([
        ["a", ["b"]],
        ["b", []],
      ]),
    ),
    null,
  );
});

it("src/crawler/ has no import circle (crawler.ts and its stages included)", async () => {
  const circle = findCircle(await importGraph());
  assert.equal(circle?.map((file) => relative(src, file)).join(" → ") ?? null, null);
});
