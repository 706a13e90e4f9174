/**
 * The robot's mailbox for reports (seeds/001 §3.2: reports come as e-mail): an SMTP server
 * (smtp-server) whose messages are parsed with mailparser and taken in one at a time. A report
 * is acknowledged (250) only once taken in and committed, so a crash loses nothing: the site
 * sends it again. A message that is no report, or from a site not registered, is refused for
 * good (550); a report that cannot be taken in now (a lost one cannot be recovered yet) is
 * refused for the moment (451), and the site's outbox tries again later. A forged report (not
 * addressed to the registered address, not signed with the registration's key, or numbered past
 * what the site says it made) is refused for good and told to `onReport`; nothing changes.
 */
import type { AddressInfo } from "node:net";
import { MAX_REPORT_BYTES, parseReport, SIGNATURE_HEADER } from "../../protocol/rup/index.js";
import {
  checkOverdue,
  IntakeRefusal,
  type IntakeOptions,
  type IntakeResult,
  type ReportEvidence,
  takeReport,
} from "./report-intake.js";

/** A message's size: a report's limit plus room for headers and transfer encoding. */
export const MAX_MESSAGE_BYTES = MAX_REPORT_BYTES + 1024 * 1024;
/** Connections at once: a few sites mail at a time; more is a flood. */
const MAX_CLIENTS = 32;

export interface InboxOptions extends IntakeOptions {
  readonly host: string;
  readonly port: number;
  /**
   * Every this many ms, asks the sites whose report is overdue for their sequence number and
   * recovers what was lost (seeds/001 §3.3.3); default 15 minutes, 0: only by `check`.
   */
  readonly checkEveryMs?: number;
  /** Default {@link MAX_MESSAGE_BYTES}. */
  readonly maxMessageBytes?: number;
  /** Told of each report taken in or refused. */
  readonly onReport?: (event: InboxEvent) => void;
}

export type InboxEvent =
  | ({ readonly kind: "taken" } & IntakeResult)
  | { readonly kind: "refused"; readonly permanent: boolean; readonly reason: string };

export interface Inbox {
  readonly host: string;
  readonly port: number;
  /** Runs the overdue check now (in turn with reports being taken in). */
  check(): Promise<IntakeResult[]>;
  close(): Promise<void>;
}

type SmtpError = Error & { responseCode?: number };

function smtpError(message: string, code: number): SmtpError {
  const error: SmtpError = new Error(message);
  error.responseCode = code;
  return error;
}

export async function startInbox(options: InboxOptions): Promise<Inbox> {
  // The mail libraries are loaded when an inbox starts, not by every program importing heed.
  const [{ simpleParser }, { SMTPServer }] = await Promise.all([
    import("mailparser"),
    import("smtp-server"),
  ]);
  const maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  // Reports are taken in one after another: sequence checks and recoveries never interleave.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };
  const refuse = (reason: string, permanent: boolean): SmtpError => {
    options.onReport?.({ kind: "refused", permanent, reason });
    return smtpError(reason, permanent ? 550 : 451);
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: maxBytes,
    maxClients: MAX_CLIENTS,
    logger: false,
    banner: "heed RUP inbox",
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if ((stream as { sizeExceeded?: boolean }).sizeExceeded === true) {
            throw refuse(`message larger than ${maxBytes} bytes`, true);
          }
          const parsed = parseReport(mail.text ?? "");
          if (parsed.report === null) {
            const first = parsed.diagnostics.find((d) => d.severity === "error");
            throw refuse(
              `not a RUP report: line ${first?.line ?? "?"}: ${first?.message ?? "no text"}`,
              true,
            );
          }
          const report = parsed.report;
          const signature = mail.headers.get(SIGNATURE_HEADER);
          const evidence: ReportEvidence = {
            text: mail.text ?? "",
            signature: typeof signature === "string" ? signature : null,
            recipients: session.envelope.rcptTo.map((to) => to.address),
            sender:
              session.envelope.mailFrom === false
                ? null
                : session.envelope.mailFrom.address || null,
          };
          const taking = () => takeReport(report, options, evidence);
          const result = await serial(taking).catch((error: unknown) => {
            if (error instanceof IntakeRefusal) throw refuse(error.message, error.permanent);
            throw refuse(`cannot take the report in now: ${(error as Error).message}`, false);
          });
          options.onReport?.({ kind: "taken", ...result });
        })
        .then(
          () => callback(),
          (error: SmtpError) =>
            callback(error.responseCode === undefined ? smtpError(error.message, 451) : error),
        );
    },
  });
  await new Promise<void>((ok, fail) => {
    server.server.once("error", fail);
    server.listen(options.port, options.host, () => ok());
  });
  const address = server.server.address() as AddressInfo;
  const check = async (): Promise<IntakeResult[]> => {
    const results = await serial(() => checkOverdue(options));
    for (const r of results) options.onReport?.({ kind: "taken", ...r });
    return results;
  };
  const every = options.checkEveryMs ?? 15 * 60_000;
  const timer = every > 0 ? setInterval(() => void check().catch(() => undefined), every) : null;
  timer?.unref();
  return {
    host: options.host,
    port: address.port,
    check,
    close: async () => {
      if (timer !== null) clearInterval(timer);
      await new Promise<void>((ok) => server.close(() => ok()));
      await chain;
    },
  };
}
