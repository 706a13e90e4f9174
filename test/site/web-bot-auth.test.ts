// Web Bot Auth end to end on real servers on 127.0.0.1: heed's client signs every request and
// hop (net/request-signer.ts), heed's site verifies (site/bot-auth.ts), and the peer packages
// web-bot-auth, http-message-sig and http-message-signatures check heed and are checked by it.
import assert from "node:assert/strict";
import { createPrivateKey, createPublicKey, webcrypto } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
// The peers, for tests only (devDependencies): code heed did not write.
import * as httpMessageSig from "http-message-sig";
import * as httpMessageSignatures from "http-message-signatures";
import * as webBotAuth from "web-bot-auth";
import * as webBotAuthCrypto from "web-bot-auth/crypto";
import { BotKey, jwkThumbprint } from "../../src/net/bot-key.js";
import { guardedRequest } from "../../src/net/guarded-request.js";
import { createHttpClient } from "../../src/net/http-client.js";
import { createRequestSigner } from "../../src/net/request-signer.js";
import { keyDirectoryDocument } from "../../src/protocol/web-bot-auth/index.js";
import { type SiteServer, startSiteServer } from "../../src/site/site-server.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { until } from "../helpers/until.js";

/** RFC 9421 Appendix B.1.4's Ed25519 test key. */
const TEST_KEY = {
  kty: "OKP",
  crv: "Ed25519",
  d: "n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU",
  x: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs",
} as const;
const TEST_PUBLIC = { kty: "OKP", crv: "Ed25519", x: TEST_KEY.x } as const;
const KEYID = jwkThumbprint(TEST_PUBLIC);

