/**
 * The signature base of RFC 9421 §2.5: one line per covered component, then the
 * `"@signature-params"` line, joined by LF with no final LF. Pure: the request is described by
 * its method, its target URI and a way to read a field's combined value.
 */
import {
  type InnerList,
  type Item,
  type Parsed,
  parseDictionary,
  serializeInnerList,
  serializeItem,
  serializeMember,
} from "./structured-fields.js";

/** A request as the signer or the verifier sees it. */
export interface MessageRequest {
  readonly method: string;
  /** The absolute target URI (`http://host:port/path?query`). */
  readonly url: string;
  /** A field's value, its lines joined with ", " (RFC 9110 §5.3), or null when absent. */
  readonly field: (name: string) => string | null;
}

export interface SignatureBaseOptions {
  /**
   * The base is a response's (a key directory's), and `request` the request it answers: RFC
   * 9421 §2.4 lets a derived component carry `;req` there, meaning the request's value.
   */
  readonly response?: boolean;
}

/**
 * RFC 9421 §2.5: the base for `params`, the inner list of covered components with the signature
 * parameters (as in Signature-Input). A component that cannot be read (a field that is absent,
 * a dictionary without the member `key` names, a derived component heed does not know) makes
 * the base impossible: the signature cannot verify, and the message says which.
 */
export function signatureBase(
  request: MessageRequest,
  params: InnerList,
  options: SignatureBaseOptions = {},
): Parsed<string> {
  let target: URL;
  try {
    target = new URL(request.url);
  } catch {
    return { ok: false, message: `the target URI ${JSON.stringify(request.url)} is not a URL` };
  }
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const component of params.items) {
    if (component.value.type !== "string") {
      return { ok: false, message: "a covered component that is not a string" };
    }
    const identifier = serializeItem(component);
    // RFC 9421 §2.5: a component may not be covered twice.
    if (seen.has(identifier)) return { ok: false, message: `${identifier} is covered twice` };
    seen.add(identifier);
    const value = componentValue(request, target, component, options.response === true);
    if (!value.ok) return value;
    lines.push(`${identifier}: ${value.value}`);
  }
  lines.push(`"@signature-params": ${serializeInnerList(params)}`);
  return { ok: true, value: lines.join("\n") };
}

function componentValue(
  request: MessageRequest,
  target: URL,
  component: Item,
  response: boolean,
): Parsed<string> {
  const name = component.value.value as string;
  const names = [...component.params.keys()];
  const unknown = names.find((p) => p !== "key" && !(response && p === "req"));
  if (unknown !== undefined) {
    return { ok: false, message: `the component parameter ;${unknown} is not supported` };
  }
  if (name.startsWith("@")) {
    if (names.includes("key"))
      return { ok: false, message: `;key on the derived component ${name}` };
    return derived(request, target, name);
  }
  // A request's field in a response's base: heed reads none, since a directory's signature
  // covers the authority alone.
  if (names.includes("req")) return { ok: false, message: `;req on the field ${name}` };
  if (name !== name.toLowerCase()) {
    return { ok: false, message: `the field name ${name} is not lower case` };
  }
  const raw = request.field(name);
  if (raw === null) return { ok: false, message: `the covered field ${name} is absent` };
  const value = raw.trim();
  const key = component.params.get("key");
  if (key === undefined) return { ok: true, value };
  if (key.type !== "string") return { ok: false, message: `;key on ${name} is not a string` };
  // RFC 9421 §2.1.2: the member, re-serialised, stands for the field.
  const dictionary = parseDictionary(value);
  if (!dictionary.ok) {
    return { ok: false, message: `${name} is not a dictionary: ${dictionary.message}` };
  }
  const member = dictionary.value.get(key.value);
  if (member === undefined) {
    return { ok: false, message: `${name} has no member ${JSON.stringify(key.value)}` };
  }
  return { ok: true, value: serializeMember(member) };
}

/** RFC 9421 §2.2: the derived components a request has. */
function derived(request: MessageRequest, target: URL, name: string): Parsed<string> {
  switch (name) {
    case "@method":
      return { ok: true, value: request.method.toUpperCase() };
    case "@target-uri":
      return { ok: true, value: target.href };
    case "@authority":
      // §2.2.3: lower-case host, the port only when it is not the scheme's default.
      return { ok: true, value: target.host.toLowerCase() };
    case "@scheme":
      return { ok: true, value: target.protocol.slice(0, -1).toLowerCase() };
    case "@path":
      return { ok: true, value: target.pathname === "" ? "/" : target.pathname };
    case "@query":
      // §2.2.7: an empty query is "?".
      return { ok: true, value: target.search === "" ? "?" : target.search };
    case "@request-target":
      return { ok: true, value: target.pathname + target.search };
    default:
      return { ok: false, message: `the derived component ${name} is not supported` };
  }
}
