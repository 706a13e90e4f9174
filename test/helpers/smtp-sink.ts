/**
 * A real SMTP server on 127.0.0.1 for tests (smtp-server, parsed with mailparser): it keeps
 * what it accepts, or refuses every message while `refusing` is set (a mail server down for
 * the sender: 451, try again later).
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SunkMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly contentType: string;
}

export interface SmtpSink {
  readonly url: string;
  readonly port: number;
  readonly mails: SunkMail[];
  refusing: boolean;
  close(): Promise<void>;
}

export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const sink = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (sink.refusing) {
            const error = new Error("try later") as Error & { responseCode: number };
            error.responseCode = 451;
            callback(error);
            return;
          }
          mails.push({
            from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            contentType: String(
              mail.headers.get("content-type") === undefined
                ? ""
                : (mail.headers.get("content-type") as { value: string }).value,
            ),
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((ok) => server.listen(port, "127.0.0.1", () => ok()));
  const actual = (server.server.address() as AddressInfo).port;
  return Object.assign(sink, {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    mails,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  });
}
