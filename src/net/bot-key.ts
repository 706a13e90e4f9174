/**
 * A robot's Ed25519 key for Web Bot Auth, with node:crypto: made, read from its JWK file,
 * named by its RFC 7638 thumbprint, and used to sign and check signature bases.
 *
 * The private part never leaves this file's objects: a BotKey prints as its thumbprint, its
 * errors name the file and never quote it, and nothing here logs.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";
import { readFile } from "node:fs/promises";
import {
  type PrivateJwk,
  type PublicJwk,
  readPrivateJwk,
  thumbprintInput,
} from "../protocol/web-bot-auth/index.js";

/** The `code` of an error about a key file: unreadable, not JSON, not an Ed25519 private JWK. */
export const BAD_KEY_CODE = "HEED_BAD_KEY";
/** A key file longer than this is not a JWK: read no further. */
const MAX_KEY_FILE_BYTES = 16 * 1024;

export class BotKeyError extends Error {
  readonly code = BAD_KEY_CODE;
}

/** RFC 7638: base64url of SHA-256 over the key's canonical members; the `keyid` heed signs with. */
export function jwkThumbprint(jwk: PublicJwk): string {
  return createHash("sha256").update(thumbprintInput(jwk)).digest("base64url");
}

/** A private key ready to sign. Printing it, or JSON of it, shows only the thumbprint. */
export class BotKey {
  readonly thumbprint: string;
  readonly publicJwk: PublicJwk;
  readonly #privateKey: KeyObject;

  private constructor(privateKey: KeyObject, publicJwk: PublicJwk) {
    this.#privateKey = privateKey;
    this.publicJwk = publicJwk;
    this.thumbprint = jwkThumbprint(publicJwk);
  }

  /** A fresh key pair, and the private JWK to save (mode 0600: the caller's). */
  static generate(): { key: BotKey; jwk: PrivateJwk } {
    const { privateKey } = generateKeyPairSync("ed25519");
    const jwk = privateKey.export({ format: "jwk" }) as unknown as PrivateJwk;
    const key = BotKey.fromJwk({ kty: "OKP", crv: "Ed25519", x: jwk.x, d: jwk.d });
    return { key, jwk: { kty: "OKP", crv: "Ed25519", x: jwk.x, d: jwk.d } };
  }

  static fromJwk(jwk: PrivateJwk): BotKey {
    const privateKey = createPrivateKey({ key: { ...jwk }, format: "jwk" });
    // The public half is derived, not trusted from the file: a wrong x would sign for nobody.
    const derived = createPublicKey(privateKey).export({ format: "jwk" }) as { x?: string };
    if (derived.x !== jwk.x) throw new BotKeyError("x is not the public half of d");
    return new BotKey(privateKey, { kty: "OKP", crv: "Ed25519", x: jwk.x });
  }

  /** Reads a private JWK file (as `heed keys new` writes it). */
  static async load(path: string): Promise<BotKey> {
    let text: string;
    try {
      const bytes = await readFile(path);
      if (bytes.length > MAX_KEY_FILE_BYTES) {
        throw new BotKeyError(`${path}: more than ${MAX_KEY_FILE_BYTES} bytes, not a JWK`);
      }
      text = bytes.toString("utf8");
    } catch (error) {
      if (error instanceof BotKeyError) throw error;
      throw new BotKeyError(
        `${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // JSON.parse quotes the text near the fault: that could be the private key.
      throw new BotKeyError(`${path}: not JSON`);
    }
    const jwk = readPrivateJwk(json, path);
    if (!jwk.ok) throw new BotKeyError(jwk.message);
    try {
      return BotKey.fromJwk(jwk.value);
    } catch (error) {
      const why = error instanceof BotKeyError ? error.message : "not a usable Ed25519 key";
      throw new BotKeyError(`${path}: ${why}`);
    }
  }

  /** Ed25519 over the signature base (RFC 9421 §3.3.6). */
  sign(base: string): Uint8Array {
    return sign(null, Buffer.from(base, "utf8"), this.#privateKey);
  }

  toString(): string {
    return `BotKey(${this.thumbprint})`;
  }
  toJSON(): { thumbprint: string } {
    return { thumbprint: this.thumbprint };
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** Checks an Ed25519 signature over `base` with a public JWK; false for any failure. */
export function verifyWithJwk(jwk: PublicJwk, base: string, signature: Uint8Array): boolean {
  try {
    const key = createPublicKey({ key: { ...jwk }, format: "jwk" });
    return verify(null, Buffer.from(base, "utf8"), key, signature);
  } catch {
    return false;
  }
}
