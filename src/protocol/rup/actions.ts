/**
 * Action requests (seeds/001 §3.1.2, §3.3) and their answers. A request is a set of form
 * fields (`Action=Register&RobotEmail=…`), sent as a form-encoded POST or as a GET query.
 * Reading checks the form only; whether the site offers the latency and patterns asked for is
 * {@link checkOffer}'s question, and keys are the server's.
 */
import { emailProblem } from "./email.js";
import { type Latency, parseLatency } from "./latency.js";
import { MAX_PATTERNS } from "./limits.js";
import { compilePattern, type PathFilter } from "./patterns.js";
import type { RupInfo } from "./rupinfo.js";

export interface Preferences {
  readonly latency?: Latency;
  readonly filter?: PathFilter;
}

export type ActionRequest =
  | ({ readonly action: "Register"; readonly robotEmail: string } & Preferences)
  | { readonly action: "Unregister"; readonly key: string; readonly registeredEmail: string }
  | ({
      readonly action: "ModifyPreferences";
      readonly key: string;
      readonly registeredEmail: string;
      readonly robotEmail?: string;
    } & Preferences)
  | { readonly action: "GetSequenceNumber"; readonly key: string; readonly registeredEmail: string }
  | { readonly action: "GetIndex"; readonly span: Latency };

export type ActionName = ActionRequest["action"];

/** An answer refused: the HTTP status, the field at fault, and why, for a person. */
export interface ActionError {
  readonly status: 400 | 501;
  readonly field: string | null;
  readonly message: string;
}

export type ActionParse =
  { readonly ok: true; readonly request: ActionRequest } | ({ readonly ok: false } & ActionError);

/** The fields each action takes (seeds/001 §3.1.2, §3.3.1-§3.3.4); required ones first. */
const FIELDS: Record<ActionName, { required: readonly string[]; optional: readonly string[] }> = {
  Register: { required: ["RobotEmail"], optional: ["Latency", "Exclude", "IncludeOnly"] },
  Unregister: { required: ["RegistrationKey", "RegisteredRobotEmail"], optional: [] },
  ModifyPreferences: {
    required: ["RegistrationKey", "RegisteredRobotEmail"],
    optional: ["RobotEmail", "Latency", "Exclude", "IncludeOnly"],
  },
  GetSequenceNumber: { required: ["RegistrationKey", "RegisteredRobotEmail"], optional: [] },
  GetIndex: { required: ["Span"], optional: [] },
};

function isActionName(name: string): name is ActionName {
  return Object.hasOwn(FIELDS, name);
}

/** Longest callback URL accepted in place of an address. */
export const MAX_CALLBACK_URL_LENGTH = 2048;

/** Whether a RobotEmail value is an http(s) URL (a webhook registration) rather than an address. */
export function isCallbackUrl(value: string): boolean {
  return (
    value.length <= MAX_CALLBACK_URL_LENGTH &&
    /^https?:\/\/\S+$/i.test(value) &&
    URL.canParse(value)
  );
}

const bad = (field: string | null, message: string): ActionParse => ({
  ok: false,
  status: 400,
  field,
  message,
});

/**
 * Reads the fields of a request. Field names are matched exactly (the seed writes them so); a
 * field given twice, a field the action does not take, or a missing required one is a 400; an
 * Action heed does not know is a 501 (seeds/001 §3.1.2: "501 (Not implemented)").
 */
export function parseActionRequest(fields: readonly (readonly [string, string])[]): ActionParse {
  const map = new Map<string, string>();
  for (const [name, value] of fields) {
    if (map.has(name)) return bad(name, `${name} is given more than once`);
    map.set(name, value);
  }
  const action = map.get("Action");
  if (action === undefined || action === "")
    return bad(
      "Action",
      "no Action field: expected Action=Register, Unregister, ModifyPreferences, GetSequenceNumber or GetIndex",
    );
  if (!isActionName(action))
    return {
      ok: false,
      status: 501,
      field: "Action",
      message: `Action=${action} is not implemented here`,
    };
  const spec = FIELDS[action];
  for (const name of map.keys()) {
    if (name !== "Action" && !spec.required.includes(name) && !spec.optional.includes(name)) {
      return bad(
        name,
        `${action} takes no field ${name} (it takes ${[...spec.required, ...spec.optional].join(", ")})`,
      );
    }
  }
  for (const name of spec.required) {
    if ((map.get(name) ?? "") === "") return bad(name, `${action} needs ${name}`);
  }
  const get = (name: string): string => map.get(name) ?? "";
  const has = (name: string): boolean => map.has(name);

  for (const name of ["RobotEmail", "RegisteredRobotEmail"]) {
    if (!has(name)) continue;
    // An http(s) URL instead of an address registers a webhook (heed's extra, see
    // site/rup/webhook.ts); anything else must be an address.
    if (isCallbackUrl(get(name))) continue;
    const problem = emailProblem(get(name));
    if (problem !== null) return bad(name, `${name}: ${problem}`);
  }
  switch (action) {
    case "Register":
    case "ModifyPreferences": {
      const prefs = readPreferences(map);
      if ("ok" in prefs) return prefs;
      return {
        ok: true,
        request:
          action === "Register"
            ? { action, robotEmail: get("RobotEmail"), ...prefs }
            : {
                action,
                key: get("RegistrationKey"),
                registeredEmail: get("RegisteredRobotEmail"),
                ...(has("RobotEmail") ? { robotEmail: get("RobotEmail") } : {}),
                ...prefs,
              },
      };
    }
    case "Unregister":
    case "GetSequenceNumber":
      return {
        ok: true,
        request: {
          action,
          key: get("RegistrationKey"),
          registeredEmail: get("RegisteredRobotEmail"),
        },
      };
    case "GetIndex": {
      const span = parseLatency(get("Span"), { countRequired: true });
      if (!span.ok) return bad("Span", `Span: ${span.message}`);
      return { ok: true, request: { action, span: span.value } };
    }
  }
}

