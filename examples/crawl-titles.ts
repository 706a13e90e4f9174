import { Crawler } from "heed";

// Every page of a site, politely: its title and links, kept as the crawl's items.
// node dist/examples/crawl-titles.js https://example.com/ titles.db
// heed export --store titles.db --items    # one JSON record a line
const [seed = "https://example.com/", store = "titles.db"] = process.argv.slice(2);

const crawler = new Crawler({
  agent: "TitleBot",
  store,
  seeds: [seed],
  maxPages: 100,
  handler: async (page, ctx) => {
    const title = ctx.selectOne("title");
    await ctx.push({
      url: page.url,
      title: title === null ? null : ctx.textOf(title).trim(),
      links: ctx.select("a[href]").map((a) => a.attribs["href"]),
      allowedBy: page.rule, // the robots.txt line that allowed it
    });
  },
});
crawler.on("skipped", (event) => console.error(`skipped ${event.url}: ${event.reason}`));
const summary = await crawler.run();
console.log(`${summary.fetched} pages fetched, ${summary.items} records kept`);
