/**
 * ATP/0.1 status codes (ATP draft §9): not HTTP's. 1xx success, 2xx redirection, 3xx the
 * sender erred, 4xx the recipient erred or cannot perform the request.
 */
export const ATP_STATUS = {
  OKAY: 100,
  MOVED: 200,
  BAD_REQUEST: 300,
  FORBIDDEN: 301,
  NOT_FOUND: 302,
  INTERNAL_RECIPIENT_ERROR: 400,
  NOT_IMPLEMENTED: 401,
  BAD_GATEWAY: 402,
  SERVICE_UNAVAILABLE: 403,
} as const;

export type AtpStatus = (typeof ATP_STATUS)[keyof typeof ATP_STATUS];

/** The reason phrases the draft gives each code (§9.1-9.4). */
export const REASON_PHRASE: Readonly<Record<AtpStatus, string>> = {
  100: "OKAY",
  200: "MOVED",
  300: "BAD REQUEST",
  301: "FORBIDDEN",
  302: "NOT FOUND",
  400: "INTERNAL RECIPIENT ERROR",
  401: "NOT IMPLEMENTED",
  402: "BAD GATEWAY",
  403: "SERVICE UNAVAILABLE",
};

/** The class of a code by its first digit (§9): success, redirection, sender or recipient error. */
export function statusClass(
  code: number,
): "success" | "redirection" | "sender-error" | "recipient-error" | "unknown" {
  if (code >= 100 && code <= 199) return "success";
  if (code >= 200 && code <= 299) return "redirection";
  if (code >= 300 && code <= 399) return "sender-error";
  if (code >= 400 && code <= 499) return "recipient-error";
  return "unknown";
}
