/**
 * `heed serve --rup --confirm`: the page a recipient opens from the one mail it gets. GET shows
 * what is asked and a button; only the POST of that button confirms, so that a mail scanner or
 * a link preview that fetches the link confirms nothing. The token is 256 random bits, stored
 * as its SHA-256 and good once.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { htmlDocument } from "../../protocol/rup/index.js";
import { hashKey } from "./keys.js";
import type { SiteState } from "./state.js";

export const CONFIRM_PATH = "/cgi-bin/rup-confirm";
/** A confirmation form's body: one field holding a 43-character token. */
const MAX_FORM_BYTES = 1024;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    // The page shows a token: no referrer leaves it, no frame embeds it.
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
  });
  res.end(body);
}

export async function handleConfirm(
  req: IncomingMessage,
  res: ServerResponse,
  state: SiteState,
): Promise<void> {
  if (req.method === "GET" || req.method === "HEAD") {
    const token = new URL(req.url ?? "/", "http://site.invalid").searchParams.get("token") ?? "";
    if (!TOKEN.test(token))
      return answer(res, 400, htmlDocument("RUP confirmation", "Error: no token in the link\n"));
    return answer(
      res,
      200,
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Confirm RUP reports</title></head><body>\n` +
        `<p>A robot asked this site to send reports of its changes to your address.</p>\n` +
        `<form method="post" action="${CONFIRM_PATH}"><input type="hidden" name="token" value="${escape(token)}">` +
        `<button type="submit">Confirm: send me the reports</button></form>\n` +
        `<p>If you did not ask for this, close this page: nothing will be sent.</p>\n</body></html>\n`,
    );
  }
  if (req.method !== "POST") {
    res.setHeader("allow", "GET, POST");
    return answer(res, 405, htmlDocument("RUP confirmation", "Error: use the form\n"));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES)
      return answer(res, 400, htmlDocument("RUP confirmation", "Error: the form is too large\n"));
    chunks.push(chunk);
  }
  const token = new URLSearchParams(Buffer.concat(chunks).toString("utf8")).get("token") ?? "";
  const confirmed = TOKEN.test(token) ? state.confirm(hashKey(token)) : null;
  if (confirmed === null) {
    return answer(
      res,
      400,
      htmlDocument("RUP confirmation", "Error: this link is unknown, used already, or expired\n"),
    );
  }
  answer(
    res,
    200,
    htmlDocument("RUP confirmation", `Confirmed: reports will be sent to ${confirmed.email}\n`),
  );
}
