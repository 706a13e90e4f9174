// heed serve --verify-bots accepts signatures made for the authority it listens on (and those
// given with --authority), and refuses one made for another site and replayed here with that
// site's Host: the replay is a real request on 127.0.0.1 with a foreign Host field.
import assert from "node:assert/strict";
import { request } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BotKey } from "../../src/net/bot-key.js";
import { createRequestSigner } from "../../src/net/request-signer.js";
import { type SiteServer, startSiteServer } from "../../src/site/site-server.js";

/** GET `/` of `server` with `host` as its Host field and the signature `fields`. */
function get(server: SiteServer, host: string, fields: Record<string, string>) {
  const { hostname, port } = new URL(server.url);
  return new Promise<{ status: number; body: string }>((ok, fail) => {
    const req = request({ hostname, port, path: "/", headers: { ...fields, host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", fail);
    });
    req.on("error", fail);
    req.end();
  });
}

describe("--verify-bots and the authorities it answers for", () => {
  let dir: string;
  let site: SiteServer;
  const { key } = BotKey.generate();
  const signer = createRequestSigner({ key });
  const signedFor = (url: string): Record<string, string> => ({ ...signer.fieldsFor("GET", url) });
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-authority-"));
    await writeFile(join(dir, "index.html"), "<p>hello</p>");
    site = await startSiteServer({
      root: dir,
      botAuth: {
        keys: [key.publicJwk],
        requireSignature: ["/*"],
        authorities: ["shop.example"],
        listenedAuthority: true,
      },
    });
  });
  after(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("accepts a signature for the listened host:port and for a given authority", async () => {
    const own = new URL(site.url).host;
    assert.equal((await get(site, own, signedFor(site.url))).status, 200);
    const shop = await get(site, "shop.example", signedFor("http://shop.example/"));
    assert.equal(shop.status, 200, shop.body);
  });

  it("refuses a signature for another site replayed with its Host: wrong-authority", async () => {
    const replay = await get(site, "other.example", signedFor("http://other.example/"));
    assert.equal(replay.status, 401);
    assert.match(replay.body, /wrong-authority/);
  });
});
