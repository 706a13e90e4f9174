// One process of the library's shared-store test (library.test.ts): run as
// `node library-child.js SEED REDIS-SPEC`, a Crawler on that Redis store, its summary printed
// as one JSON line. The test runner also loads this file, with no arguments: then it does
// nothing.
import { Crawler, openStore } from "heed";

const [seed, spec] = process.argv.slice(2);
if (seed !== undefined && spec !== undefined) {
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
}