function readPreferences(map: ReadonlyMap<string, string>): Preferences | ActionParse {
  const out: { latency?: Latency; filter?: PathFilter } = {};
  const latency = map.get("Latency");
  if (latency !== undefined) {
    const parsed = parseLatency(latency);
    if (!parsed.ok) return bad("Latency", `Latency: ${parsed.message}`);
    out.latency = parsed.value;
  }
  const exclude = map.get("Exclude");
  const includeOnly = map.get("IncludeOnly");
  // seeds/001 §3.1.2: "either Exclude or IncludeOnly is allowed, not both".
  if (exclude !== undefined && includeOnly !== undefined)
    return bad("IncludeOnly", "give Exclude or IncludeOnly, not both (docs/rup.md)");
  for (const [name, value, kind] of [
    ["Exclude", exclude, "exclude"],
    ["IncludeOnly", includeOnly, "include-only"],
  ] as const) {
    if (value === undefined) continue;
    const patterns = value.split(/\s+/).filter((p) => p !== "");
    if (patterns.length === 0) return bad(name, `${name}: no pattern given`);
    if (patterns.length > MAX_PATTERNS)
      return bad(name, `${name}: more than ${MAX_PATTERNS} patterns`);
    for (const p of patterns) {
      const c = compilePattern(p);
      if (!c.ok) return bad(name, `${name}: ${c.message}`);
    }
    out.filter = { kind, patterns };
  }
  return out;
}

/**
 * Whether the site offers what a request asks for (seeds/001 §3.1.2: latvalue "chosen from
 * the Latency field"; patterns from the Exclude and IncludeOnly lists). Null when it does.
 */
export function checkOffer(request: ActionRequest, info: RupInfo): ActionError | null {
  if (request.action !== "Register" && request.action !== "ModifyPreferences") return null;
  if (
    request.latency !== undefined &&
    !info.latencies.some((l) => l.toLowerCase() === request.latency?.unit)
  ) {
    return {
      status: 400,
      field: "Latency",
      message: `Latency: this site offers ${info.latencies.join(", ") || "no latency choice"}, not ${request.latency.unit}`,
    };
  }
  const filter = request.filter;
  if (filter !== undefined && filter.kind !== "all") {
    const name = filter.kind === "exclude" ? "Exclude" : "IncludeOnly";
    const offered = filter.kind === "exclude" ? info.exclude : info.includeOnly;
    if (offered.length === 0)
      return { status: 501, field: name, message: `${name}: this site offers no ${name} patterns` };
    const missing = filter.patterns.find((p) => !offered.includes(p));
    if (missing !== undefined)
      return {
        status: 400,
        field: name,
        message: `${name}: "${missing}" is not one of the offered patterns (${offered.join(" ")})`,
      };
  }
  return null;
}

/** Encodes a request's fields for a form body or a query string. */
export function actionFields(request: ActionRequest): [string, string][] {
  const out: [string, string][] = [["Action", request.action]];
  const prefs = (p: Preferences): void => {
    if (p.latency !== undefined)
      out.push([
        "Latency",
        p.latency.count === 1 ? p.latency.unit : `${p.latency.count}-${p.latency.unit}`,
      ]);
    if (p.filter !== undefined && p.filter.kind !== "all")
      out.push([
        p.filter.kind === "exclude" ? "Exclude" : "IncludeOnly",
        p.filter.patterns.join(" "),
      ]);
  };
  switch (request.action) {
    case "Register":
      out.push(["RobotEmail", request.robotEmail]);
      prefs(request);
      break;
    case "ModifyPreferences":
      out.push(["RegistrationKey", request.key], ["RegisteredRobotEmail", request.registeredEmail]);
      if (request.robotEmail !== undefined) out.push(["RobotEmail", request.robotEmail]);
      prefs(request);
      break;
    case "Unregister":
    case "GetSequenceNumber":
      out.push(["RegistrationKey", request.key], ["RegisteredRobotEmail", request.registeredEmail]);
      break;
    case "GetIndex":
      out.push(["Span", `${request.span.count}-${request.span.unit}`]);
      break;
  }
  return out;
}
