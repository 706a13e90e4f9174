/**
 * `--agent NAME`: the robot's name token, as robots.txt matches it. A User-Agent string
 * (`MyBot/1.0 (+https://…)`) gives its product token; a name with a space is refused, not cut:
 * `My Bot` would be read as `My` (RFC 9309 §2.2.1: a product token is one word).
 */
import { productToken } from "../protocol/robots/index.js";
import { CliError } from "./errors.js";

const TOKEN = /^[A-Za-z0-9_-]+$/;

export function agentToken(given: string): string {
  const trimmed = given.trim();
  const token = productToken(trimmed);
  const beforeSlash = trimmed.split("/")[0] ?? "";
  if (/\s/.test(beforeSlash))
    throw new CliError(
      `--agent: expected one name token of letters, digits, "-" and "_", got "${given}" ` +
        `(robots.txt would read it as "${token}"); write it as one word, such as "${beforeSlash.replace(/\s+/g, "-")}"`,
    );
  if (!TOKEN.test(token))
    throw new CliError(
      `--agent: expected a name token of letters, digits, "-" and "_", got "${given}"`,
    );
  return token;
}
