// protocol/web-bot-auth: Structured Fields, the signature a robot plans, the reading of it by
// a site, and every limit (RFC 9651, RFC 9421, draft-meunier-webbotauth-httpsig-protocol-02).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  directoryUrl,
  judgeTimes,
  keyDirectoryDocument,
  MAX_DIRECTORY_BYTES,
  MAX_DIRECTORY_KEYS,
  MAX_FIELD_CHARS,
  MAX_LIFETIME_S,
  MAX_MEMBERS,
  MAX_RECORDED_FIELDS,
  MAX_RECORDED_HEAD_CHARS,
  parseKeyDirectory,
  planSignature,
  readPrivateJwk,
  readRecordedRequest,
  readSignature,
} from "../../../src/protocol/web-bot-auth/index.js";
import {
  parseDictionary,
  serializeDictionary,
} from "../../../src/protocol/web-bot-auth/structured-fields.js";

const X = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs";

describe("Structured Fields dictionaries (RFC 9651 §4.2.2)", () => {
  const table: readonly (readonly [string, string])[] = [
    [
      'a=("@authority" "x";key="k");created=1;tag="t"',
      'a=("@authority" "x";key="k");created=1;tag="t"',
    ],
    ["a=:AQID:, b=?0, c", "a=:AQID:, b=?0, c"],
    ["a=1.50,b=tok/en", "a=1.5, b=tok/en"],
    ['a="q\\"d"', 'a="q\\"d"'],
    ["a=1, a=2", "a=2"],
    ["  a=()  ", "a=()"],
  ];
  for (const [input, canonical] of table) {
    it(`${input} → ${canonical}`, () => {
      const parsed = parseDictionary(input);
      assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
      assert.equal(serializeDictionary(parsed.value), canonical);
    });
  }
  for (const bad of ['a="open', "a=(1 2", "A=1", "a=1,", "a=:not base64!:", "a=?2", 'a="é"']) {
    it(`refuses ${JSON.stringify(bad)} with a message, never a throw`, () => {
      const parsed = parseDictionary(bad);
      assert.equal(parsed.ok, false);
      assert.match(!parsed.ok ? parsed.message : "", /at character \d+/);
    });
  }
  it(`limit: a field longer than MAX_FIELD_CHARS (${MAX_FIELD_CHARS}) is refused unparsed`, () => {
    assert.ok(parseDictionary(`a="${"x".repeat(MAX_FIELD_CHARS - 10)}"`).ok);
    const long = parseDictionary(`a="${"x".repeat(MAX_FIELD_CHARS)}"`);
    assert.deepEqual(long, { ok: false, message: `longer than ${MAX_FIELD_CHARS} characters` });
  });
  it(`limit: more than MAX_MEMBERS (${MAX_MEMBERS}) members or inner-list items`, () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=1`).join(", ");
    assert.ok(parseDictionary(members(MAX_MEMBERS)).ok);
    assert.equal(parseDictionary(members(MAX_MEMBERS + 1)).ok, false);
    const items = (n: number) => `a=(${Array.from({ length: n }, () => "1").join(" ")})`;
    assert.ok(parseDictionary(items(MAX_MEMBERS)).ok);
    assert.equal(parseDictionary(items(MAX_MEMBERS + 1)).ok, false);
  });
});

const AGENT = "https://bot.example/.well-known/http-message-signatures-directory";

/** A request carrying the fields `planSignature` made, with `signature` for the signature. */
function requestWith(url: string, fields: Record<string, string>) {
  return { method: "GET", url, field: (name: string) => fields[name] ?? null };
}

describe("planSignature and readSignature (draft-…-protocol-02 §4)", () => {
  const plan = planSignature(
    { method: "GET", url: "https://Example.COM:443/page?q=1" },
    { keyid: "kid", created: 1000, expires: 1300, signatureAgent: AGENT },
  );
  assert.ok(plan.ok);
  const fields: Record<string, string> = { ...plan.value.fields, signature: "sig1=:AAAA:" };

  it("covers @authority and the Signature-Agent member, with created, expires, keyid, alg, tag", () => {
    assert.equal(
      fields["signature-input"],
      'sig1=("@authority" "signature-agent";key="agent1");created=1000;expires=1300;keyid="kid";alg="ed25519";tag="web-bot-auth"',
    );
    assert.equal(fields["signature-agent"], `agent1="${AGENT}"`);
    assert.equal(
      plan.value.base,
      [
        '"@authority": example.com',
        `"signature-agent";key="agent1": "${AGENT}"`,
        `"@signature-params": ${fields["signature-input"].slice("sig1=".length)}`,
      ].join("\n"),
    );
  });

  it("reads back the same base, keyid, times and directory", () => {
    const read = readSignature(requestWith("https://example.com/page?q=1", fields), 1100);
    assert.ok(read.ok);
    assert.equal(read.base, plan.value.base);
    assert.equal(read.keyid, "kid");
    assert.equal(read.signatureAgent, AGENT);
    assert.deepEqual([...read.signature], [0, 0, 0]);
  });

  it("reads the earlier Signature-Agent form, one string covered whole (web-bot-auth 0.1)", () => {
    const read = readSignature(
      requestWith("https://example.com/", {
        "signature-agent": `"${AGENT}"`,
        "signature-input":
          'sig2=("@authority" "signature-agent");created=1000;expires=1300;keyid="k";tag="web-bot-auth"',
        signature: "sig2=:AAAA:",
      }),
      1100,
    );
    assert.ok(read.ok);
    assert.equal(read.signatureAgent, AGENT);
    assert.match(read.base, /^"signature-agent": "https:/m);
  });

  const refusals: readonly (readonly [string, Record<string, string>, number, string])[] = [
    ["no fields", {}, 1100, "unsigned"],
    ["no Signature", { "signature-input": fields["signature-input"] ?? "" }, 1100, "malformed"],
    [
      "a signature of another tag",
      {
        ...fields,
        "signature-input": (fields["signature-input"] ?? "").replace("web-bot-auth", "other"),
      },
      1100,
      "unsigned",
    ],
    [
      "an uncovered Signature-Agent",
      {
        ...fields,
        "signature-input": (fields["signature-input"] ?? "").replace(
          ' "signature-agent";key="agent1"',
          "",
        ),
      },
      1100,
      "not-covered",
    ],
    [
      "no @authority",
      {
        ...fields,
        "signature-input": (fields["signature-input"] ?? "").replace('"@authority" ', ""),
      },
      1100,
      "not-covered",
    ],
    ["past expires", fields, 1300, "expired"],
    ["created ahead of the clock", fields, 900, "not-yet-valid"],
    [
      "a Signature-Agent without the covered member",
      { ...fields, "signature-agent": 'other="x"' },
      1100,
      "malformed",
    ],
    [
      "an alg other than ed25519",
      {
        ...fields,
        "signature-input": (fields["signature-input"] ?? "").replace(
          '"ed25519"',
          '"rsa-pss-sha512"',
        ),
      },
      1100,
      "malformed",
    ],
  ];
  for (const [what, given, now, reason] of refusals) {
    it(`refuses ${what}: ${reason}`, () => {
      const read = readSignature(requestWith("https://example.com/", given), now);
      assert.equal(read.ok, false);
      assert.equal(!read.ok && read.reason, reason);
    });
  }

  it(`refuses a lifetime over 24 hours (MAX_LIFETIME_S ${MAX_LIFETIME_S})`, () => {
    assert.equal(judgeTimes(0, MAX_LIFETIME_S, 10), null);
    assert.equal(judgeTimes(0, MAX_LIFETIME_S + 1, 10)?.reason, "too-long-lived");
  });
});

describe("key directories", () => {
  it("keeps Ed25519 keys, skips others, and writes public members only", () => {
    const parsed = parseKeyDirectory(
      JSON.stringify({ keys: [{ kty: "OKP", crv: "Ed25519", x: X, d: "secret" }, { kty: "RSA" }] }),
    );
    assert.ok(parsed.ok);
    assert.equal(parsed.value.keys.length, 1);
    assert.equal(parsed.value.skipped, 1);
    assert.doesNotMatch(keyDirectoryDocument(parsed.value.keys), /"d"|secret/);
  });
  it(`limit: MAX_DIRECTORY_BYTES (${MAX_DIRECTORY_BYTES}) and MAX_DIRECTORY_KEYS (${MAX_DIRECTORY_KEYS})`, () => {
    assert.equal(parseKeyDirectory(" ".repeat(MAX_DIRECTORY_BYTES + 1)).ok, false);
    const many = {
      keys: Array.from({ length: MAX_DIRECTORY_KEYS + 3 }, () => ({
        kty: "OKP",
        crv: "Ed25519",
        x: X,
      })),
    };
    const parsed = parseKeyDirectory(JSON.stringify(many));
    assert.ok(parsed.ok);
    assert.equal(parsed.value.keys.length, MAX_DIRECTORY_KEYS);
    assert.equal(parsed.value.skipped, 3);
  });
  it("a bad directory is an answer with a message", () => {
    assert.equal(parseKeyDirectory("{").ok, false);
    assert.equal(parseKeyDirectory('{"keys":1}').ok, false);
  });
  it("an origin alone means its well-known path; a URL with a path is the directory", () => {
    assert.equal(directoryUrl("https://bot.example"), AGENT);
    assert.equal(directoryUrl("https://bot.example/keys.json"), "https://bot.example/keys.json");
    assert.equal(directoryUrl("ftp://bot.example/"), null);
  });
  it("a private key's error never quotes d", () => {
    const read = readPrivateJwk({ kty: "OKP", crv: "Ed25519", x: X, d: "SECRETSECRET" }, "k.jwk");
    assert.equal(read.ok, false);
    assert.doesNotMatch(!read.ok ? read.message : "", /SECRET/);
  });
});

describe("recorded requests", () => {
  it("reads the request line and fields; repeated fields are joined", () => {
    const read = readRecordedRequest(
      "GET /a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\nX-A: 1\r\nx-a: 2\r\n\r\nbody",
      "https",
    );
    assert.ok(read.ok);
    assert.equal(read.value.url, "https://example.com:8080/a?b=1");
    assert.equal(read.value.field("x-a"), "1, 2");
    assert.equal(read.value.field("body"), null);
  });
  it("names the line at fault", () => {
    assert.match(JSON.stringify(readRecordedRequest("hello", "http")), /line 1/);
    assert.match(JSON.stringify(readRecordedRequest("GET / HTTP/1.1\nno colon", "http")), /line 2/);
    assert.match(JSON.stringify(readRecordedRequest("GET / HTTP/1.1\n", "http")), /no Host/);
  });
  it(`limit: MAX_RECORDED_HEAD_CHARS (${MAX_RECORDED_HEAD_CHARS}) and MAX_RECORDED_FIELDS (${MAX_RECORDED_FIELDS})`, () => {
    const head = (n: number) => `GET / HTTP/1.1\n${"a: b\n".repeat(n)}Host: h`;
    assert.ok(readRecordedRequest(head(MAX_RECORDED_FIELDS - 1), "http").ok);
    assert.equal(readRecordedRequest(head(MAX_RECORDED_FIELDS), "http").ok, false);
    const long = `GET / HTTP/1.1\nHost: h\nx: ${"y".repeat(MAX_RECORDED_HEAD_CHARS)}`;
    assert.equal(readRecordedRequest(long, "http").ok, false);
  });
});
