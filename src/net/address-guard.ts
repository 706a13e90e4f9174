/**
 * The SSRF guard: a robot that fetches whatever URLs pages hand it must not be turned against the
 * machines beside it (a router's admin page, a cloud metadata endpoint at 169.254.169.254, a
 * database on localhost). By default heed refuses to connect to any address that is not globally
 * reachable.
 *
 * The check happens at connect time, on the address the socket is about to use: names go through
 * a guarded DNS lookup that drops refused addresses before `net.connect` sees them, IP literals are
 * checked before connecting, and the peer address of every new socket is checked once more. A name
 * that resolves to a public address when a page is parsed and to 127.0.0.1 when it is fetched (DNS
 * rebinding) therefore gains nothing: there is no earlier check to fool.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { isIP, isIPv4, isIPv6, type LookupFunction } from "node:net";
import type { buildConnector } from "undici";

/** The stable `code` of the error a refused connection fails with. */
export const BLOCKED_ADDRESS_CODE = "HEED_BLOCKED_ADDRESS";

export type AddressVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly range: string };

interface Range4 {
  readonly base: number;
  readonly bits: number;
  readonly name: string;
}

function range4(cidr: string, name: string): Range4 {
  const [address = "", bits = ""] = cidr.split("/");
  const base = parseIPv4(address);
  if (base === null) throw new Error(`bad built-in range ${cidr}`);
  return { base, bits: Number(bits), name: `${name} (${cidr})` };
}

/**
 * IPv4 ranges that are not globally reachable (IANA IPv4 Special-Purpose Address Registry,
 * RFC 6890), plus multicast and the reserved class E block.
 */
const BLOCKED_V4: readonly Range4[] = [
  range4("0.0.0.0/8", "unspecified / this network, RFC 1122"),
  range4("10.0.0.0/8", "private, RFC 1918"),
  range4("100.64.0.0/10", "shared address space (carrier-grade NAT), RFC 6598"),
  range4("127.0.0.0/8", "loopback, RFC 1122"),
  range4("169.254.0.0/16", "link-local, RFC 3927"),
  range4("172.16.0.0/12", "private, RFC 1918"),
  range4("192.0.0.0/24", "IETF protocol assignments, RFC 6890"),
  range4("192.0.2.0/24", "documentation, RFC 5737"),
  range4("192.88.99.0/24", "6to4 relay anycast, RFC 7526"),
  range4("192.168.0.0/16", "private, RFC 1918"),
  range4("198.18.0.0/15", "benchmarking, RFC 2544"),
  range4("198.51.100.0/24", "documentation, RFC 5737"),
  range4("203.0.113.0/24", "documentation, RFC 5737"),
  range4("224.0.0.0/4", "multicast, RFC 5771"),
  range4("240.0.0.0/4", "reserved and broadcast, RFC 1112"),
];

interface Range6 {
  readonly prefix: readonly number[];
  readonly bits: number;
  readonly name: string;
}

function range6(cidr: string, name: string): Range6 {
  const [address = "", bits = ""] = cidr.split("/");
  const bytes = parseIPv6(address);
  if (bytes === null) throw new Error(`bad built-in range ${cidr}`);
  return { prefix: [...bytes], bits: Number(bits), name: `${name} (${cidr})` };
}

/**
 * IPv6 ranges that are not globally reachable (IANA IPv6 Special-Purpose Address Registry).
 * IPv4-mapped, NAT64 and 6to4 addresses are judged by the IPv4 address inside them, before
 * this table is consulted.
 */
const BLOCKED_V6: readonly Range6[] = [
  range6("::/128", "unspecified, RFC 4291"),
  range6("::1/128", "loopback, RFC 4291"),
  range6("::/96", "IPv4-compatible (deprecated), RFC 4291"),
  range6("64:ff9b:1::/48", "local-use NAT64, RFC 8215"),
  range6("100::/64", "discard-only, RFC 6666"),
  range6("2001:db8::/32", "documentation, RFC 3849"),
  range6("fc00::/7", "unique-local, RFC 4193"),
  range6("fe80::/10", "link-local, RFC 4291"),
  range6("fec0::/10", "site-local (deprecated), RFC 3879"),
  range6("ff00::/8", "multicast, RFC 4291"),
];

/** Whether a robot may connect to this IP address. Anything that is not an IP address is refused. */
export function checkAddress(address: string): AddressVerdict {
  const text = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  if (isIPv4(text)) {
    const value = parseIPv4(text);
    return value === null ? { allowed: false, range: "not an IP address" } : check4(value);
  }
  if (isIPv6(text)) {
    const bytes = parseIPv6(text);
    return bytes === null ? { allowed: false, range: "not an IP address" } : check6(bytes);
  }
  return { allowed: false, range: "not an IP address" };
}

function check4(value: number): AddressVerdict {
  for (const range of BLOCKED_V4) {
    const mask = range.bits === 0 ? 0 : (~0 << (32 - range.bits)) >>> 0;
    if ((value & mask) >>> 0 === (range.base & mask) >>> 0) {
      return { allowed: false, range: range.name };
    }
  }
  return { allowed: true };
}

