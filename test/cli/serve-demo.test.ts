// `heed serve --demo news` as users run it: the built CLI serves the news site on a real port
// until SIGINT, logs each request, and refuses bad options with exit 2.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { originOf, runCli, spawnCli } from "../helpers/run-cli.js";

describe("heed serve --demo news", { timeout: 60_000 }, () => {
  it("serves the site with the robots.txt asked for, logs requests, stops on SIGINT", async () => {
    const running = spawnCli([
      "serve",
      "--demo",
      "news",
      "--port",
      "0",
      "--robots",
      "rep",
      "--items",
      "6",
      "--admin-password",
      "secret-pw",
    ]);
    const origin = await originOf(running.child);
    const robots = await fetch(`${origin}/robots.txt`);
    assert.equal(robots.status, 200);
    assert.equal(
      await robots.text(),
      "User-agent: *\nDisallow: /login.do\nDisallow: /reg.do\nDisallow: /newsRelease.do\n",
    );
    const home = await (await fetch(`${origin}/`)).text();
    assert.match(home, /newsItem\.do\?id=6/);
    assert.doesNotMatch(home, /newsItem\.do\?id=3"/);
    const login = await fetch(`${origin}/login.do`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "user=admin&password=secret-pw",
      redirect: "manual",
    });
    assert.equal(login.status, 303, "the password given is the administrator's");
    running.child.kill("SIGINT");
    const done = await running.done;
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /robots\.txt: rep, 6 news items/);
    assert.match(done.stdout, /administrator: admin, password secret-pw/);
    assert.match(done.stderr, /GET \/robots\.txt 200\n/);
    assert.match(done.stderr, /POST \/login\.do 303\n/);
    assert.match(done.stderr, /heed serve: stopped/);
  });

  it("a random administrator password when none is given, printed", async () => {
    const running = spawnCli(["serve", "--demo", "news", "--port", "0", "--items", "4", "--quiet"]);
    const origin = await originOf(running.child);
    assert.equal((await fetch(`${origin}/robots.txt`)).status, 200);
    running.child.kill("SIGTERM");
    const done = await running.done;
    assert.equal(done.code, 0);
    const password = /password (\S+) /.exec(done.stdout)?.[1];
    assert.ok(password !== undefined && password.length >= 12, done.stdout);
    assert.doesNotMatch(done.stderr, /GET \/robots\.txt/, "--quiet: no request log");
  });

  it("--url: robots.txt and the sitemap name the public URL", async () => {
    const running = spawnCli([
      "serve",
      "--demo",
      "news",
      "--port",
      "0",
      "--items",
      "4",
      "--quiet",
      "--url",
      "https://news.example:8443/",
    ]);
    const printed = await new Promise<string>((resolve, reject) => {
      let out = "";
      running.child.stdout.on("data", (c: Buffer) => {
        out += c.toString("utf8");
        if (out.includes("\n")) resolve(out);
      });
      running.child.once("exit", () => reject(new Error(out)));
    });
    assert.match(printed, /at https:\/\/news\.example:8443\//);
    const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(printed)?.[1];
    assert.ok(listening !== undefined, printed);
    const robots = await (await fetch(`${listening}/robots.txt`)).text();
    assert.match(robots, /^Sitemap: https:\/\/news\.example:8443\/sitemap\.xml$/m);
    const sitemap = await (await fetch(`${listening}/sitemap.xml`)).text();
    assert.match(sitemap, /<loc>https:\/\/news\.example:8443\/html\/news1\.html<\/loc>/);
    running.child.kill("SIGINT");
    const done = await running.done;
    assert.equal(done.code, 0, done.stderr);
  });

  it("bad options and a taken port: exit 2 with the reason", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      const cases = [
        [["serve"], /give --demo news/],
        [["serve", "--demo", "blog"], /--demo: expected one of news/],
        [
          ["serve", "--demo", "news", "--port", "70000"],
          /--port: expected a whole number from 0 to 65535/,
        ],
        [["serve", "--demo", "news", "--items", "-1"], /--items: expected a whole number/],
        [["serve", "--demo", "news", "--robots", "koster"], /invalid/],
        [
          ["serve", "--demo", "news", "--admin-password", "123"],
          /adminPassword: password: expected 6/,
        ],
        [
          ["serve", "--demo", "news", "--port", String(taken)],
          new RegExp(`port ${taken} is in use`),
        ],
        [["serve", "--demo", "news", "--url", "ftp://x/"], /--url: expected an http\(s\) URL/],
        [["serve", "--demo", "news", "--url", "http://x/news/"], /of a site's root/],
      ] as const;
      for (const [args, message] of cases) {
        const result = await runCli(args);
        assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
        assert.match(result.stderr, message);
      }
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
