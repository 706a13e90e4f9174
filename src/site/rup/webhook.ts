/**
 * Reports as signed webhooks, an extra beside the seed's e-mail (seeds/001 §3.2 is the
 * protocol; robots today often expect an HTTP callback). A registration whose RobotEmail is an
 * http(s) URL instead of an address gets each report POSTed there as JSON:
 *
 *     { "sequenceNumber": 3, "urlBase": "http://site/", "changes": [
 *         { "kind": "New", "at": "2026-11-21T08:00:00Z", "paths": ["/a.html"] } ] }
 *
 * with `X-RUP-Signature: sha256=<hex>`, the HMAC-SHA256 of the body. Its key is the SHA-256
 * (hex) of the registration key: the robot can compute it, and the site, which keeps only that
 * digest, never holds the key itself. A 2xx answer is delivery; anything else is retried like a
 * refused mail. Posts go through heed's HTTP client, whose SSRF guard refuses private addresses
 * unless the site allows them.
 */
import { guardedRequest } from "../../net/guarded-request.js";
import type { HttpClient } from "../../net/http-client.js";
import {
  bodySignatureMatches,
  formatDate,
  parseReport,
  SIGNATURE_HEADER,
  signBody,
} from "../../protocol/rup/index.js";

export { SIGNATURE_HEADER };
/** One delivery: a callback that does not answer in time is tried again later. */
const WEBHOOK_TIMEOUT_MS = 30_000;
/** What is read of an answer: its status is all that counts. */
const MAX_ANSWER_BYTES = 64 * 1024;

export function isWebhookTarget(target: string): boolean {
  return /^https?:\/\//i.test(target) && URL.canParse(target);
}

/** The JSON body of a report (the §3.2 text read back into fields). */
export function webhookBody(reportText: string): string {
  const { report } = parseReport(reportText);
  if (report === null) throw new Error("the outbox holds a report that does not parse");
  return JSON.stringify({
    sequenceNumber: report.sequenceNumber,
    urlBase: report.urlBase,
    changes: report.changes.map((c) => ({ kind: c.kind, at: formatDate(c.at), paths: c.paths })),
  });
}

/** `sha256=<hex>` of `body` under `secret` (the hex SHA-256 of the registration key). */
export const signWebhook = signBody;

/** For robots: whether `signature` is the site's, compared in constant time. */
export const verifyWebhook = bodySignatureMatches;

/** POSTs one report; resolves on a 2xx answer, rejects otherwise. */
export async function postWebhook(
  client: HttpClient,
  url: string,
  body: string,
  secret: string,
): Promise<void> {
  const res = await guardedRequest(url, {
    method: "POST",
    client,
    headers: {
      "content-type": "application/json",
      [SIGNATURE_HEADER]: signWebhook(body, secret),
    },
    body,
    signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
  });
  let read = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    read += chunk.length;
    if (read > MAX_ANSWER_BYTES) break;
  }
  if (res.status < 200 || res.status > 299) throw new Error(`${url} answered HTTP ${res.status}`);
}
