import type { JsonFields } from "../choices.js";
import type { Decision, GroupSummary } from "../../protocol/robots/decision.js";
import {
  cachedJson,
  decisionText,
  type Rules,
  writeJsonContract,
  writeJsonMiddle,
  writeJsonVerdict,
} from "../check-answer.js";
import { LineBytes } from "../line-bytes.js";
import { FileField } from "./file-field.js";
import { PieceSlab } from "./piece-slab.js";

// Robots whose middles are kept for one file.
const TOKENS_KEPT = 256;
// Product tokens whose `"token"` field is kept across files, and their bytes: a batch asks as
// a few robots, and the bounds keep memory flat when it asks as thousands with long names.
const TOKEN_FIELDS_KEPT = 1024;
const TOKEN_FIELD_BYTES_KEPT = 4 * 1024 * 1024;
// And at most this many middles, and bytes of pieces, in all: one robot's lines may be decided
// by each of the tens of thousands of rules a 500 KiB file holds, a rule's line may be
// kilobytes long, and 256 robots times those is gigabytes.
const MIDDLES_KEPT = 16 * 1024;
const PIECE_BYTES_KEPT = 8 * 1024 * 1024;

/**
 * The middle of a `--batch` answer line, from the end of the URL to the input line's number:
 * what the decision says (dialect, line, rule, reason, delay, token, group) and the robots-file
 * field, the same for every URL of one file that one robot's same line decides. Written from
 * pieces made once and kept as bytes, for the file being answered (a batch names its files in
 * runs). In JSON the verdict (dialect to basis) is kept per group chosen and deciding line,
 * whichever robot asks: the robots a file does not name share its `*` groups' verdicts; the
 * token, group and file follow as a piece per robot. Text keeps a middle per robot and line.
 * A JSON line of the contract's fields only has a verdict of `dialect`, `line` and `rule`, and
 * no tail.
 */
export class DecisionMiddles {
  private rules: Rules | null = null;
  private file = "";
  /** JSON: per group chosen, per decision key. Text: per product token, per decision key. */
  private readonly byOwner = new Map<GroupSummary | string | null, Map<number, Uint8Array>>();
  /** JSON: per product token, the rest of the middle: token, group and file. */
  private readonly tailsByToken = new Map<string, Uint8Array>();
  // What tails are joined from: the token field of each robot, kept across files, memory of
  // its own; and, for the file being answered, the group field of each group chosen and the
  // file's own field.
  private readonly tokenFields = new Map<string, Uint8Array>();
  private tokenFieldBytes = 0;
  private readonly groupFields = new Map<GroupSummary | null, Uint8Array>();
  private fileFieldBytes: Uint8Array | null = null;
  private count = 0;
  private bytes = 0;
  private readonly scratch = new LineBytes(1024);
  private readonly fileField: FileField;

  // The pieces of the file being answered, dropped together when it changes.
  private readonly slab = new PieceSlab();

  /** JSON with every field: the token, group and file follow the verdict. */
  private readonly withTail: boolean;

  constructor(
    private readonly json: boolean,
    fields: JsonFields = "all",
  ) {
    this.fileField = new FileField(json);
    this.withTail = json && fields === "all";
  }

  /** The middle of `d`'s line, for the robots file `file` whose rules are `rules`. */
  write(out: LineBytes, rules: Rules, file: string, d: Decision): void {
    const key = keyOf(d);
    if (key === 0) {
      this.make(out, file, d);
      return;
    }
    // A file's run of lines may name any number of robots: the middles kept are bounded.
    if (
      rules !== this.rules ||
      file !== this.file ||
      this.byOwner.size >= TOKENS_KEPT ||
      this.tailsByToken.size >= TOKENS_KEPT ||
      this.count >= MIDDLES_KEPT ||
      this.bytes >= PIECE_BYTES_KEPT
    ) {
      this.rules = rules;
      this.file = file;
      this.byOwner.clear();
      this.tailsByToken.clear();
      this.groupFields.clear();
      this.fileFieldBytes = null;
      this.count = 0;
      this.bytes = 0;
    }
    const owner = this.json ? d.group : d.agent;
    let byKey = this.byOwner.get(owner);
    if (byKey === undefined) {
      byKey = new Map();
      this.byOwner.set(owner, byKey);
    }
    let piece = byKey.get(key);
    if (piece === undefined) {
      if (this.json) {
        this.scratch.text('"');
        if (this.withTail) writeJsonVerdict(this.scratch, d);
        else writeJsonContract(this.scratch, d);
      } else {
        this.make(this.scratch, file, d);
      }
      piece = this.keep(this.scratch);
      byKey.set(key, piece);
      this.count++;
    }
    out.piece(piece);
    if (this.withTail) out.piece(this.tail(file, d));
  }

