/**
 * `Mirror-site` (seeds/003 §3.2.11) and `Host` (§3.2.13) values: "a host using the conventions
 * of RFC1738", i.e. `host[:port]` where host is a DNS name or an IPv4 address (RFC 1738 §3.1),
 * and, as URLs now allow (RFC 3986 §3.2.2), a bracketed IPv6 address.
 *
 * Site owners often write a URL instead (`Host: https://www.example.com/`, as Yandex documents
 * for HTTPS mirrors). heed accepts an `http://` or `https://` in front and one `/` behind, and
 * keeps the scheme in the value, since it says which protocol the mirror speaks; anything after
 * the host other than that `/` is refused.
 */
import { formatIp, parseIp } from "./ip.js";
import { fail, ok, type ValueResult } from "./result.js";
import { got, show } from "./text.js";

export interface HostName {
  /** The scheme written in front, or null for a bare host. */
  readonly scheme: "http" | "https" | null;
  readonly kind: "dns" | "ipv4" | "ipv6";
  /** Lower-cased DNS name (no final dot), dotted IPv4, or RFC 5952 IPv6 without brackets. */
  readonly host: string;
  /** 1-65535, or null when none is written. */
  readonly port: number | null;
}

/** RFC 1035 §2.3.4 and RFC 1123 §2.1: labels of at most 63 octets, names of at most 253 characters. */
export const MAX_LABEL_LENGTH = 63;
export const MAX_HOST_LENGTH = 253;

/** `www.example.com`, `www.example.com:8080`, `192.0.2.1`, `[2001:db8::1]:443`, `https://www.example.com/`. */
export function parseHost(text: string): ValueResult<HostName> {
  const t = text.trim();
  if (t === "") return fail(`expected a host such as www.example.com, got ${got(t)}`);
  let rest = t;
  let scheme: HostName["scheme"] = null;
  const written = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(t);
  if (written !== null) {
    const name = (written[1] as string).toLowerCase();
    if (name !== "http" && name !== "https")
      return fail(`expected an http or https host, got the scheme ${show(written[1] as string)}`);
    scheme = name;
    rest = t.slice(written[0].length);
  }
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  const tail = rest.search(/[/?#]/);
  if (tail >= 0)
    return fail(
      `expected a host[:port] alone, got ${show(rest.slice(tail))} after ${show(rest.slice(0, tail))}`,
    );
  if (rest.includes("@"))
    return fail(`expected a host without user information, got ${show(rest)}`);
  let hostText = rest;
  let portText: string | null = null;
  if (rest.startsWith("[")) {
    const close = rest.indexOf("]");
    if (close < 0) return fail(`expected a "]" closing the IPv6 address, got ${show(rest)}`);
    hostText = rest.slice(0, close + 1);
    const after = rest.slice(close + 1);
    if (after !== "") {
      if (!after.startsWith(":"))
        return fail(`expected ":port" after ${show(hostText)}, got ${show(after)}`);
      portText = after.slice(1);
    }
  } else {
    const colon = rest.indexOf(":");
    if (colon >= 0) {
      if (rest.indexOf(":", colon + 1) >= 0) {
        return fail(`expected an IPv6 host in brackets such as [2001:db8::1], got ${show(rest)}`);
      }
      hostText = rest.slice(0, colon);
      portText = rest.slice(colon + 1);
    }
  }
  let port: number | null = null;
  if (portText !== null) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      return fail(`expected a port 1-65535 after ":", got ${got(portText)}`);
    }
    port = Number(portText);
  }
  if (hostText === "") {
    return fail(
      `expected a host name${portText === null ? "" : ' before ":"'}, got nothing in ${show(t)}`,
    );
  }
  const host = parseHostPart(hostText);
  if (!host.ok) return host;
  return ok({ scheme, kind: host.value.kind, host: host.value.host, port });
}

/** `https://www.example.com:8080`, `[2001:db8::1]`: the value as parseHost reads it back. */
export function formatHost(host: HostName): string {
  const scheme = host.scheme === null ? "" : `${host.scheme}://`;
  const name = host.kind === "ipv6" ? `[${host.host}]` : host.host;
  return `${scheme}${name}${host.port === null ? "" : `:${host.port}`}`;
}

function parseHostPart(text: string): ValueResult<Pick<HostName, "kind" | "host">> {
  if (text.startsWith("[")) {
    const ip = parseIp(text);
    if (!ip.ok) return ip;
    return ok({ kind: "ipv6", host: formatIp(ip.value) });
  }
  const space = /\s/.exec(text)?.[0];
  if (space !== undefined)
    return fail(`expected a host name without whitespace, got ${show(space)} in ${show(text)}`);
  if (/[^\x21-\x7e]/.test(text)) {
    const bad = /[^\x21-\x7e]/.exec(text)?.[0] ?? "";
    return fail(
      `expected an ASCII host name (an IDN written as xn-- punycode), got ${show(bad)} in ${show(text)}`,
    );
  }
  // An absolute name's final dot (`example.com.`) names the same host.
  const name = text.endsWith(".") && text.length > 1 ? text.slice(0, -1) : text;
  const labels = name.split(".");
  // RFC 1738 §3.1: a toplabel begins with a letter, so a name ending in a numeric label is an IPv4 address.
  if (/^\d/.test(labels[labels.length - 1] as string)) {
    const ip = parseIp(name);
    if (!ip.ok) return ip;
    if (ip.value.family !== 4) return fail(`expected an IPv6 host in brackets, got ${show(text)}`);
    return ok({ kind: "ipv4", host: formatIp(ip.value) });
  }
  if (name.length > MAX_HOST_LENGTH) {
    return fail(
      `expected a host name of at most ${MAX_HOST_LENGTH} characters, got ${name.length} in ${show(name)}`,
    );
  }
  for (const label of labels) {
    if (label === "")
      return fail(`expected a label between dots, got an empty one in ${show(text)}`);
    if (label.length > MAX_LABEL_LENGTH) {
      return fail(
        `expected labels of at most ${MAX_LABEL_LENGTH} characters, got ${label.length} in ${show(label)}`,
      );
    }
    const bad = /[^A-Za-z0-9-]/.exec(label)?.[0];
    if (bad !== undefined)
      return fail(
        `expected letters, digits and "-" in a host name, got ${show(bad)} in ${show(label)}`,
      );
    if (label.startsWith("-") || label.endsWith("-")) {
      return fail(
        `expected a host label that neither starts nor ends with "-", got ${show(label)}`,
      );
    }
  }
  return ok({ kind: "dns", host: name.toLowerCase() });
}
