// The directory's response signatures, pure (draft-meunier-http-message-signatures-directory
// §5): what heed plans, what it reads back, and what it refuses before any key is asked.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type MessageRequest,
  planDirectorySignatures,
  readDirectorySignatures,
  readSignature,
} from "../../../src/protocol/web-bot-auth/index.js";

const URL_ASKED = "https://bot.example/.well-known/http-message-signatures-directory";
const NOW = 1_800_000_000;

/** The answer to a request for `url`, with `fields`. */
function answer(url: string, fields: Record<string, string>): MessageRequest {
  return { method: "GET", url, field: (name) => fields[name] ?? null };
}

function planned() {
  const plan = planDirectorySignatures(answer(URL_ASKED, {}), ["k1", "k2"], {
    created: NOW,
    expires: NOW + 300,
  });
  assert.ok(plan.ok);
  return plan.value;
}

describe("directory signatures", () => {
  it('one signature per key over ("@authority";req), tagged for the directory', () => {
    const plan = planned();
    assert.equal(
      plan.plans[0]?.base,
      '"@authority";req: bot.example\n' +
        `"@signature-params": ("@authority";req);alg="ed25519";created=${NOW};expires=${NOW + 300};keyid="k1";tag="http-message-signatures-directory"`,
    );
    const fields = plan.fields([new Uint8Array([1]), new Uint8Array([2])]);
    assert.match(fields["signature-input"] ?? "", /^binding0=\(.*, binding1=\(.*keyid="k2"/);
    assert.equal(fields["signature"], "binding0=:AQ==:, binding1=:Ag==:");
  });

  it("reads back each signature's keyid and base; none when the answer is unsigned", () => {
    const plan = planned();
    const fields = plan.fields([new Uint8Array([1]), new Uint8Array([2])]);
    const read = readDirectorySignatures(answer(URL_ASKED, fields), NOW + 10);
    assert.ok(read.ok);
    assert.deepEqual(
      read.signatures.map((s) => [s.keyid, s.base]),
      plan.plans.map((p) => [p.keyid, p.base]),
    );
    const plain = readDirectorySignatures(answer(URL_ASKED, {}), NOW);
    assert.deepEqual(plain, { ok: true, signatures: [] });
  });

  it("the base is the authority asked: another host makes another base", () => {
    const fields = planned().fields([new Uint8Array([1]), new Uint8Array([2])]);
    const elsewhere = readDirectorySignatures(answer("https://evil.example/d", fields), NOW);
    assert.ok(elsewhere.ok);
    assert.match(elsewhere.signatures[0]?.base ?? "", /^"@authority";req: evil\.example\n/);
  });

  it("refuses an expired, half-sent or malformed signature: directory-bad-signature", () => {
    const fields = planned().fields([new Uint8Array([1]), new Uint8Array([2])]);
    for (const [what, response, now] of [
      ["expired", answer(URL_ASKED, fields), NOW + 301],
      [
        "no Signature",
        answer(URL_ASKED, { "signature-input": fields["signature-input"] ?? "" }),
        NOW,
      ],
      ["malformed", answer(URL_ASKED, { ...fields, signature: "binding0=(" }), NOW],
    ] as const) {
      const read = readDirectorySignatures(response, now);
      assert.equal(read.ok ? "" : read.reason, "directory-bad-signature", what);
    }
  });

  it(";req is a response's: a request signature carrying it is malformed", () => {
    const input = 'sig1=("@authority";req);created=1;expires=2;keyid="k";tag="web-bot-auth"';
    const read = readSignature(
      answer("https://site.example/", { "signature-input": input, signature: "sig1=:AQ==:" }),
      1,
    );
    assert.equal(read.ok ? "" : read.reason, "malformed");
  });
});
