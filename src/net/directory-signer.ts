/**
 * Signing and checking a key directory's response
 * (draft-meunier-http-message-signatures-directory §5) with node:crypto: the robot's owner signs
 * the directory with each key it lists; a verifier believes a signed directory only when the
 * signatures by its listed keys hold.
 */
import { type BotKey, jwkThumbprint, verifyWithJwk } from "./bot-key.js";
import {
  DEFAULT_LIFETIME_S,
  type KeyDirectory,
  type MessageRequest,
  planDirectorySignatures,
  readDirectorySignatures,
  type Refusal,
  refusal,
} from "../protocol/web-bot-auth/index.js";

/**
 * `Signature-Input` and `Signature` for a directory answered at `url` (the request's own
 * authority), one signature per key, holding {@link DEFAULT_LIFETIME_S} from `nowMs`.
 */
export function signDirectoryResponse(
  keys: readonly BotKey[],
  url: string,
  nowMs: number,
): Readonly<Record<string, string>> {
  const created = Math.floor(nowMs / 1000);
  const planned = planDirectorySignatures(
    { method: "GET", url, field: () => null },
    keys.map((k) => k.thumbprint),
    { created, expires: created + DEFAULT_LIFETIME_S },
  );
  // The plan only fails for a URL that is not one; the server builds it from its own Host.
  if (!planned.ok) return {};
  return planned.value.fields(keys.map((key, i) => key.sign(planned.value.plans[i]?.base ?? "")));
}

/**
 * Whether a fetched directory's response signatures hold: `signed` false when it carries
 * none; refused when one fails, or when none is by a key the directory lists.
 */
export function checkDirectorySignatures(
  response: MessageRequest,
  directory: KeyDirectory,
  nowMs: number,
): { readonly ok: true; readonly signed: boolean } | Refusal {
  const read = readDirectorySignatures(response, Math.floor(nowMs / 1000));
  if (!read.ok) return read;
  if (read.signatures.length === 0) return { ok: true, signed: false };
  const listed = new Map(directory.keys.map((k) => [jwkThumbprint(k), k]));
  let byListed = 0;
  for (const signature of read.signatures) {
    const key = listed.get(signature.keyid);
    // A signature by a key the directory does not list proves nothing; it is not counted.
    if (key === undefined) continue;
    if (!verifyWithJwk(key, signature.base, signature.signature)) {
      return refusal(
        "directory-bad-signature",
        `directory signature ${signature.label} by ${signature.keyid} does not match`,
      );
    }
    byListed += 1;
  }
  if (byListed === 0) {
    return refusal(
      "directory-bad-signature",
      "the directory is signed by none of the keys it lists",
    );
  }
  return { ok: true, signed: true };
}
