// Test vectors of RFC 9421 (Appendix B.1.4 key, B.2.6 Ed25519 signature) and RFC 7638 /
// RFC 8037 thumbprints, as table tests of heed's signature base and key code.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BotKey, jwkThumbprint, verifyWithJwk } from "../../../src/net/bot-key.js";
import {
  readSignature,
  signatureBase,
  thumbprintInput,
} from "../../../src/protocol/web-bot-auth/index.js";
import { parseDictionary } from "../../../src/protocol/web-bot-auth/structured-fields.js";

/** RFC 9421 Appendix B.1.4, "test-key-ed25519" (also in the web-bot-auth package's README). */
export const RFC9421_ED25519 = {
  kty: "OKP",
  crv: "Ed25519",
  d: "n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU",
  x: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs",
} as const;

/** RFC 9421 Appendix B.2: the test request (its body is not covered by B.2.6). */
const B2_FIELDS: Record<string, string> = {
  host: "example.com",
  date: "Tue, 20 Apr 2021 02:07:55 GMT",
  "content-type": "application/json",
  "content-digest":
    "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:",
  "content-length": "18",
  "signature-input":
    'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
  signature:
    "sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:",
};
const B2_REQUEST = {
  method: "POST",
  url: "https://example.com/foo?param=Value&Pet=dog",
  field: (name: string) => B2_FIELDS[name] ?? null,
};
const B26_BASE = [
  '"date": Tue, 20 Apr 2021 02:07:55 GMT',
  '"@method": POST',
  '"@path": /foo',
  '"@authority": example.com',
  '"content-type": application/json',
  '"content-length": 18',
  '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
].join("\n");

describe("RFC 9421 Appendix B.2.6 (Ed25519)", () => {
  it("builds the signature base of the appendix, byte for byte", () => {
    const input = parseDictionary(B2_FIELDS["signature-input"] ?? "");
    assert.ok(input.ok);
    const member = input.value.get("sig-b26");
    assert.equal(member?.kind, "list");
    const base = signatureBase(B2_REQUEST, member as never);
    assert.deepEqual(base, { ok: true, value: B26_BASE });
  });

  it("signs to the appendix's signature (Ed25519 is deterministic) and verifies it", () => {
    const key = BotKey.fromJwk(RFC9421_ED25519);
    const signature = Buffer.from(key.sign(B26_BASE)).toString("base64");
    assert.equal(
      signature,
      "wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==",
    );
    assert.ok(verifyWithJwk(RFC9421_ED25519, B26_BASE, Buffer.from(signature, "base64")));
    assert.ok(!verifyWithJwk(RFC9421_ED25519, `${B26_BASE} `, Buffer.from(signature, "base64")));
  });

  it("is not a Web Bot Auth signature: no tag, so the reader calls the request unsigned", () => {
    const read = readSignature(B2_REQUEST, 1618884473);
    assert.equal(read.ok, false);
    assert.equal(!read.ok && read.reason, "unsigned");
  });
});

describe("JWK thumbprints (RFC 7638 §3, RFC 8037 §2)", () => {
  const table = [
    {
      // RFC 8037 Appendix A.3: the thumbprint of the A.2 public key.
      source: "RFC 8037 A.3",
      jwk: { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" },
      thumbprint: "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k",
    },
    {
      // The keyid the Web Bot Auth drafts' examples give the RFC 9421 B.1.4 key.
      source: "draft-meunier-web-bot-auth-architecture, RFC 9421 B.1.4 key",
      jwk: { kty: "OKP", crv: "Ed25519", x: RFC9421_ED25519.x },
      thumbprint: "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U",
    },
  ] as const;
  for (const row of table) {
    it(`${row.source}: ${row.thumbprint}`, () => {
      assert.equal(jwkThumbprint(row.jwk), row.thumbprint);
    });
  }
  it("hashes the required members in lexical order, without white space", () => {
    assert.equal(
      thumbprintInput({ kty: "OKP", crv: "Ed25519", x: "abc" }),
      '{"crv":"Ed25519","kty":"OKP","x":"abc"}',
    );
  });
});
