/**
 * Ed25519 keys as JWK (RFC 8037 §2) and the key directory a robot's owner publishes
 * (draft-meunier-http-message-signatures-directory: a JWK Set at
 * `/.well-known/http-message-signatures-directory`). Pure: hashing the thumbprint input is the
 * caller's (RFC 7638 §3: SHA-256 of the canonical JSON below, base64url).
 */
import { base64Decode, type Parsed } from "./structured-fields.js";

/** The directory's path on the agent's origin. */
export const DIRECTORY_PATH = "/.well-known/http-message-signatures-directory";
/** Its media type. */
export const DIRECTORY_MEDIA_TYPE = "application/http-message-signatures-directory+json";
/** A directory longer than this is refused: a few keys take a few hundred bytes. */
export const MAX_DIRECTORY_BYTES = 64 * 1024;
/** Keys read from one directory; the rest are ignored (rotation needs two or three). */
export const MAX_DIRECTORY_KEYS = 32;

/** An Ed25519 public key as JWK. */
export interface PublicJwk {
  readonly kty: "OKP";
  readonly crv: "Ed25519";
  readonly x: string;
}

/** The private JWK heed writes: the public members and `d`. */
export interface PrivateJwk extends PublicJwk {
  readonly d: string;
}

/** RFC 7638 §3.2 and RFC 8037 §2: the members, in order, with no white space. */
export function thumbprintInput(jwk: PublicJwk): string {
  return `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}"}`;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * An Ed25519 public JWK from parsed JSON, or why not. `what` names it in the message
 * (`the key file k.jwk`, `key 2 of the directory`).
 */
export function readPublicJwk(value: unknown, what: string): Parsed<PublicJwk> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: `${what}: expected a JSON object` };
  }
  const jwk = value as Record<string, unknown>;
  if (jwk["kty"] !== "OKP" || jwk["crv"] !== "Ed25519") {
    return { ok: false, message: `${what}: expected kty "OKP" and crv "Ed25519"` };
  }
  const x = jwk["x"];
  if (typeof x !== "string" || !BASE64URL.test(x) || base64Decode(x).length !== 32) {
    return { ok: false, message: `${what}: x is not a 32-byte base64url value` };
  }
  return { ok: true, value: { kty: "OKP", crv: "Ed25519", x } };
}

/** A private Ed25519 JWK (`d` too), or why not. */
export function readPrivateJwk(value: unknown, what: string): Parsed<PrivateJwk> {
  const pub = readPublicJwk(value, what);
  if (!pub.ok) return pub;
  const d = (value as Record<string, unknown>)["d"];
  if (typeof d !== "string" || !BASE64URL.test(d) || base64Decode(d).length !== 32) {
    // The message never quotes `d`: a private key must not reach a terminal or a log.
    return { ok: false, message: `${what}: not a private key (d is missing or not 32 bytes)` };
  }
  return { ok: true, value: { ...pub.value, d } };
}

export interface KeyDirectory {
  readonly keys: readonly PublicJwk[];
  /** Entries that are not Ed25519 keys, or beyond {@link MAX_DIRECTORY_KEYS}: not used. */
  readonly skipped: number;
}

/** A directory document (`{"keys": [...]}`); entries of other key types are skipped. */
export function parseKeyDirectory(text: string): Parsed<KeyDirectory> {
  if (text.length > MAX_DIRECTORY_BYTES) {
    return { ok: false, message: `longer than ${MAX_DIRECTORY_BYTES} bytes` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `not JSON: ${(error as Error).message}` };
  }
  const list = (json as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) return { ok: false, message: 'expected an object with a "keys" array' };
  const keys: PublicJwk[] = [];
  for (const [index, entry] of list.entries()) {
    if (keys.length === MAX_DIRECTORY_KEYS) break;
    const key = readPublicJwk(entry, `key ${index + 1}`);
    if (key.ok) keys.push(key.value);
  }
  return { ok: true, value: { keys, skipped: list.length - keys.length } };
}

/** The directory document for `keys`: public members only, whatever the input held. */
export function keyDirectoryDocument(keys: readonly PublicJwk[]): string {
  const entries = keys.map((k) => ({ kty: k.kty, crv: k.crv, x: k.x }));
  return `${JSON.stringify({ keys: entries }, null, 2)}\n`;
}

/**
 * Where a Signature-Agent's directory is: a URL with a path is the directory itself; an
 * origin alone (`https://bot.example`) means its well-known path. Null when not http(s).
 */
export function directoryUrl(signatureAgent: string): string | null {
  let url: URL;
  try {
    url = new URL(signatureAgent);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  url.hash = "";
  if (url.pathname === "/" && url.search === "") url.pathname = DIRECTORY_PATH;
  return url.href;
}
