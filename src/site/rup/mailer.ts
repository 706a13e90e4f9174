/**
 * Sending reports (seeds/001 §3.2: "MIME compliant e-mail messages") from the outbox through
 * an SMTP server with nodemailer. A report leaves the outbox only when the mail server accepted
 * it; until then it is tried again, with a growing pause, and later reports of the same robot
 * wait behind it, so that they arrive in sequence order.
 */
import type { Transporter } from "nodemailer";
import type { HttpClient } from "../../net/http-client.js";
import { signReport } from "../../protocol/rup/index.js";
import type { OutboxEntry, SiteState } from "./state.js";
import { isWebhookTarget, postWebhook, webhookBody } from "./webhook.js";

/** The first retry waits this long; each later one twice as long as the one before. */
export const RETRY_BASE_MS = 60_000;
/** The longest pause between tries: a mail server back after a day gets its reports within the hour. */
export const RETRY_MAX_MS = 3_600_000;
/** One SMTP conversation: connect, greet, send. A dead server must not hold the outbox longer. */
const SMTP_TIMEOUT_MS = 30_000;

export interface ReportMail {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Sends one message; resolves when the server accepted it, rejects otherwise. */
export interface MailTransport {
  send(mail: ReportMail): Promise<void>;
  close(): void;
}

/** Where reports go: `smtp://host[:port]` (port 25 by default) or `smtps://host[:port]` (465). */
export interface SmtpTarget {
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
}

/** Reads `--smtp`; null when it is not an smtp(s) URL with a host. */
export function parseSmtpUrl(url: string): SmtpTarget | null {
  if (!URL.canParse(url)) return null;
  const u = new URL(url);
  if ((u.protocol !== "smtp:" && u.protocol !== "smtps:") || u.hostname === "") return null;
  const secure = u.protocol === "smtps:";
  return {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port === "" ? (secure ? 465 : 25) : Number(u.port),
    secure,
  };
}

/** An SMTP transport through nodemailer. */
export function smtpTransport(target: SmtpTarget): MailTransport {
  // nodemailer is loaded at the first report sent, not by every program importing heed.
  let transporter: Promise<Transporter> | null = null;
  const open = () =>
    (transporter ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: target.host,
        port: target.port,
        secure: target.secure,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      }),
    ));
  return {
    async send(mail) {
      await (await open()).sendMail({ ...mail, headers: { ...mail.headers } });
    },
    close() {
      void transporter?.then(
        (t) => t.close(),
        () => {},
      );
    },
  };
}

export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempts, 20));
}

export function reportMail(entry: OutboxEntry, from: string, urlBase: string): ReportMail {
  if (entry.kind === "confirm") {
    return {
      from,
      to: entry.email,
      subject: `Confirm RUP reports from ${urlBase}`,
      text: entry.body,
      headers: { "X-RUP-Confirmation": "1" },
    };
  }
  return {
    from,
    to: entry.email,
    subject: `RUP report ${entry.seq} for ${urlBase}`,
    text: entry.body,
    // The proof that the report is the site's, for the registration it is sent under.
    headers: {
      "X-RUP-Sequence-Number": String(entry.seq),
      "X-RUP-Signature": signReport(entry.body, entry.keyHash),
    },
  };
}

export interface SendResult {
  readonly sent: number;
  readonly failed: number;
  /** Outbox entries read this tick: those due, not the whole history. */
  readonly examined: number;
}

/**
 * Sends what is due in the outbox at `now`, oldest first, each robot's reports in order: by
 * mail through `transport`, or to a webhook registration's URL through `webhooks`. Without
 * the means to deliver one, it stays in the outbox.
 */
export async function sendOutbox(
  state: SiteState,
  transport: MailTransport | null,
  options: {
    from: string;
    urlBase: string;
    now: number;
    webhooks?: HttpClient;
    warn?: (message: string) => void;
  },
): Promise<SendResult> {
  let sent = 0;
  let failed = 0;
  let examined = 0;
  // Each round reads the head of every registration's queue that is due (state.ts dueOutbox);
  // a sent head may uncover the next one, a failed one moves its next try later.
  for (let round = 0; round < MAX_SEND_ROUNDS; round++) {
    // Only what can be delivered is read: without --smtp, queued mail is not looked at.
    const due = state.dueOutbox(options.now, SEND_BATCH, {
      mail: transport !== null,
      webhooks: options.webhooks !== undefined,
    });
    examined += due.length;
    if (due.length === 0) break;
    for (const head of due) {
      const entry = { ...head, body: state.outboxBody(head.id) };
      const hook = isWebhookTarget(entry.email);
      try {
        if (hook && options.webhooks !== undefined) {
          await postWebhook(options.webhooks, entry.email, webhookBody(entry.body), entry.keyHash);
        } else await transport?.send(reportMail(entry, options.from, options.urlBase));
        state.sent(entry.id, options.now);
        sent += 1;
      } catch (error) {
        const message = (error as Error).message;
        state.failed(entry.id, message, options.now + retryDelayMs(entry.attempts));
        options.warn?.(
          `report ${entry.seq} to ${entry.email} not sent (${message}); kept for a retry`,
        );
        failed += 1;
      }
    }
  }
  return { sent, failed, examined };
}

/** Mails due at once per round, and rounds per tick: a tick's work stays bounded. */
const SEND_BATCH = 200;
const MAX_SEND_ROUNDS = 20;
