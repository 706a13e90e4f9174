/**
 * Web Bot Auth on top of RFC 9421 (draft-meunier-webbotauth-httpsig-protocol-02): what a robot
 * puts in `Signature-Input`, `Signature` and `Signature-Agent`, and how a site reads them back.
 * Pure: the time is an argument, and the signing and checking of bytes are the caller's.
 */
import { type MessageRequest, signatureBase } from "./signature-base.js";
import {
  type BareItem,
  base64Encode,
  type Dictionary,
  type InnerList,
  type Item,
  type Parsed,
  parseDictionary,
  parseItem,
  serializeDictionary,
  sf,
} from "./structured-fields.js";

/** The `tag` a Web Bot Auth signature carries (draft-…-protocol-02 §4.1). */
export const WEB_BOT_AUTH_TAG = "web-bot-auth";
/** The label heed signs under; a verifier finds the signature by its tag, not its label. */
export const SIGNATURE_LABEL = "sig1";
/** The Signature-Agent member heed names its directory with. */
export const AGENT_MEMBER = "agent1";
/**
 * The longest a signature may live: draft-…-protocol-02 §4.1 says `expires` SHOULD be at most
 * 24 hours after `created`. heed signs for far less (DEFAULT_LIFETIME_S) and refuses more.
 */
export const MAX_LIFETIME_S = 24 * 60 * 60;
/** How long heed's own signatures hold: long enough for one exchange on a slow link. */
export const DEFAULT_LIFETIME_S = 300;
/** A `created` this far ahead of the verifier's clock is still believed (clocks differ). */
export const CLOCK_SKEW_S = 60;

/** Why a request is not a verified robot's. Stable: logs and tests use them. */
export type RefusalReason =
  | "unsigned"
  | "malformed"
  | "not-covered"
  | "expired"
  | "not-yet-valid"
  | "too-long-lived"
  | "no-signature-agent"
  | "directory-unreachable"
  | "directory-redirect"
  | "directory-invalid"
  | "unknown-key"
  | "bad-signature"
  | "wrong-authority"
  | "directory-bad-signature"
  | "directory-unsigned";

export interface Refusal {
  readonly ok: false;
  readonly reason: RefusalReason;
  /** One line for people. */
  readonly message: string;
}

export function refusal(reason: RefusalReason, message: string): Refusal {
  return { ok: false, reason, message };
}

/** What a robot signs with, besides the key itself. */
export interface SigningInput {
  readonly keyid: string;
  /** Seconds since the epoch. */
  readonly created: number;
  readonly expires: number;
  /** The key directory's URL, sent as the Signature-Agent member {@link AGENT_MEMBER}. */
  readonly signatureAgent?: string;
  /** Optional, sent as `nonce`. */
  readonly nonce?: string;
}

/** The fields to add to a request, and the base to sign for `Signature`. */
export interface SigningPlan {
  /** Field name (lower case) to value: `signature-input`, and `signature-agent` when named. */
  readonly fields: Readonly<Record<string, string>>;
  readonly base: string;
}

/**
 * draft-…-protocol-02 §4: cover `@authority` and, with a Signature-Agent, its member; carry
 * created, expires, keyid, alg and tag. The signature itself goes in with {@link signatureField}.
 */
export function planSignature(
  request: Omit<MessageRequest, "field">,
  input: SigningInput,
): Parsed<SigningPlan> {
  const agent =
    input.signatureAgent === undefined
      ? null
      : serializeDictionary(new Map([[AGENT_MEMBER, sf.item(sf.string(input.signatureAgent))]]));
  const components: Item[] = [sf.item(sf.string("@authority"))];
  if (agent !== null) {
    components.push(
      sf.item(sf.string("signature-agent"), new Map([["key", sf.string(AGENT_MEMBER)]])),
    );
  }
  const params = new Map<string, BareItem>([
    ["created", sf.integer(input.created)],
    ["expires", sf.integer(input.expires)],
    ["keyid", sf.string(input.keyid)],
    ["alg", sf.string("ed25519")],
  ]);
  if (input.nonce !== undefined) params.set("nonce", sf.string(input.nonce));
  params.set("tag", sf.string(WEB_BOT_AUTH_TAG));
  const list: InnerList = { kind: "list", items: components, params };
  const base = signatureBase(
    { ...request, field: (name) => (name === "signature-agent" ? agent : null) },
    list,
  );
  if (!base.ok) return base;
  const fields: Record<string, string> = {
    "signature-input": serializeDictionary(new Map([[SIGNATURE_LABEL, list]])),
  };
  if (agent !== null) fields["signature-agent"] = agent;
  return { ok: true, value: { fields, base: base.value } };
}

/** The `Signature` field for the signature bytes (RFC 9421 §4.2). */
export function signatureField(signature: Uint8Array): string {
  return `${SIGNATURE_LABEL}=:${base64Encode(signature)}:`;
}

/** A Web Bot Auth signature read from a request, ready to be checked. */
export interface ReadSignature {
  readonly ok: true;
  readonly label: string;
  readonly keyid: string;
  readonly created: number;
  readonly expires: number;
  readonly signature: Uint8Array;
  /** The bytes the signature must be over. */
  readonly base: string;
  /**
   * The key directory's URL the request names (the Signature-Agent member it covers, or the
   * field's single string), or null.
   */
  readonly signatureAgent: string | null;
}

