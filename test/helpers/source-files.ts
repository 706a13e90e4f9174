/** The source tree as the structural tests read it: heed's own TypeScript files. */
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** src/ of the checkout, from a test built into dist/test/. */
export const SRC = new URL("../../../src/", import.meta.url).pathname;

/** Every `.ts` file under `dir` (declaration files aside), at any depth. */
export async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}
