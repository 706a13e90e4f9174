// Every docs/…#anchor that README, the docs pages, --help and messages cite names a page that
// ships and a heading on it; and no text a user sees cites the source documents or the design
// notes that do not ship.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { it } from "node:test";

const root = new URL("../../", import.meta.url).pathname;
const CITATION = /docs\/([a-z0-9-]+\.md)(?:#([a-z0-9-]+))?/g;

async function files(dir: string, ext: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path, ext)));
    else if (entry.name.endsWith(ext)) out.push(path);
  }
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to "-". */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

it("every docs/ citation names a page and a heading that exist", async () => {
  const pages = new Map<string, Set<string>>();
  for (const page of await files("docs", ".md")) {
    const text = await readFile(join(root, page), "utf8");
    const anchors = new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? "")));
    pages.set(page.slice("docs/".length), anchors);
  }
  const sources = ["README.md", ...(await files("docs", ".md")), ...(await files("src", ".ts"))];
  const broken: string[] = [];
  for (const source of sources) {
    const text = await readFile(join(root, source), "utf8");
    for (const m of text.matchAll(CITATION)) {
      const anchors = pages.get(m[1] ?? "");
      if (anchors === undefined || (m[2] !== undefined && !anchors.has(m[2])))
        broken.push(`${source}: ${m[0]}`);
    }
  }
  assert.deepEqual(broken, []);
});

/** Markdown links `[text](target)`, code spans and fenced blocks left out. */
function markdownLinks(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? "");
}

it("every relative link in README and docs/ names a file that ships, and a heading on it", async () => {
  const broken: string[] = [];
  for (const source of ["README.md", ...(await files("docs", ".md"))]) {
    const text = await readFile(join(root, source), "utf8");
    for (const target of markdownLinks(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      const [path = "", anchor] = target.split("#");
      const file = path === "" ? source : join(dirname(source), decodeURIComponent(path));
      if (!existsSync(join(root, file))) {
        broken.push(`${source}: ${target}`);
        continue;
      }
      if (anchor === undefined || !file.endsWith(".md")) continue;
      const headings = (await readFile(join(root, file), "utf8")).matchAll(/^#{1,6} (.+)$/gm);
      if (![...headings].some((m) => slug(m[1] ?? "") === anchor))
        broken.push(`${source}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

it("README and the docs index every docs page", async () => {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const missing = (await files("docs", ".md")).filter((page) => !readme.includes(`](${page})`));
  assert.deepEqual(missing, []);
});

it("README cites no seeds/ file and no DESIGN section", async () => {
  const readme = await readFile(join(root, "README.md"), "utf8");
  assert.doesNotMatch(readme, /seeds\/|DESIGN/);
});
