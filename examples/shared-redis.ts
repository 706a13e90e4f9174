import { fork } from "node:child_process";
import { Crawler, openStore } from "heed";

// One crawl shared by two processes through one Redis store: each page is fetched once, and
// the site's Crawl-delay holds across both (they take the site's reservation in the store).
// node dist/examples/shared-redis.js https://example.com/ redis://127.0.0.1:6379#example:
const [seed = "https://example.com/", redis = "redis://127.0.0.1:6379#example:"] =
  process.argv.slice(2);

if (process.env["HEED_EXAMPLE_WORKER"] === undefined) {
  const env = { ...process.env, HEED_EXAMPLE_WORKER: "1" };
  const workers = [1, 2].map(() => fork(process.argv[1] ?? "", [seed, redis], { env }));
  await Promise.all(workers.map((worker) => new Promise((done) => worker.once("exit", done))));
  const store = await openStore(redis);
  console.log(`both done: ${(await store.items.count()).toString()} pages kept`);
  await store.close();
} else {
  const store = await openStore(redis);
  const crawler = new Crawler({
    agent: "SharedBot",
    store,
    seeds: [seed],
    handler: (page, ctx) => ctx.push({ url: page.url, by: process.pid }),
  });
  const summary = await crawler.run();
  console.log(`process ${process.pid}: ${summary.fetched} pages`);
  await store.close();
}
