// heed serve --bot-keys FILE|DIR: a directory file served as is, a folder of key files made
// into one; a private member never served.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { botKeysDocument } from "../../src/cli/key-files.js";
import { BotKey } from "../../src/net/bot-key.js";

describe("--bot-keys", () => {
  let dir: string;
  const made = BotKey.generate();
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-bot-keys-"));
    await mkdir(join(dir, "keys"));
    await writeFile(join(dir, "keys", "a.jwk"), JSON.stringify(made.jwk));
    await writeFile(join(dir, "keys", "notes.txt"), "not a key");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("a folder's key files become a directory of their public halves, signed by them", async () => {
    const served = await botKeysDocument(join(dir, "keys"));
    assert.ok(typeof served !== "string");
    assert.deepEqual(JSON.parse(served.document), {
      keys: [{ kty: "OKP", crv: "Ed25519", x: made.key.publicJwk.x }],
    });
    assert.ok(!served.document.includes(made.jwk.d));
    assert.deepEqual(
      served.keys.map((k) => k.thumbprint),
      [made.key.thumbprint],
    );
  });

  it("a directory file is served as is; one holding a private member is refused", async () => {
    const doc = `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"${made.jwk.x}"}]}`;
    await writeFile(join(dir, "directory.json"), doc);
    assert.equal(await botKeysDocument(join(dir, "directory.json")), doc);
    await writeFile(join(dir, "leaky.json"), JSON.stringify({ keys: [made.jwk] }));
    await assert.rejects(botKeysDocument(join(dir, "leaky.json")), (error: Error) => {
      assert.match(error.message, /holds a private key/);
      assert.ok(!error.message.includes(made.jwk.d));
      return true;
    });
  });

  it("a folder without key files, and a missing path, are clear errors", async () => {
    await mkdir(join(dir, "empty"));
    await assert.rejects(botKeysDocument(join(dir, "empty")), /no \.jwk or \.json key files/);
    await assert.rejects(botKeysDocument(join(dir, "nowhere")), /no such file or directory/);
  });
});
