/**
 * The site side of usage preferences for `heed serve --usage FILE`: a Content-Usage header on
 * every answer (draft-ietf-aipref-attach-05 §2), and /.well-known/tdmrep.json (W3C TDMRep),
 * both written from one description (protocol/usage/description.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  contentUsageValue,
  describedPreferences,
  tdmRepRules,
  type UsageDescription,
} from "../protocol/usage/description.js";

export const TDMREP_PATH = "/.well-known/tdmrep.json";

/**
 * Answers /.well-known/tdmrep.json, or sets the Content-Usage header of the answer to come.
 * True when the request was answered here.
 */
export function serveUsage(
  description: UsageDescription,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): boolean {
  if (pathname === TDMREP_PATH) {
    const body = `${JSON.stringify(tdmRepRules(description), null, 2)}\n`;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
      res.end("method not allowed\n");
      return true;
    }
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }
  // The representation's preferences (attach-05 §2): for the path and query asked.
  const value = contentUsageValue(describedPreferences(description, req.url ?? "/"));
  if (value !== null) res.setHeader("content-usage", value);
  return false;
}
