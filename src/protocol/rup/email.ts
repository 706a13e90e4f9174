/**
 * The robot's e-mail address (seeds/001 §3.1.2: "a valid e-mail address"). heed accepts the
 * common form `local@domain` of RFC 5321 §4.1.2 without quoted local parts or address literals:
 * dot-atom local part, a domain of dot-separated labels. Anything else is refused, not guessed.
 */
import { MAX_EMAIL_LENGTH } from "./limits.js";

const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** Null when valid, else what is wrong with it. */
export function emailProblem(address: string): string | null {
  if (address.length > MAX_EMAIL_LENGTH) return `longer than ${MAX_EMAIL_LENGTH} characters`;
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return "expected local@domain";
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  // RFC 5321 §4.5.3.1.1: a local part is at most 64 octets.
  if (local.length > 64) return "the part before @ is longer than 64 characters";
  if (!LOCAL.test(local)) return `"${local}" is not a valid local part`;
  if (!domain.split(".").every((label) => LABEL.test(label)))
    return `"${domain}" is not a valid domain`;
  return null;
}
