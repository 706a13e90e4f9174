// No function in src/crawler/ longer than 150 lines: a longer one does several things, and is
// split by what it does. Read with the TypeScript compiler's own parser, so that every kind
// of function counts (declarations, methods, constructors, accessors, arrows, expressions).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { it } from "node:test";
import { SRC, sourceFiles } from "./helpers/source-files.js";
import ts from "typescript";

/** The longest a function may be, its signature and closing brace included. */
const MAX_LINES = 150;

const src = SRC;
const crawler = join(src, "crawler");

/** Each function of a source text longer than `max` lines: `name (lines)` at its first line. */
export function longFunctions(path: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const name =
        "name" in node && node.name !== undefined ? node.name.getText(source) : "(anonymous)";
      if (lines > max) found.push(`${name} (${lines} lines) at line ${first + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

it(`no function in src/crawler/ is over ${MAX_LINES} lines`, async () => {
  const long: string[] = [];
  for (const file of await sourceFiles(crawler)) {
    const text = await readFile(file, "utf8");
    for (const found of longFunctions(file, text, MAX_LINES))
      long.push(`${relative(src, file)}: ${found}`);
  }
  assert.deepEqual(long, []);
});

it("the check finds a long function", () => {
  const body = Array.from({ length: MAX_LINES }, (_, i) => `  const a${i} = ${i};`).join("\n");
  const text = `class A {\n  m(): void {\n${body}\n  }\n  short(): void {}\n}\n`;
  assert.deepEqual(longFunctions("a.ts", text, MAX_LINES), [
    `m (${MAX_LINES + 2} lines) at line 2`,
  ]);
});