  /** How many middles (in JSON, verdicts) are kept now. */
  get kept(): number {
    return this.count;
  }

  /** The bytes of the pieces kept now. */
  get keptBytes(): number {
    return this.bytes;
  }

  /** The bytes of the robots' token fields kept now, across files. */
  get keptTokenBytes(): number {
    return this.tokenFieldBytes;
  }

  /**
   * `,"token":…,"group":…,"robots":…,"input":` for `d`'s robot: in one file a robot's
   * decisions all come from one choice of groups.
   */
  private tail(file: string, d: Decision): Uint8Array {
    let piece = this.tailsByToken.get(d.agent);
    if (piece === undefined) {
      // Joined from fields made once: a batch names each file in a run of lines, and each of
      // its robots starts a tail there.
      piece = this.slab.join(
        this.tokenField(d.agent),
        this.groupField(d.group),
        this.ownField(file),
      );
      this.bytes += piece.length;
      this.tailsByToken.set(d.agent, piece);
    }
    return piece;
  }

  /** `,"token":"…"`. */
  private tokenField(token: string): Uint8Array {
    let field = this.tokenFields.get(token);
    if (field === undefined) {
      if (
        this.tokenFields.size >= TOKEN_FIELDS_KEPT ||
        this.tokenFieldBytes >= TOKEN_FIELD_BYTES_KEPT
      ) {
        this.tokenFields.clear();
        this.tokenFieldBytes = 0;
      }
      this.scratch.text(',"token":');
      this.scratch.json(token);
      // Memory of its own: a piece of the file's slab would keep the slab.
      field = new Uint8Array(this.scratch.view());
      this.scratch.clear();
      this.tokenFields.set(token, field);
      this.tokenFieldBytes += field.length;
    }
    return field;
  }

  /** `,"group":{…}`, for the file being answered. */
  private groupField(group: GroupSummary | null): Uint8Array {
    let field = this.groupFields.get(group);
    if (field === undefined) {
      this.scratch.text(',"group":');
      this.scratch.text(cachedJson(group));
      field = this.keep(this.scratch);
      this.groupFields.set(group, field);
    }
    return field;
  }

  /** `,"robots":"…","input":`, for the file being answered. */
  private ownField(file: string): Uint8Array {
    if (this.fileFieldBytes === null) {
      this.scratch.text(this.fileField.of(file));
      this.fileFieldBytes = this.keep(this.scratch);
    }
    return this.fileFieldBytes;
  }

  /** What `scratch` holds as a piece kept for this file; `scratch` is left empty. */
  private keep(scratch: LineBytes): Uint8Array {
    const piece = this.slab.copyOf(scratch.view());
    scratch.clear();
    this.bytes += piece.length;
    return piece;
  }

  private make(out: LineBytes, file: string, d: Decision): void {
    if (this.json && !this.withTail) {
      out.text('"');
      writeJsonContract(out, d);
    } else if (this.json) {
      out.text('"');
      writeJsonMiddle(out, d);
      out.text(this.fileField.of(file));
    } else {
      out.text(this.fileField.of(file));
      out.text(` (${decisionText(d)})`);
    }
  }
}

/**
 * What tells apart the decisions of one robot in one file that share their middle: the
 * deciding line, or which default; 0 for a decision whose middle is written afresh (an
 * error, a time window, REGP's per-URL plans, the robots.txt itself, whose decision has no
 * group to tell its delay by).
 */
function keyOf(d: Decision): number {
  if (d.error !== undefined || d.detail !== undefined) return 0;
  if (d.dialect === "regp" || (d.next !== undefined && d.next !== null)) return 0;
  switch (d.reason) {
    case "rule":
      return d.line ?? 0;
    case "default":
      return d.basis === "no-group" ? -1 : d.basis === "no-matching-rule" ? -2 : 0;
    default:
      return 0;
  }
}
