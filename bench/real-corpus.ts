/**
 * The real corpus: the robots.txt files and crawled URLs of
 * anubhavp28/robotstxt-parser-benchmark, copied into bench/real/ by
 * `npm run bench:fetch-corpus` (never committed: the files are not ours to redistribute).
 *
 *   bench/real/robotfiles/HOST   one robots.txt as served
 *   bench/real/links/HOST        URLs crawled on that site, one a line
 *
 * Every file is parsed; a file's queries are its links, each asked for one robot of
 * QUERY_AGENTS in turn (the same robots the web-shaped corpus asks for).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CorpusFile, Query } from "./corpus.js";

export const REAL_DIR = fileURLToPath(new URL("../../bench/real/", import.meta.url));
const QUERY_AGENTS = ["Googlebot", "bingbot", "Googlebot-Image", "NovaCrawler/1.4", "GPTBot"];
// A line of links/ longer than this is not a URL a crawler would ask about.
const MAX_URL = 8192;

/** The real corpus, or undefined when bench/real/ has not been filled. */
export function loadRealCorpus(): CorpusFile[] | undefined {
  const robotDir = join(REAL_DIR, "robotfiles");
  const linkDir = join(REAL_DIR, "links");
  if (!existsSync(robotDir) || !existsSync(linkDir)) return undefined;
  const names = readdirSync(robotDir).sort();
  let asked = 0;
  return names.map((name) => {
    const bytes = new Uint8Array(readFileSync(join(robotDir, name)));
    const linkFile = join(linkDir, name);
    const urls = existsSync(linkFile)
      ? readFileSync(linkFile, "utf8")
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => /^https?:\/\//.test(l) && l.length <= MAX_URL)
      : [];
    const origin = originOf(urls[0]) ?? `https://${name}`;
    const queries: Query[] = urls.map((url) => ({
      agent: QUERY_AGENTS[asked++ % QUERY_AGENTS.length] as string,
      url,
    }));
    return {
      name,
      kind: "real",
      origin,
      robotsUrl: `${origin}/robots.txt`,
      bytes,
      traits: [],
      queries,
    };
  });
}

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
