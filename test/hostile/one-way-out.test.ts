// DESIGN §2 "One way out": every outgoing request goes through net/'s guarded client. This test
// reads every source file outside src/net/ and fails on any way around it: a value import from
// undici (request, fetch, stream, Client, Pool, Agent, …), node:http(s) request functions,
// node:net/tls/http2 connecting functions, or a call of the global fetch.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const src = join(root, "src");

/** Client-side functions of node's modules that open connections, by module. */
const NODE_CLIENTS: ReadonlyArray<readonly [RegExp, ReadonlySet<string>]> = [
  [/^(node:)?https?$/, new Set(["request", "get", "Agent", "globalAgent"])],
  [/^(node:)?(net|tls)$/, new Set(["connect", "createConnection", "Socket", "TLSSocket"])],
  [/^(node:)?http2$/, new Set(["connect"])],
];

/** Folders of code bundled for the browser (heed ui's page), where `fetch` is the page's own. */
const BROWSER_CODE: readonly string[] = ["src/web/client/"];

async function sourceFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sourceFiles(path)));
    else if (/\.(ts|mts|cts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
      found.push(path);
  }
  return found;
}

/** Each way out of the guarded client in one file's text, as `line: what`. */
function waysOut(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (from === "undici" && clause !== undefined && !clause.isTypeOnly) {
        const values = namedValues(clause);
        if (clause.name !== undefined || values === null || values.length > 0)
          at(node, `imports ${values?.join(", ") ?? "all of"} from undici`);
      }
      const clients = NODE_CLIENTS.find(([module]) => module.test(from))?.[1];
      if (clients !== undefined && clause !== undefined && !clause.isTypeOnly) {
        const values = namedValues(clause);
        const bad = values === null ? ["all"] : values.filter((v) => clients.has(v));
        if (bad.length > 0 || clause.name !== undefined)
          at(node, `imports ${bad.join(", ") || "the default"} from ${from}`);
      }
      if (from === "undici" && clause === undefined) at(node, "imports undici for its effects");
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee) && callee.text === "fetch") at(node, "calls the global fetch");
      if (
        ts.isPropertyAccessExpression(callee) &&
        callee.name.text === "fetch" &&
        ts.isIdentifier(callee.expression) &&
        ["globalThis", "window", "global", "self"].includes(callee.expression.text)
      )
        at(node, `calls ${callee.expression.text}.fetch`);
      if (callee.kind === ts.SyntaxKind.ImportKeyword) {
        const [first] = node.arguments;
        if (first === undefined || !ts.isStringLiteral(first) || first.text === "undici")
          at(node, "imports a module at run time that may be undici");
      }
      if (ts.isIdentifier(callee) && callee.text === "require") at(node, "calls require");
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The value names an import clause brings in; null for a namespace import (everything). */
function namedValues(clause: ts.ImportClause): string[] | null {
  const bindings = clause.namedBindings;
  if (bindings === undefined) return [];
  if (ts.isNamespaceImport(bindings)) return null;
  return bindings.elements
    .filter((element) => !element.isTypeOnly)
    .map((element) => (element.propertyName ?? element.name).text);
}

describe("one way out to the network (DESIGN §2)", () => {
  it("no module outside src/net/ imports undici's request functions, node:http(s) clients or calls fetch", async () => {
    const offenders: string[] = [];
    const files = await sourceFiles(src);
    assert.ok(files.length > 50, `expected heed's sources under ${src}, found ${files.length}`);
    for (const path of files) {
      const rel = relative(root, path).split(sep).join("/");
      if (rel.startsWith("src/net/")) continue;
      for (const way of waysOut(path, await readFile(path, "utf8"))) {
        // Code that runs in the user's browser asks heed ui's own server, not the web.
        const browser = BROWSER_CODE.some((dir) => rel.startsWith(dir));
        if (browser && way.endsWith("calls the global fetch")) continue;
        offenders.push(`${rel}:${way}`);
      }
    }
    assert.deepEqual(offenders, [], `ways around net/'s guarded client:\n${offenders.join("\n")}`);
  });

  it("the scan finds each way out it looks for (so that the check above can fail)", () => {
    const cases: ReadonlyArray<readonly [string, number]> = [
      ['import { request } from "undici";', 1],
      ['import { fetch as f, type Dispatcher } from "undici";', 1],
      ['import { Agent, Pool, Client, stream } from "undici";', 1],
      ['import * as undici from "undici";', 1],
      ['import undici from "undici";', 1],
      ['import "undici";', 1],
      ['const u = await import("undici");', 1],
      ['import { get } from "node:https";', 1],
      ['import { request as r } from "http";', 1],
      ['import { connect } from "node:net";', 1],
      ['import * as tls from "node:tls";', 1],
      ['import { connect } from "node:http2";', 1],
      ['import { createServer, type Socket } from "node:net";', 0],
      ['import { isIP } from "node:net";', 0],
      ['await fetch("http://169.254.169.254/");', 1],
      ['await globalThis.fetch("http://x/");', 1],
      // Allowed: types, servers, methods of heed's own objects, text that only looks like code.
      ['import type { Dispatcher } from "undici";', 0],
      ['import { type Dispatcher } from "undici";', 0],
      ['import { createServer, type IncomingMessage } from "node:http";', 0],
      ["await this.fetch(request, socket);", 0],
      ['const page = `fetch("/comments.do?id=1")`;', 0],
    ];
    for (const [code, count] of cases)
      assert.equal(waysOut("case.ts", code).length, count, `for ${code}`);
  });
});
