/**
 * The news site's users and sessions (seeds/003 §4.1: readers comment after logging in, the
 * news release page is for an administrator). Passwords are kept only as scrypt hashes;
 * sessions are random tokens in a cookie. In memory, bounded.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import {
  MAX_PASSWORD_CHARS,
  MAX_SESSIONS,
  MAX_USER_CHARS,
  MAX_USERS,
  MIN_PASSWORD_CHARS,
} from "./limits.js";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
) => Promise<Buffer>;

const KEY_BYTES = 32;
const USER_PATTERN = /^[A-Za-z0-9_]+$/;

interface Account {
  readonly salt: Buffer;
  readonly hash: Buffer;
  readonly admin: boolean;
}

export interface SessionUser {
  readonly name: string;
  readonly admin: boolean;
}

export type AccountResult =
  | { readonly ok: true; readonly user: SessionUser }
  | { readonly ok: false; readonly message: string };

/** Why a user name or password cannot be used, or null when it can. */
export function credentialProblem(user: string, password: string): string | null {
  if (user === "" || user.length > MAX_USER_CHARS || !USER_PATTERN.test(user))
    return `user: expected 1 to ${MAX_USER_CHARS} letters, digits or "_"`;
  if (password.length < MIN_PASSWORD_CHARS || password.length > MAX_PASSWORD_CHARS)
    return `password: expected ${MIN_PASSWORD_CHARS} to ${MAX_PASSWORD_CHARS} characters`;
  return null;
}

export class Accounts {
  private readonly users = new Map<string, Account>();
  /** Token → user name, oldest first (a Map keeps insertion order). */
  private readonly sessions = new Map<string, string>();

  /** Adds a user; the administrator is made this way at startup. */
  async register(user: string, password: string, admin = false): Promise<AccountResult> {
    const problem = credentialProblem(user, password);
    if (problem !== null) return { ok: false, message: problem };
    const key = user.toLowerCase();
    if (this.users.has(key)) return { ok: false, message: `user: "${user}" is taken` };
    if (this.users.size >= MAX_USERS)
      return { ok: false, message: `the site has its ${MAX_USERS} users; no more can register` };
    const salt = randomBytes(16);
    // Asked again once hashed: another registration of the name may have finished meanwhile.
    const hash = await scryptAsync(password, salt, KEY_BYTES);
    if (this.users.has(key)) return { ok: false, message: `user: "${user}" is taken` };
    this.users.set(key, { salt, hash, admin });
    return { ok: true, user: { name: user, admin } };
  }

  async login(user: string, password: string): Promise<AccountResult> {
    const account = this.users.get(user.toLowerCase());
    const refused: AccountResult = { ok: false, message: "unknown user or wrong password" };
    if (account === undefined || password.length > MAX_PASSWORD_CHARS) return refused;
    const hash = await scryptAsync(password, account.salt, KEY_BYTES);
    if (!timingSafeEqual(hash, account.hash)) return refused;
    return { ok: true, user: { name: user, admin: account.admin } };
  }

  /** A new session for a logged-in user; its token goes in the cookie. */
  open(user: SessionUser): string {
    const token = randomBytes(18).toString("base64url");
    this.sessions.set(token, user.name);
    while (this.sessions.size > MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    return token;
  }

  close(token: string): void {
    this.sessions.delete(token);
  }

  /** The user of a session token, or null. */
  user(token: string | null): SessionUser | null {
    if (token === null) return null;
    const name = this.sessions.get(token);
    if (name === undefined) return null;
    const account = this.users.get(name.toLowerCase());
    return account === undefined ? null : { name, admin: account.admin };
  }
}
