/**
 * Which network a client address belongs to, for limits that a sender must not escape by
 * rotating addresses: an IPv4 address counts by its /24, an IPv6 address by its /64 (the
 * smallest block one subscriber is usually given: RFC 6177). IPv4-mapped IPv6 counts as IPv4.
 */
import { isIPv4, isIPv6 } from "node:net";

/** `203.0.113.0/24`, `2001:db8:0:1::/64`; anything unreadable is its own network. */
export function networkOf(address: string): string {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  const v4 = mapped?.[1] ?? bare;
  if (isIPv4(v4)) return `${v4.split(".").slice(0, 3).join(".")}.0/24`;
  if (!isIPv6(bare)) return bare;
  const groups = expandIPv6(bare);
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as hex without the "::" shorthand. */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  // A trailing dotted quad (`::1.2.3.4`) is two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad !== null) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right];
}
