/**
 * The signatures on a key directory's response (draft-meunier-http-message-signatures-directory
 * §5): each key the directory lists signs the response, covering the authority the directory
 * was asked for, tagged `http-message-signatures-directory`. Pure: the time is an argument, and
 * the signing and checking of bytes are the caller's.
 */
import { dictionary, integerParam, judgeTimes, type Refusal, stringParam } from "./message.js";
import { type MessageRequest, signatureBase } from "./signature-base.js";
import {
  base64Encode,
  type BareItem,
  type InnerList,
  type Parsed,
  serializeDictionary,
  sf,
} from "./structured-fields.js";

/** The `tag` of a directory's response signatures. */
export const DIRECTORY_SIGNATURE_TAG = "http-message-signatures-directory";

/** One signature to make: the key's thumbprint and the base its signature must be over. */
export interface DirectorySignaturePlan {
  readonly keyid: string;
  readonly base: string;
}

export interface DirectorySigning {
  readonly plans: readonly DirectorySignaturePlan[];
  /** `Signature-Input` and `Signature` for the signatures, in the order of `plans`. */
  readonly fields: (signatures: readonly Uint8Array[]) => Readonly<Record<string, string>>;
}

/**
 * One signature per key over `("@authority";req)` of `request` (the request the directory
 * answers), labelled `binding0`, `binding1`, … as the draft's examples are.
 */
export function planDirectorySignatures(
  request: MessageRequest,
  keyids: readonly string[],
  times: { readonly created: number; readonly expires: number },
): Parsed<DirectorySigning> {
  const inputs = new Map<string, InnerList>();
  const plans: DirectorySignaturePlan[] = [];
  for (const [index, keyid] of keyids.entries()) {
    const params = new Map<string, BareItem>([
      ["alg", sf.string("ed25519")],
      ["created", sf.integer(times.created)],
      ["expires", sf.integer(times.expires)],
      ["keyid", sf.string(keyid)],
      ["tag", sf.string(DIRECTORY_SIGNATURE_TAG)],
    ]);
    const authority = sf.item(
      sf.string("@authority"),
      new Map([["req", { type: "boolean", value: true }]]),
    );
    const list: InnerList = { kind: "list", items: [authority], params };
    const base = signatureBase(request, list, { response: true });
    if (!base.ok) return base;
    inputs.set(`binding${index}`, list);
    plans.push({ keyid, base: base.value });
  }
  const labels = [...inputs.keys()];
  return {
    ok: true,
    value: {
      plans,
      fields: (signatures) => ({
        "signature-input": serializeDictionary(inputs),
        signature: labels
          .map((label, i) => `${label}=:${base64Encode(signatures[i] ?? new Uint8Array())}:`)
          .join(", "),
      }),
    },
  };
}

/** A directory signature read from a response, to be checked with the key named `keyid`. */
export interface DirectorySignature {
  readonly label: string;
  readonly keyid: string;
  readonly signature: Uint8Array;
  readonly base: string;
}

/**
 * The directory signatures of a response: `response.url` is the directory's URL as asked for,
 * `response.field` reads the response's fields. An empty list when the response carries none
 * (an unsigned directory); a `directory-bad-signature` refusal when one is there but cannot
 * hold (malformed, not covering the authority, out of its time).
 */
export function readDirectorySignatures(
  response: MessageRequest,
  nowS: number,
): { readonly ok: true; readonly signatures: readonly DirectorySignature[] } | Refusal {
  const inputField = response.field("signature-input");
  const signatureField = response.field("signature");
  if (inputField === null && signatureField === null) return { ok: true, signatures: [] };
  if (inputField === null || signatureField === null) {
    return bad(`no ${inputField === null ? "Signature-Input" : "Signature"} field`);
  }
  const inputs = dictionary(inputField, "Signature-Input");
  if (!inputs.ok) return bad(inputs.message);
  const values = dictionary(signatureField, "Signature");
  if (!values.ok) return bad(values.message);
  const signatures: DirectorySignature[] = [];
  for (const [label, member] of inputs.value) {
    if (member.kind !== "list" || stringParam(member, "tag") !== DIRECTORY_SIGNATURE_TAG) continue;
    const keyid = stringParam(member, "keyid");
    const created = integerParam(member, "created");
    const expires = integerParam(member, "expires");
    if (keyid === null || created === null || expires === null) {
      return bad(`signature ${label} lacks keyid, created or expires`);
    }
    // The draft's signature binds the directory to the authority it was fetched from.
    if (!member.items.some((item) => item.value.value === "@authority")) {
      return bad(`signature ${label} does not cover @authority`);
    }
    const times = judgeTimes(created, expires, nowS);
    if (times !== null) return bad(`signature ${label}: ${times.message}`);
    const value = values.value.get(label);
    if (value?.kind !== "item" || value.value.type !== "bytes") {
      return bad(`Signature has no byte sequence labelled ${label}`);
    }
    const base = signatureBase(response, member, { response: true });
    if (!base.ok) return bad(`signature ${label}: ${base.message}`);
    signatures.push({ label, keyid, signature: value.value.value, base: base.value });
  }
  return { ok: true, signatures };
}

function bad(message: string): Refusal {
  return {
    ok: false,
    reason: "directory-bad-signature",
    message: `directory signature: ${message}`,
  };
}
