/**
 * Web Bot Auth as node:http middleware: verifies each signed request (./bot-verifier.ts),
 * remembers the verdict for the access log, and answers 401 where a signature is required and
 * missing or failing. Mounts in any server: `(req, res, next) => …`, or `check` directly.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { PathPattern, requestPath } from "../protocol/robots/index.js";
import { type BotVerdict, BotVerifier, type BotVerifierOptions } from "./bot-verifier.js";

export interface BotAuthOptions extends BotVerifierOptions {
  /** A verifier to share; default one made from these options. */
  readonly verifier?: BotVerifier;
  /**
   * Paths, in robots.txt syntax (`/*`, `/private/`, `/*.pdf$`), where a verified signature is
   * required: an unsigned or failing request there is answered 401.
   */
  readonly requireSignature?: readonly string[];
}

export interface BotAuth {
  /**
   * Verifies `req` and answers 401 when it must be signed and is not verified. Resolves to the
   * verdict and whether the request was answered.
   */
  check(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ verdict: BotVerdict; refused: boolean }>;
  /** The same as connect-style middleware: `next()` unless refused; errors go to `next(error)`. */
  middleware(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
}

const verdicts = new WeakMap<IncomingMessage, BotVerdict>();

/** The verdict the middleware reached on `req`, for logs and handlers after it. */
export function botVerdictOf(req: IncomingMessage): BotVerdict | undefined {
  return verdicts.get(req);
}

export function createBotAuth(options: BotAuthOptions = {}): BotAuth {
  const verifier = options.verifier ?? new BotVerifier(options);
  const patterns = (options.requireSignature ?? []).map(
    (source) => new PathPattern(source, { wildcards: true }),
  );
  const required = (req: IncomingMessage): boolean => {
    if (patterns.length === 0) return false;
    const path = requestPath(req.url ?? "/");
    // A path that cannot be read is held to the rule: refusing is the safe side.
    return !path.ok || patterns.some((p) => p.matches(path.path));
  };
  const check: BotAuth["check"] = async (req, res) => {
    const verdict = await verifier.verifyIncoming(req);
    verdicts.set(req, verdict);
    if (verdict.ok || !required(req)) return { verdict, refused: false };
    const body = `401 Unauthorized: a verified Web Bot Auth signature is required here (${verdict.reason}: ${verdict.message})\n`;
    // Set one by one, not through writeHead: the access log reads content-length back.
    res.statusCode = 401;
    res.setHeader("content-type", "text/plain; charset=utf-8");
    res.setHeader("content-length", Buffer.byteLength(body));
    // RFC 9421 §5.1: what a signature here must cover.
    res.setHeader("accept-signature", 'sig1=("@authority" "signature-agent");tag="web-bot-auth"');
    res.end(req.method === "HEAD" ? undefined : body);
    return { verdict, refused: true };
  };
  return {
    check,
    middleware(req, res, next) {
      check(req, res).then(
        ({ refused }) => {
          if (!refused) next();
        },
        (error: unknown) => next(error),
      );
    },
  };
}

/** The access log's word on a verdict: `bot=<keyid>` or `bot-refused=<reason>`; "" when unsigned. */
export function describeVerdict(verdict: BotVerdict | undefined): string {
  if (verdict === undefined) return "";
  if (verdict.ok) {
    const via = verdict.directory === null ? "" : ` via ${verdict.directory}`;
    return `bot=${verdict.keyid}${via}${verdict.directorySigned ? " (signed directory)" : ""}`;
  }
  return verdict.reason === "unsigned" ? "unsigned" : `bot-refused=${verdict.reason}`;
}
