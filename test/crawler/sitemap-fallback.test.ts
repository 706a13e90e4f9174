// Where the crawler looks for sitemaps when robots.txt names none, read from the server's log:
// by default /sitemap.xml (sitemaps.org's place for one); with `sitemapFallback: false` nowhere,
// as the paper's crawler (seeds/003 §4.2, §5 Table 9: "the crawler cannot obtain its path
// without robots.txt").
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCrawl } from "../helpers/crawl-harness.js";
import { startSite } from "../helpers/synthetic-site.js";

async function crawlWith(robots: string | undefined, sitemapFallback: boolean | undefined) {
  let origin = "";
  const site = await startSite({
    pages: 1,
    ...(robots === undefined ? {} : { robots }),
    route: (req, res) => {
      if (req.url !== "/sitemap.xml") return false;
      res.writeHead(200, { "content-type": "application/xml" })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>${origin}/deep.html</loc></url></urlset>`);
      return true;
    },
  });
  origin = site.origin;
  try {
    await runCrawl([`${origin}/`], sitemapFallback === undefined ? {} : { sitemapFallback });
    return site.paths();
  } finally {
    await site.close();
  }
}

describe("sitemap fallback", { timeout: 30_000 }, () => {
  const cases = [
    { robots: undefined, fallback: undefined, reads: true, why: "no robots.txt: /sitemap.xml" },
    { robots: undefined, fallback: false, reads: false, why: "no robots.txt, no guessing" },
    {
      robots: "User-agent: *\nDisallow: /login.do\n",
      fallback: false,
      reads: false,
      why: "a robots.txt that names no sitemap, no guessing",
    },
    {
      robots: "User-agent: *\nDisallow: /login.do\nSitemap: /sitemap.xml\n",
      fallback: false,
      reads: true,
      why: "robots.txt names it: read whatever the option",
    },
  ];
  for (const c of cases) {
    it(c.why, async () => {
      const paths = await crawlWith(c.robots, c.fallback);
      assert.equal(paths.includes("/sitemap.xml"), c.reads, paths.join(" "));
      assert.equal(paths.includes("/deep.html"), c.reads, paths.join(" "));
    });
  }
});
