/**
 * The robots-parser side of the batch benchmark, run as a child process as `heed check
 * --batch` is: reads `robots-file<TAB>agent<TAB>url` lines, parses each file once while it is
 * in use (the same bounded cache idea), answers each query and writes one JSON line a query.
 *
 *   node dist/bench/rp-batch.js BATCH_FILE > /dev/null
 */
import { readFileSync, writeSync } from "node:fs";
import robotsParser from "robots-parser";

const batch = process.argv[2];
if (batch === undefined) throw new Error("usage: rp-batch.js BATCH_FILE");
type Robot = ReturnType<typeof robotsParser>;
const cache = new Map<string, Robot>();
let out = "";
const text = readFileSync(batch, "utf8");
let start = 0;
while (start < text.length) {
  let end = text.indexOf("\n", start);
  if (end < 0) end = text.length;
  const line = text.slice(start, end);
  start = end + 1;
  const [file = "", agent = "", url = ""] = line.split("\t");
  if (file === "") continue;
  let robot = cache.get(file);
  if (robot === undefined) {
    const origin = new URL(url).origin;
    robot = robotsParser(`${origin}/robots.txt`, readFileSync(file, "utf8"));
    if (cache.size >= 4096) cache.clear();
    cache.set(file, robot);
  }
  out += `${JSON.stringify({ allowed: robot.isAllowed(url, agent) === true, agent, url, robots: file })}\n`;
  if (out.length > 1 << 20) {
    writeSync(1, out);
    out = "";
  }
}
writeSync(1, out);
