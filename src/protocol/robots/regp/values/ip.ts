/**
 * IP addresses and the patterns of `Ip-allow` / `Ip-disallow` (seeds/003 §3.2.4).
 *
 * The paper writes IPv4 "with the conventions of RFC791 … four decimal numbers between 0 and 255
 * separated by dot. Each number can be replaced with the wildcard `*`", and a lone `*` for any
 * address; its grammar (Appendix, `ipaddress`) also names IPv6 (RFC 2373). heed accepts CIDR
 * prefixes for both families too (DESIGN §4). Everything here is written by hand: `protocol/`
 * imports no `node:` module, so `node:net` is not available.
 */
import { fail, ok, type ValueResult } from "./result.js";
import { got, show } from "./text.js";

/** A concrete address: 4 bytes for IPv4, 16 for IPv6, most significant first. */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: readonly number[];
}

/** One IPv4 octet of a wildcard pattern: a number, or `*` for any. */
export type Octet = number | "*";

export type IpPattern =
  /** `*`: every address (seeds/003 §3.2.4 "`*` can be used to indicate any IP address"). */
  | { readonly kind: "any" }
  /** IPv4 with at least one `*` octet: `222.69.212.*`, `222.69.*.*`. */
  | { readonly kind: "octets"; readonly octets: readonly Octet[] }
  /** One exact address of either family. */
  | { readonly kind: "address"; readonly address: IpAddress }
  /**
   * `10.0.0.0/8`, `2001:db8::/32`. The address is kept as written, host bits and all, so that
   * the value writes back unchanged; only the first `prefix` bits take part in matching.
   */
  | { readonly kind: "cidr"; readonly address: IpAddress; readonly prefix: number };

/** A robot's own address: dotted quad, or IPv6 (with `::` and a trailing dotted quad), bracketed or not. */
export function parseIp(text: string): ValueResult<IpAddress> {
  const t = text.trim();
  if (t === "") return fail(`expected an IPv4 or IPv6 address, got ${got(t)}`);
  const inner = unbracket(t);
  if (!inner.ok) return inner;
  return parseBare(inner.value, false);
}

/** An `Ip-allow` / `Ip-disallow` value: `*`, IPv4 with `*` octets, an address, or a CIDR prefix. */
export function parseIpPattern(text: string): ValueResult<IpPattern> {
  const t = text.trim();
  if (t === "")
    return fail(
      `expected an IP pattern ("*", 222.69.*.*, an address or a CIDR prefix), got ${got(t)}`,
    );
  if (t === "*") return ok({ kind: "any" });
  const slash = t.lastIndexOf("/");
  if (slash >= 0) return parseCidr(t, slash);
  const inner = unbracket(t);
  if (!inner.ok) return inner;
  const body = inner.value;
  if (!body.includes(":") && body.includes("*")) {
    const octets = parseIpv4(body, true);
    if (!octets.ok) return octets;
    return ok({ kind: "octets", octets: octets.value });
  }
  const address = parseBare(body, false);
  if (!address.ok) return address;
  return ok({ kind: "address", address: address.value });
}

/**
 * Does the pattern admit the robot's address? An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`,
 * RFC 4291 §2.5.5.2) is the IPv4 address it carries, so it meets IPv4 patterns; an IPv4 address
 * meets IPv6 patterns in its mapped form. Other IPv6 addresses never meet IPv4 patterns.
 */
export function ipMatches(pattern: IpPattern, address: IpAddress): boolean {
  switch (pattern.kind) {
    case "any":
      return true;
    case "octets": {
      const v4 = asIpv4(address);
      return v4 !== null && pattern.octets.every((o, i) => o === "*" || o === v4[i]);
    }
    case "address":
      return prefixMatches(pattern.address, pattern.address.family === 4 ? 32 : 128, address);
    case "cidr":
      return prefixMatches(pattern.address, pattern.prefix, address);
  }
}

