/**
 * ATP/0.1 messages (ATP draft §5-8) as plain data. Header names keep the case they were sent
 * in; lookups ignore case (the draft's literals are case-insensitive, §3).
 */

export type AtpHeaders = readonly (readonly [name: string, value: string])[];

export interface AtpRequest {
  /** Upper-cased: DISPATCH, RETRACT, FETCH, MESSAGE, or an extension method (§6.1). */
  readonly method: string;
  /** The resource URI as sent: relative (`/joe#2874678383`) or absolute (§6.2). */
  readonly uri: string;
  /** `ATP/0.1` (§4.1). */
  readonly version: string;
  readonly headers: AtpHeaders;
  readonly body: Uint8Array;
}

export interface AtpResponse {
  readonly version: string;
  readonly status: number;
  readonly reason: string;
  readonly headers: AtpHeaders;
  readonly body: Uint8Array;
}

/** The version heed sends (§4.1: "must include an ATP_version of ATP/0.1"). */
export const ATP_VERSION = "ATP/0.1";

/** The value of the first header field with this name (any case), or null. */
export function header(headers: AtpHeaders, name: string): string | null {
  const want = name.toLowerCase();
  for (const [n, v] of headers) if (n.toLowerCase() === want) return v;
  return null;
}
