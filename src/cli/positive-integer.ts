/** Reads a flag's value as a positive whole number, or says what it expected. */
import { CliError } from "./errors.js";

export function positiveInteger(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0)
    throw new CliError(`${flag}: expected a positive whole number, got "${text}"`);
  return n;
}