interface Seen {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** A site that records each request's target URI and fields, and answers 200 (or redirects). */
async function recordingSite(seen: Seen[], redirects: Record<string, string> = {}) {
  const routes: Record<string, Parameters<typeof startServer>[0][string]> = {};
  for (const path of ["/robots.txt", "/page", "/a", "/b"]) {
    routes[path] = (req, res) => {
      seen.push({ url: `http://${req.headers.host}${req.url}`, headers: req.headers });
      res.end("ok");
    };
  }
  for (const [path, to] of Object.entries(redirects)) {
    routes[path] = (req, res) => {
      seen.push({ url: `http://${req.headers.host}${req.url}`, headers: req.headers });
      res.writeHead(302, { location: to });
      res.end();
    };
  }
  return startServer(routes);
}

function fieldsOf(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** Verifies with http-message-sig (0.3, the draft authors' library); throws when it fails. */
async function checkWithHttpMessageSig(seen: Seen): Promise<void> {
  const key = await webcrypto.subtle.importKey("jwk", TEST_PUBLIC, { name: "Ed25519" }, true, [
    "verify",
  ]);
  await httpMessageSig.verifySignature(new Request(seen.url, { headers: fieldsOf(seen.headers) }), {
    policy: {
      algorithms: ["ed25519"],
      requiredComponents: ["@authority"],
      requiredParameters: ["created", "expires", "keyid"],
    },
    resolveVerifier: () => httpMessageSig.webcrypto.verifier(key),
  });
}

/** Verifies with http-message-signatures; resolves to its verdict. */
async function checkWithHttpMessageSignatures(seen: Seen): Promise<boolean | null> {
  const key = createPublicKey({ key: TEST_PUBLIC, format: "jwk" });
  return httpMessageSignatures.httpbis.verifyMessage(
    {
      keyLookup: async (params) =>
        params.keyid === KEYID
          ? {
              id: KEYID,
              algs: ["ed25519"],
              verify: httpMessageSignatures.createVerifier(key, "ed25519"),
            }
          : null,
    },
    { method: "GET", url: seen.url, headers: fieldsOf(seen.headers) },
  );
}

describe("requests heed signs", () => {
  const seen: Seen[] = [];
  let site: TestServer;
  before(async () => {
    site = await recordingSite(seen);
  });
  after(() => site.close());

  it("carry Signature-Input, Signature and Signature-Agent, and the peers verify them", async () => {
    const signer = createRequestSigner({
      key: BotKey.fromJwk(TEST_KEY),
      signatureAgent: "https://bot.example/",
    });
    const client = createHttpClient({ userAgent: "heedtest", allowPrivateAddresses: true, signer });
    try {
      const page = await client.fetchPage(`${site.origin}/page`);
      assert.equal(page.kind === "response" && page.status, 200);
    } finally {
      await client.close();
    }
    const last = seen.at(-1);
    assert.ok(last !== undefined);
    assert.match(String(last.headers["signature-input"]), /tag="web-bot-auth"/);
    assert.equal(last.headers["signature-agent"], 'agent1="https://bot.example/"');
    await checkWithHttpMessageSig(last);
    assert.equal(await checkWithHttpMessageSignatures(last), true);
  });

  it("without a Signature-Agent verify with web-bot-auth 0.1 too (it predates the ;key form)", async () => {
    const signer = createRequestSigner({ key: BotKey.fromJwk(TEST_KEY) });
    const client = createHttpClient({ userAgent: "heedtest", allowPrivateAddresses: true, signer });
    try {
      await client.fetchPage(`${site.origin}/a`);
    } finally {
      await client.close();
    }
    const last = seen.at(-1);
    assert.ok(last !== undefined);
    const verifier = await webBotAuthCrypto.verifierFromJWK(TEST_PUBLIC);
    await webBotAuth.verify(new Request(last.url, { headers: fieldsOf(last.headers) }), verifier);
    // A request for another authority does not verify: the signature is bound to its site.
    const moved = last.url.replace("127.0.0.1", "localhost");
    await assert.rejects(
      webBotAuth.verify(new Request(moved, { headers: fieldsOf(last.headers) }), verifier),
    );
  });

  it("sign each redirect hop anew, for the authority of that hop", async () => {
    const hops: Seen[] = [];
    const other = await recordingSite(hops);
    const first = await recordingSite(hops, { "/moved": `${other.origin}/b` });
    const signer = createRequestSigner({ key: BotKey.fromJwk(TEST_KEY) });
    const client = createHttpClient({ userAgent: "heedtest", allowPrivateAddresses: true, signer });
    try {
      const answer = await guardedRequest(`${first.origin}/moved`, { client, maxRedirects: 1 });
      await answer.body.dump();
      assert.equal(answer.status, 200);
    } finally {
      await client.close();
      await first.close();
      await other.close();
    }
    assert.deepEqual(
      hops.map((hop) => new URL(hop.url).host),
      [new URL(first.origin).host, new URL(other.origin).host],
    );
    for (const hop of hops) {
      await checkWithHttpMessageSig(hop);
      assert.equal(await checkWithHttpMessageSignatures(hop), true);
    }
  });
});

describe("heed serve --verify-bots", () => {
  let dir: string;
  let agent: SiteServer;
  let site: SiteServer;
  let clock = Date.now();
  const log: string[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-wba-"));
    await writeFile(join(dir, "index.html"), "<p>hello</p>");
    await writeFile(join(dir, "robots.txt"), "User-agent: *\nAllow: /\n");
    agent = await startSiteServer({
      root: dir,
      botKeys: keyDirectoryDocument([TEST_PUBLIC]),
    });
    site = await startSiteServer({
      root: dir,
      botAuth: { requireSignature: ["/*"], allowPrivateAddresses: true, now: () => clock },
      onRequest: (entry) => log.push(`${entry.path} ${entry.status} ${entry.bot ?? ""}`),
    });
  });
  after(async () => {
    await site.close();
    await agent.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** GET `path` of the site with `headers`; the status and body. */
  async function get(path: string, headers: Record<string, string>) {
    const answer = await guardedRequest(new URL(path, site.url).href, {
      allowPrivateAddresses: true,
      headers,
    });
    return { status: answer.status, body: await answerText(answer.body) };
  }

  const signed = (options: { key?: BotKey; agent?: string; at?: number } = {}) =>
    createRequestSigner({
      key: options.key ?? BotKey.fromJwk(TEST_KEY),
      signatureAgent: options.agent ?? agent.url,
      now: () => options.at ?? clock,
    }).fieldsFor("GET", new URL("/", site.url).href);

  it("serves the key directory at the well-known path", async () => {
    const answer = await guardedRequest(
      new URL("/.well-known/http-message-signatures-directory", agent.url).href,
      { allowPrivateAddresses: true },
    );
    assert.equal(
      answer.headers["content-type"],
      "application/http-message-signatures-directory+json",
    );
    assert.deepEqual(JSON.parse(await answerText(answer.body)), { keys: [TEST_PUBLIC] });
  });

  it("answers a signed request and logs the verified key", async () => {
    const before = log.length;
    const answer = await get("/", signed());
    assert.equal(answer.status, 200);
    // The log line is written when the answer's socket work is done, just after the body.
    await until(() => log.length > before, "the access log line");
    assert.match(log.at(-1) ?? "", new RegExp(`^/ 200 bot=${KEYID} via http://`));
  });

  it("answers 401 to an unsigned request", async () => {
    const answer = await get("/", {});
    assert.equal(answer.status, 401);
    assert.match(answer.body, /unsigned/);
  });

  it("refuses a tampered header: bad-signature", async () => {
    const fields = signed();
    // The signature covers Signature-Agent: pointing it elsewhere, even to the same keys, breaks it.
    const tampered = {
      ...fields,
      "signature-agent": `agent1="${agent.url}.well-known/http-message-signatures-directory"`,
    };
    const answer = await get("/", tampered);
    assert.equal(answer.status, 401);
    assert.match(answer.body, /bad-signature/);
  });

  it("refuses an expired signature: expired", async () => {
    const answer = await get("/", signed({ at: clock - 3_600_000 }));
    assert.equal(answer.status, 401);
    assert.match(answer.body, /expired/);
  });

  it("refuses an unknown key: unknown-key", async () => {
    const answer = await get("/", signed({ key: BotKey.generate().key }));
    assert.equal(answer.status, 401);
    assert.match(answer.body, /unknown-key/);
  });

  it("refuses a redirecting directory: directory-redirect", async () => {
    const mover = await startServer({
      "/.well-known/http-message-signatures-directory": (_req, res) => {
        res.writeHead(302, {
          location: new URL("/.well-known/http-message-signatures-directory", agent.url).href,
        });
        res.end();
      },
    });
    try {
      const answer = await get("/", signed({ agent: mover.origin }));
      assert.equal(answer.status, 401);
      assert.match(answer.body, /directory-redirect/);
    } finally {
      await mover.close();
    }
  });

  it("refuses a replayed signature past its expires: expired", async () => {
    const fields = signed();
    assert.equal((await get("/", fields)).status, 200);
    const saved = clock;
    clock += 301_000;
    try {
      const replay = await get("/", fields);
      assert.equal(replay.status, 401);
      assert.match(replay.body, /expired/);
    } finally {
      clock = saved;
    }
  });

  it("refuses a signature for another site, replayed with its Host: wrong-authority", async () => {
    const { BotVerifier } = await import("../../src/site/bot-verifier.js");
    const verifier = new BotVerifier({ keys: [TEST_PUBLIC], authorities: ["shop.example"] });
    const signer = createRequestSigner({ key: BotKey.fromJwk(TEST_KEY) });
    const request = (url: string) => {
      const fields = signer.fieldsFor("GET", url);
      return { method: "GET", url, field: (name: string) => fields[name] ?? null };
    };
    assert.equal((await verifier.verify(request("https://shop.example/a"))).ok, true);
    const elsewhere = await verifier.verify(request("https://other.example/a"));
    assert.equal(!elsewhere.ok && elsewhere.reason, "wrong-authority");
  });

  it("verifies what the peers sign: web-bot-auth, http-message-sig, http-message-signatures", async () => {
    const url = new URL("/", site.url).href;
    const agentField = `"${agent.url}"`;
    const created = new Date(clock);
    const expires = new Date(clock + 60_000);
    const fromWebBotAuth = await webBotAuth.signatureHeaders(
      new Request(url, { headers: { "signature-agent": agentField } }),
      await webBotAuthCrypto.signerFromJWK(TEST_KEY),
      { created, expires },
    );
    const first = await get("/", {
      "signature-agent": agentField,
      signature: fromWebBotAuth.Signature,
      "signature-input": fromWebBotAuth["Signature-Input"],
    });
    assert.equal(first.status, 200, first.body);

    const privateKey = await webcrypto.subtle.importKey(
      "jwk",
      TEST_KEY,
      { name: "Ed25519" },
      true,
      ["sign"],
    );
    const member = `a1="${agent.url}"`;
    const fromHttpMessageSig = await httpMessageSig.createSignature(
      new Request(url, { headers: { "signature-agent": member } }),
      {
        signer: httpMessageSig.webcrypto.signer(privateKey),
        components: ["@authority", { name: "signature-agent", parameters: { key: "a1" } }],
        parameters: {
          created: Math.floor(clock / 1000),
          expires: Math.floor(clock / 1000) + 60,
          keyid: KEYID,
          tag: "web-bot-auth",
        },
      },
    );
    const second = await get("/", {
      "signature-agent": member,
      signature: fromHttpMessageSig.signature,
      "signature-input": fromHttpMessageSig.signatureInput,
    });
    assert.equal(second.status, 200, second.body);

    const signedMessage = await httpMessageSignatures.httpbis.signMessage(
      {
        key: httpMessageSignatures.createSigner(
          createPrivateKey({ key: TEST_KEY, format: "jwk" }),
          "ed25519",
          KEYID,
        ),
        fields: ["@authority", '"signature-agent";key="a1"'],
        params: ["created", "expires", "keyid", "alg", "tag"],
        paramValues: { created, expires, tag: "web-bot-auth" },
      },
      { method: "GET", url, headers: { "signature-agent": member } },
    );
    const third = await get("/", fieldsOf(lowerCased(signedMessage.headers)));
    assert.equal(third.status, 200, third.body);
    // And a peer's signature with one byte changed is refused.
    const broken = fromHttpMessageSig.signature.replace(/[A-Za-z](?=[^:]*:$)/, (c) =>
      c === "A" ? "B" : "A",
    );
    const fourth = await get("/", {
      "signature-agent": member,
      signature: broken,
      "signature-input": fromHttpMessageSig.signatureInput,
    });
    assert.equal(fourth.status, 401);
    assert.match(fourth.body, /bad-signature/);
  });
});

function lowerCased(headers: Record<string, unknown>): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  return out;
}

async function answerText(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}