function check6(bytes: Uint8Array): AddressVerdict {
  const embedded = embeddedIPv4(bytes);
  if (embedded !== null) {
    const inner = check4(embedded.value);
    return inner.allowed ? inner : { allowed: false, range: `${embedded.kind} ${inner.range}` };
  }
  for (const range of BLOCKED_V6) {
    if (matchesPrefix(bytes, range.prefix, range.bits))
      return { allowed: false, range: range.name };
  }
  return { allowed: true };
}

/** IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address. */
function embeddedIPv4(bytes: Uint8Array): { kind: string; value: number } | null {
  const word = (i: number) => ((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0);
  const v4At = (i: number) =>
    (((bytes[i] ?? 0) << 24) |
      ((bytes[i + 1] ?? 0) << 16) |
      ((bytes[i + 2] ?? 0) << 8) |
      (bytes[i + 3] ?? 0)) >>>
    0;
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
  if (zeros(0, 10) && word(10) === 0xffff) return { kind: "IPv4-mapped", value: v4At(12) };
  if (word(0) === 0x0064 && word(2) === 0xff9b && zeros(4, 12)) {
    return { kind: "NAT64", value: v4At(12) };
  }
  if (word(0) === 0x2002) return { kind: "6to4", value: v4At(2) };
  return null;
}

function matchesPrefix(bytes: Uint8Array, prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    const i = bit / 8;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** Dotted-decimal IPv4 (exactly four decimal octets, no leading zeros) as an unsigned number. */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** An IPv6 address (with `::`, an embedded dotted quad, or a `%zone`) as 16 bytes. */
export function parseIPv6(text: string): Uint8Array | null {
  let rest = text;
  const zone = rest.indexOf("%");
  if (zone >= 0) rest = rest.slice(0, zone);
  const lastColon = rest.lastIndexOf(":");
  if (lastColon < 0) return null;
  const last = rest.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIPv4(last);
    if (v4 === null) return null;
    rest = `${rest.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = rest.split("::");
  if (halves.length > 2) return null;
  const split = (part: string | undefined) => (part ? part.split(":") : []);
  const head = split(halves[0]);
  const tail = split(halves[1]);
  let groups: string[];
  if (halves.length === 1) {
    if (head.length !== 8) return null;
    groups = head;
  } else {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    groups = [...head, ...Array.from({ length: missing }, () => "0"), ...tail];
  }
  const bytes = new Uint8Array(16);
  for (const [index, group] of groups.entries()) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    const value = Number.parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  }
  return bytes;
}

/** The error a refused connection fails with; `code` is {@link BLOCKED_ADDRESS_CODE}. */
export class BlockedAddressError extends Error {
  readonly code = BLOCKED_ADDRESS_CODE;
  readonly host: string;
  readonly address: string;
  readonly range: string;
  constructor(host: string, address: string, range: string) {
    super(
      host === address
        ? `refusing to connect to ${address}: ${range}`
        : `refusing to connect to ${host} at ${address}: ${range}`,
    );
    this.name = "BlockedAddressError";
    this.host = host;
    this.address = address;
    this.range = range;
  }
}

/** What {@link guardLookup} asks for addresses: `dns.lookup` with `all: true`, or a stand-in. */
export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: Resolver = (hostname, options, callback) =>
  dnsLookup(hostname, options, callback);

/**
 * A `lookup` hook for `net.connect` that drops the addresses {@link checkAddress} refuses; when
 * none is left it fails with a {@link BlockedAddressError}. `net.connect` connects to what the
 * hook returns, so the address checked is the address connected to, on every connection.
 */
export function guardLookup(resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, "", 0);
        return;
      }
      const allowed = addresses.filter((entry) => checkAddress(entry.address).allowed);
      const first = allowed[0];
      if (first === undefined) {
        const refused = addresses[0];
        const verdict = refused ? checkAddress(refused.address) : undefined;
        const range = verdict && !verdict.allowed ? verdict.range : "no address";
        callback(new BlockedAddressError(hostname, refused?.address ?? "(none)", range), "", 0);
        return;
      }
      if (options.all === true) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}

/** {@link guardLookup} over the system resolver. */
export const guardedLookup: LookupFunction = guardLookup();

/**
 * Wraps an undici connector (built with {@link guardedLookup} as its `lookup`) so that IP
 * literals are checked before connecting and every new socket's peer address after.
 */
export function guardConnector(base: buildConnector.connector): buildConnector.connector {
  return (options, callback) => {
    const host = options.hostname;
    if (isIP(unbracket(host)) !== 0) {
      const verdict = checkAddress(host);
      if (!verdict.allowed) {
        const error = new BlockedAddressError(host, unbracket(host), verdict.range);
        queueMicrotask(() => callback(error, null));
        return;
      }
    }
    base(options, (error, socket) => {
      if (error !== null) {
        callback(error, null);
        return;
      }
      const peer = socket.remoteAddress;
      const verdict: AddressVerdict =
        peer === undefined ? { allowed: false, range: "no peer address" } : checkAddress(peer);
      if (!verdict.allowed) {
        socket.destroy();
        callback(new BlockedAddressError(host, peer ?? "(unknown)", verdict.range), null);
        return;
      }
      callback(null, socket);
    });
  };
}

/**
 * Whether a host the user named is this machine or a private network: naming one is asking for
 * it, so the guard (which is for hosts a crawl or a redirect comes upon) lets the command reach it.
 */
export function isPrivateHost(hostname: string): boolean {
  const bare = unbracket(hostname);
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  return isIP(bare) !== 0 && !checkAddress(bare).allowed;
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