/** The address in its usual text: dotted quad, or RFC 5952 IPv6 (mapped addresses end dotted, §5). */
export function formatIp(address: IpAddress): string {
  const b = address.bytes;
  if (address.family === 4) return b.join(".");
  const mapped = asIpv4(address);
  if (mapped !== null) return `::ffff:${mapped.join(".")}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] ?? 0) << 8) | (b[i + 1] ?? 0));
  // RFC 5952 §4.2: shorten the longest run of two or more zero groups, the first on a tie.
  let bestAt = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestAt = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(":");
  if (bestAt < 0) return hex(groups);
  return `${hex(groups.slice(0, bestAt))}::${hex(groups.slice(bestAt + bestLength))}`;
}

/** Writes a pattern back so that `parseIpPattern(formatIpPattern(p))` equals `p`. */
export function formatIpPattern(pattern: IpPattern): string {
  switch (pattern.kind) {
    case "any":
      return "*";
    case "octets":
      return pattern.octets.join(".");
    case "address":
      return formatIp(pattern.address);
    case "cidr":
      return `${formatIp(pattern.address)}/${pattern.prefix}`;
  }
}

/** The four IPv4 bytes an address stands for (itself, or the tail of `::ffff:a.b.c.d`), else null. */
export function asIpv4(address: IpAddress): readonly number[] | null {
  const b = address.bytes;
  if (address.family === 4) return b;
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return null;
  if (b[10] !== 0xff || b[11] !== 0xff) return null;
  return b.slice(12);
}

function parseCidr(t: string, slash: number): ValueResult<IpPattern> {
  const addressText = t.slice(0, slash).trim();
  const prefixText = t.slice(slash + 1).trim();
  const inner = unbracket(addressText);
  if (!inner.ok) return inner;
  if (inner.value.includes("*")) {
    return fail(
      `expected a concrete address before a CIDR "/", got the wildcard ${show(addressText)}`,
    );
  }
  const address = parseBare(inner.value, false);
  if (!address.ok) return address;
  const max = address.value.family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) {
    return fail(
      `expected a CIDR prefix length 0-${max} after "/", got ${got(prefixText)} in ${show(t)}`,
    );
  }
  return ok({ kind: "cidr", address: address.value, prefix: Number(prefixText) });
}

// `[2001:db8::1]` as in URLs (RFC 3986 §3.2.2); brackets hold IPv6 only.
function unbracket(t: string): ValueResult<string> {
  const opens = t.startsWith("[");
  const closes = t.endsWith("]");
  if (opens !== closes)
    return fail(`expected balanced "[" and "]" around an IPv6 address, got ${show(t)}`);
  if (!opens) return ok(t);
  const inner = t.slice(1, -1).trim();
  if (!inner.includes(":")) return fail(`expected an IPv6 address inside "[ ]", got ${show(t)}`);
  return ok(inner);
}

function parseBare(t: string, allowStar: boolean): ValueResult<IpAddress> {
  if (t.includes(":")) return parseIpv6(t);
  const octets = parseIpv4(t, allowStar);
  if (!octets.ok) return octets;
  return ok({ family: 4, bytes: octets.value as number[] });
}

/** Four dotted decimal octets (RFC 791 §3.2 notation); with `allowStar`, `*` for any octet. */
function parseIpv4(t: string, allowStar: boolean): ValueResult<Octet[]> {
  const parts = t.split(".");
  const what = allowStar ? `a number 0-255 or "*"` : "a number 0-255";
  if (parts.length !== 4) {
    // seeds/003 §3.2.4 prints `222.69..**` (typesetting ate the `*.`): name the likely intent.
    const hint = t.includes("..") ? `; ".." leaves an octet empty, write "*" for any octet` : "";
    return fail(`expected 4 dot-separated octets, got ${parts.length} in ${show(t)}${hint}`);
  }
  const octets: Octet[] = [];
  for (let i = 0; i < 4; i++) {
    const part = parts[i] as string;
    if (part === "") {
      const why = t.includes("..") ? `: ".." leaves an octet empty` : "";
      const fix = allowStar ? `; write "*" for any octet, as in 222.69.*.*` : "";
      return fail(`expected ${what} for octet ${i + 1}, got nothing in ${show(t)}${why}${fix}`);
    }
    if (allowStar && part === "*") {
      octets.push("*");
      continue;
    }
    if (!/^\d{1,3}$/.test(part))
      return fail(`expected ${what} for octet ${i + 1}, got ${show(part)} in ${show(t)}`);
    // `010` is 8 to inet_aton (octal) and 10 to others: refuse rather than guess.
    if (part.length > 1 && part.startsWith("0")) {
      return fail(
        `expected octet ${i + 1} without a leading zero (read as octal by some systems), got ${show(part)} in ${show(t)}`,
      );
    }
    const n = Number(part);
    if (n > 255) return fail(`expected ${what} for octet ${i + 1}, got ${n} in ${show(t)}`);
    octets.push(n);
  }
  return ok(octets);
}

/** RFC 4291 §2.2 text forms: eight groups, one `::` for a run of zero groups, a dotted quad last. */
function parseIpv6(t: string): ValueResult<IpAddress> {
  if (t.includes("%")) return fail(`expected an IPv6 address without a zone index, got ${show(t)}`);
  if (!/^[0-9A-Fa-f:.]+$/.test(t)) {
    const bad = /[^0-9A-Fa-f:.]/.exec(t)?.[0] ?? "";
    return fail(
      `expected hex digits, ":" and "." in an IPv6 address, got ${show(bad)} in ${show(t)}`,
    );
  }
  const gap = t.indexOf("::");
  if (gap >= 0 && t.indexOf("::", gap + 1) >= 0) {
    return fail(`expected at most one "::" in an IPv6 address, got ${show(t)}`);
  }
  const headText = gap < 0 ? t : t.slice(0, gap);
  const tailText = gap < 0 ? "" : t.slice(gap + 2);
  const head = headText === "" ? [] : headText.split(":");
  const tail = tailText === "" ? [] : tailText.split(":");
  const all = [...head, ...tail];
  const bytes: number[] = [];
  const headBytes: number[] = [];
  for (let i = 0; i < all.length; i++) {
    const group = all[i] as string;
    const target = i < head.length ? headBytes : bytes;
    if (group.includes(".")) {
      if (i !== all.length - 1) {
        return fail(
          `expected a dotted IPv4 part only at the end of an IPv6 address, got ${show(group)} in ${show(t)}`,
        );
      }
      const v4 = parseIpv4(group, false);
      if (!v4.ok) return fail(`${v4.error} (the IPv4 tail of ${show(t)})`);
      target.push(...(v4.value as number[]));
      continue;
    }
    if (!/^[0-9A-Fa-f]{1,4}$/.test(group)) {
      return fail(`expected 1-4 hex digits per IPv6 group, got ${got(group)} in ${show(t)}`);
    }
    const n = Number.parseInt(group, 16);
    target.push(n >> 8, n & 0xff);
  }
  const written = headBytes.length + bytes.length;
  if (gap < 0) {
    if (written !== 16) {
      return fail(
        `expected 8 groups in an IPv6 address without "::", got ${written / 2} in ${show(t)}`,
      );
    }
  } else if (written > 14) {
    return fail(
      `expected "::" to stand for at least one zero group, got ${written / 2} groups besides it in ${show(t)}`,
    );
  }
  const zeros = new Array<number>(16 - written).fill(0);
  return ok({ family: 6, bytes: [...headBytes, ...zeros, ...bytes] });
}

function prefixMatches(base: IpAddress, prefix: number, address: IpAddress): boolean {
  const candidate = base.family === 4 ? asIpv4(address) : asIpv6Bytes(address);
  if (candidate === null) return false;
  const full = Math.floor(prefix / 8);
  for (let i = 0; i < full; i++) if (base.bytes[i] !== candidate[i]) return false;
  const rest = prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (((base.bytes[full] ?? 0) ^ (candidate[full] ?? 0)) & mask) === 0;
}

function asIpv6Bytes(address: IpAddress): readonly number[] {
  if (address.family === 6) return address.bytes;
  return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...address.bytes];
}
