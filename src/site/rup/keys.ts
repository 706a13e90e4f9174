/**
 * Registration keys (seeds/001 §3.1.2, §4: "a unique identification key for every web
 * indexer"): 32 random bytes, shown once, stored as their SHA-256 and compared in constant time.
 * A key of 256 random bits needs no slow hash: there is nothing to guess from its digest.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { signingSecret } from "../../protocol/rup/index.js";

export function newKey(): string {
  return randomBytes(32).toString("base64url");
}

/** The stored digest: also the secret the site signs reports with (protocol/rup/signature.ts). */
export const hashKey = signingSecret;

/** Whether `key` is the one whose digest is `stored`; the time taken does not depend on where they differ. */
export function keyMatches(key: string, stored: string): boolean {
  const a = Buffer.from(hashKey(key), "hex");
  const b = Buffer.from(stored, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
