// One process of the library's shared-store test (library.test.ts): a Crawler on the Redis
// store named in argv, its summary printed as one JSON line.
import { Crawler, openStore } from "heed";

const [seed = "", spec = ""] = process.argv.slice(2);
const store = await openStore(spec);
try {
  const crawler = new Crawler({
    agent: "HeedTest",
    store,
    seeds: [seed],
    maxDepth: 10,
    handler: (page, ctx) => ctx.push({ url: page.url, pid: process.pid }),
  });
  const summary = await crawler.run({ signal: AbortSignal.timeout(60_000) });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} finally {
  await store.close();
}
