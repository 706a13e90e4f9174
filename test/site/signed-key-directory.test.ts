// The signed key directory (draft-meunier-http-message-signatures-directory §5) on real servers
// on 127.0.0.1: heed serve --bot-keys DIR signs each answer at the request's authority, heed's
// directory fetch checks it, and the peers
// http-message-signatures and web-bot-auth (code heed did not write) agree.
import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as httpMessageSignatures from "http-message-signatures";
import * as webBotAuth from "web-bot-auth";
import * as webBotAuthCrypto from "web-bot-auth/crypto";
import { botKeysDocument } from "../../src/cli/key-files.js";
import { BotKey } from "../../src/net/bot-key.js";
import { guardedRequest } from "../../src/net/guarded-request.js";
import { fetchKeyDirectory } from "../../src/net/key-directory-fetch.js";
import { createRequestSigner } from "../../src/net/request-signer.js";
import {
  DIRECTORY_MEDIA_TYPE,
  DIRECTORY_PATH,
  keyDirectoryDocument,
} from "../../src/protocol/web-bot-auth/index.js";
import { BotVerifier } from "../../src/site/bot-verifier.js";
import { type SiteServer, startSiteServer } from "../../src/site/site-server.js";
import { startServer } from "../helpers/http-server.js";

describe("the signed key directory", () => {
  let dir: string;
  let agent: SiteServer;
  const made = BotKey.generate();
  const other = BotKey.generate();
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-signed-dir-"));
    await mkdir(join(dir, "keys"));
    await writeFile(join(dir, "keys", "bot.jwk"), JSON.stringify(made.jwk));
    agent = await startSiteServer({ root: dir, botKeys: await botKeysDocument(join(dir, "keys")) });
  });
  after(async () => {
    await agent.close();
    await rm(dir, { recursive: true, force: true });
  });

  const directoryUrl = (): string => new URL(DIRECTORY_PATH, agent.url).href;

  /** The agent's signed answer: its fields and body. */
  async function signedAnswer(): Promise<{ headers: Record<string, string>; body: string }> {
    const answer = await guardedRequest(directoryUrl(), { allowPrivateAddresses: true });
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body as AsyncIterable<Buffer>) chunks.push(chunk);
    const headers: Record<string, string> = {};
    for (const name of ["signature", "signature-input", "content-type"]) {
      const value = answer.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    return { headers, body: Buffer.concat(chunks).toString("utf8") };
  }

  /** A directory server answering `body` with `headers`, at another authority. */
  function replaying(headers: Record<string, string>, body: string) {
    return startServer({
      [DIRECTORY_PATH]: (_req, res) => {
        res.writeHead(200, headers);
        res.end(body);
      },
    });
  }

  it("heed serve --bot-keys DIR signs its answer with every key, at the request's authority", async () => {
    const { headers } = await signedAnswer();
    assert.equal(headers["content-type"], DIRECTORY_MEDIA_TYPE);
    assert.match(headers["signature-input"] ?? "", /^binding0=\("@authority";req\);/);
    assert.match(headers["signature-input"] ?? "", /tag="http-message-signatures-directory"/);
    assert.match(headers["signature-input"] ?? "", new RegExp(`keyid="${made.key.thumbprint}"`));
    const fetched = await fetchKeyDirectory(directoryUrl(), { allowPrivateAddresses: true });
    assert.ok(fetched.ok, fetched.ok ? "" : fetched.message);
    assert.equal(fetched.signed, true);
  });

  it("a verified request records that its directory was signed", async () => {
    const verifier = new BotVerifier({ allowPrivateAddresses: true, requireSignedDirectory: true });
    const url = "http://site.example/page";
    const fields = createRequestSigner({ key: made.key, signatureAgent: agent.url }).fieldsFor(
      "GET",
      url,
    );
    const verdict = await verifier.verify({
      method: "GET",
      url,
      field: (name) => fields[name] ?? null,
    });
    assert.ok(verdict.ok, verdict.ok ? "" : verdict.message);
    assert.equal(verdict.directorySigned, true);
  });

  it("refuses a tampered signed directory: directory-bad-signature", async () => {
    const { headers, body } = await signedAnswer();
    // The same signatures with another key listed: signed by none of the keys it lists.
    const swapped = keyDirectoryDocument([other.key.publicJwk]);
    const swapper = await replaying(headers, swapped);
    // The same answer replayed at another authority: the signature binds the agent's own.
    const replayer = await replaying(headers, body);
    // A changed parameter: the signature no longer matches.
    const edited = {
      ...headers,
      "signature-input": (headers["signature-input"] ?? "").replace(
        /expires=(\d+)/,
        (_m, e) => `expires=${Number(e) - 1}`,
      ),
    };
    const editor = await replaying(edited, body);
    try {
      for (const server of [swapper, replayer, editor]) {
        const fetched = await fetchKeyDirectory(new URL(DIRECTORY_PATH, server.origin).href, {
          allowPrivateAddresses: true,
        });
        assert.equal(fetched.ok, false);
        assert.equal(fetched.ok ? "" : fetched.reason, "directory-bad-signature");
      }
    } finally {
      await Promise.all([swapper.close(), replayer.close(), editor.close()]);
    }
  });

  it("accepts an unsigned directory by default, refuses it when told: directory-unsigned", async () => {
    const plain = await replaying(
      { "content-type": DIRECTORY_MEDIA_TYPE },
      keyDirectoryDocument([made.key.publicJwk]),
    );
    try {
      const url = new URL(DIRECTORY_PATH, plain.origin).href;
      const loose = await fetchKeyDirectory(url, { allowPrivateAddresses: true });
      assert.ok(loose.ok && !loose.signed);
      const strict = await fetchKeyDirectory(url, {
        allowPrivateAddresses: true,
        requireSigned: true,
      });
      assert.equal(strict.ok ? "" : strict.reason, "directory-unsigned");
    } finally {
      await plain.close();
    }
  });

  it("peer: http-message-signatures verifies heed's directory signature", async () => {
    const { headers } = await signedAnswer();
    const key = createPublicKey({ key: { ...made.key.publicJwk }, format: "jwk" });
    // web-bot-auth's own verify takes only the tag web-bot-auth; http-message-signatures reads
    // a response signature whose components come from the request (";req").
    const verdict = await httpMessageSignatures.httpbis.verifyMessage(
      {
        keyLookup: async (params) =>
          params.keyid === made.key.thumbprint
            ? {
                id: made.key.thumbprint,
                algs: ["ed25519"],
                verify: httpMessageSignatures.createVerifier(key, "ed25519"),
              }
            : null,
      },
      { status: 200, headers },
      { method: "GET", url: directoryUrl(), headers: {} },
    );
    assert.equal(verdict, true);
  });

  it("peer: heed verifies a directory web-bot-auth signed", async () => {
    const signer = await webBotAuthCrypto.signerFromJWK(made.jwk);
    // The peer signs each answer at the authority it was asked at, as heed serve does.
    const peer = await startServer({
      [DIRECTORY_PATH]: (req, res) => {
        const url = `http://${req.headers.host ?? ""}${DIRECTORY_PATH}`;
        const now = Date.now();
        void webBotAuth
          .directoryResponseHeaders(
            {
              request: { method: "GET", url, headers: {} },
              response: { status: 200, headers: {} },
            },
            [signer],
            { created: new Date(now), expires: new Date(now + 300_000) },
          )
          .then((headers) => {
            res.writeHead(200, { ...headers, "content-type": DIRECTORY_MEDIA_TYPE });
            res.end(keyDirectoryDocument([made.key.publicJwk]));
          });
      },
    });
    try {
      const fetched = await fetchKeyDirectory(new URL(DIRECTORY_PATH, peer.origin).href, {
        allowPrivateAddresses: true,
        requireSigned: true,
      });
      assert.ok(fetched.ok && fetched.signed, fetched.ok ? "" : fetched.message);
    } finally {
      await peer.close();
    }
  });
});
