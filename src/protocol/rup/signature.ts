/**
 * The proof a report carries that it comes from the site the robot registered with. seeds/001
 * §4 counts on "a unique identification key for every web indexer" and leaves "a more robust
 * authentication protocol" a hook: heed signs each report with the registration's key. The
 * signature is `sha256=<hex>`, the HMAC-SHA256 of the report's text; its key is the SHA-256
 * (hex) of the registration key, which the robot can compute and the site keeps (never the key
 * itself). Mailed reports carry it in `X-RUP-Signature`, webhook posts sign their JSON body.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** The header a signed report or webhook post carries. */
export const SIGNATURE_HEADER = "x-rup-signature";

/** The signing secret of a registration key: its SHA-256, hex. */
export function signingSecret(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/**
 * The text as signed: line ends as LF, without trailing blank space, so that a mail's transfer
 * (CRLF lines, a final line end added or taken away) does not change what is proven.
 */
function canonical(text: string): string {
  return text.replace(/\r\n?/g, "\n").trimEnd();
}

/** `sha256=<hex>`: the HMAC-SHA256 of `body`, exactly as given, under `secret`. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

/** Whether `signature` is the one `secret` gives `body`, compared in constant time. */
export function bodySignatureMatches(body: string, signature: string, secret: string): boolean {
  const want = Buffer.from(signBody(body, secret));
  const got = Buffer.from(signature);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** A report's signature: {@link signBody} of its canonical text. */
export function signReport(text: string, secret: string): string {
  return signBody(canonical(text), secret);
}

/** Whether `signature` is the one `secret` gives the report `text`. */
export function reportSignatureMatches(text: string, signature: string, secret: string): boolean {
  return bodySignatureMatches(canonical(text), signature, secret);
}