/**
 * Finds the request's Web Bot Auth signature (the Signature-Input member tagged
 * `web-bot-auth`), checks what it covers and when it holds, and builds its base. The
 * cryptographic check, and the key lookup by `keyid`, are the caller's.
 */
export function readSignature(request: MessageRequest, nowS: number): ReadSignature | Refusal {
  const inputField = request.field("signature-input");
  const signatureFieldValue = request.field("signature");
  if (inputField === null && signatureFieldValue === null) {
    return refusal("unsigned", "no Signature-Input and Signature fields");
  }
  if (inputField === null || signatureFieldValue === null) {
    return refusal(
      "malformed",
      `no ${inputField === null ? "Signature-Input" : "Signature"} field`,
    );
  }
  const inputs = dictionary(inputField, "Signature-Input");
  if (!inputs.ok) return inputs;
  const signatures = dictionary(signatureFieldValue, "Signature");
  if (!signatures.ok) return signatures;
  const found = [...inputs.value].find(
    ([, member]) => member.kind === "list" && stringParam(member, "tag") === WEB_BOT_AUTH_TAG,
  );
  if (found === undefined) {
    return refusal("unsigned", `no signature tagged "${WEB_BOT_AUTH_TAG}" in Signature-Input`);
  }
  const [label, member] = found;
  const list = member as InnerList;
  const signed = signatures.value.get(label);
  if (signed?.kind !== "item" || signed.value.type !== "bytes") {
    return refusal("malformed", `Signature has no byte sequence labelled ${label}`);
  }
  const keyid = stringParam(list, "keyid");
  const created = integerParam(list, "created");
  const expires = integerParam(list, "expires");
  if (keyid === null || created === null || expires === null) {
    return refusal("malformed", `signature ${label} lacks keyid, created or expires`);
  }
  const alg = stringParam(list, "alg");
  if (alg !== null && alg !== "ed25519") {
    return refusal("malformed", `signature ${label}: alg "${alg}" is not ed25519`);
  }
  const covered = list.items.map((item) => item.value.value);
  // draft-…-protocol-02 §4.1: the authority (or the whole target URI) must be covered.
  if (!covered.includes("@authority") && !covered.includes("@target-uri")) {
    return refusal("not-covered", `signature ${label} covers neither @authority nor @target-uri`);
  }
  const agentField = request.field("signature-agent");
  // §4.1: a Signature-Agent that is sent must be covered, or anyone could swap it.
  if (agentField !== null && !covered.includes("signature-agent")) {
    return refusal("not-covered", `signature ${label} does not cover Signature-Agent`);
  }
  const times = judgeTimes(created, expires, nowS);
  if (times !== null) return times;
  const base = signatureBase(request, list);
  if (!base.ok) return refusal("malformed", `signature ${label}: ${base.message}`);
  return {
    ok: true,
    label,
    keyid,
    created,
    expires,
    signature: signed.value.value,
    base: base.value,
    signatureAgent: agentField === null ? null : agentUrl(agentField, list),
  };
}

/** The clock's verdict on a signature's times, or null when they hold. */
export function judgeTimes(created: number, expires: number, nowS: number): Refusal | null {
  if (expires <= created) return refusal("malformed", "expires is not after created");
  if (expires - created > MAX_LIFETIME_S) {
    return refusal("too-long-lived", `signed for ${expires - created} s, more than 24 hours`);
  }
  if (created > nowS + CLOCK_SKEW_S) {
    return refusal("not-yet-valid", `created ${created - nowS} s in the future`);
  }
  if (expires <= nowS) return refusal("expired", `expired ${nowS - expires} s ago`);
  return null;
}

/**
 * The directory URL of a Signature-Agent field: the member the signature covers by `;key`, or
 * (an earlier form of the draft, which web-bot-auth 0.1 sends) the field as one string.
 */
function agentUrl(field: string, list: InnerList): string | null {
  const component = list.items.find((item) => item.value.value === "signature-agent");
  const key = component?.params.get("key");
  if (key?.type === "string") {
    const parsed = parseDictionary(field);
    const member = parsed.ok ? parsed.value.get(key.value) : undefined;
    return member?.kind === "item" && member.value.type === "string" ? member.value.value : null;
  }
  const item = parseItem(field);
  return item.ok && item.value.value.type === "string" ? item.value.value.value : null;
}

/** A Structured Fields dictionary, or a `malformed` refusal naming the field. */
export function dictionary(value: string, name: string): { ok: true; value: Dictionary } | Refusal {
  const parsed = parseDictionary(value);
  return parsed.ok ? parsed : refusal("malformed", `${name}: ${parsed.message}`);
}

/** A signature parameter that is a string, or null. */
export function stringParam(list: InnerList, name: string): string | null {
  const value = list.params.get(name);
  return value?.type === "string" ? value.value : null;
}

/** A signature parameter that is an integer, or null. */
export function integerParam(list: InnerList, name: string): number | null {
  const value = list.params.get(name);
  return value?.type === "integer" ? value.value : null;
}
