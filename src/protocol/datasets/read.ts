/**
 * Reading a /data.txt: the form chosen from the content (detect.ts), then the YAML reader or
 * the draft reader, every path resolved against the file's URL. Never throws on content.
 */
import type { Diagnostic } from "../robots/diagnostic.js";
import { detectForm } from "./detect.js";
import { readDraftForm } from "./draft-form.js";
import { MAX_DATA_TXT_BYTES } from "./limits.js";
import { UNKNOWN_SITE } from "./resolve.js";
import type { DataTxt, DataTxtForm } from "./types.js";
import { readYamlForm } from "./yaml-form.js";

export interface ReadDataTxtOptions {
  /**
   * The URL the file is served at (`https://example.com/data.txt`, or a folder's manifest):
   * relative paths resolve against it and every path must be on its site. Absent (a local
   * file), full URLs are only warned about.
   */
  readonly url?: string;
  /** Default `auto`: chosen from the content. */
  readonly form?: "auto" | "yaml" | "draft";
  /** Default {@link MAX_DATA_TXT_BYTES}. */
  readonly maxBytes?: number;
}

const decoder = new TextDecoder("utf-8");
const strict = new TextDecoder("utf-8", { fatal: true });

export function readDataTxt(input: string | Uint8Array, options: ReadDataTxtOptions = {}): DataTxt {
  const maxBytes = options.maxBytes ?? MAX_DATA_TXT_BYTES;
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const over = bytes.byteLength > maxBytes;
  const head = over ? bytes.subarray(0, maxBytes) : bytes;
  // Decoded once, strictly, and again leniently only when that fails: an 8 MiB file is not
  // turned into text twice.
  const strictText = strictDecode(head);
  const text = (strictText ?? decoder.decode(head)).replace(/^\ufeff/, "");
  const diagnostics: Diagnostic[] = [];
  if (strictText === null) {
    diagnostics.push({
      line: null,
      severity: "warning",
      code: "invalid-utf8",
      message: "the file is not valid UTF-8; the bad bytes were read as U+FFFD",
    });
  }
  const choice =
    options.form === undefined || options.form === "auto"
      ? detectForm(text)
      : { form: options.form, reason: `--kind data-${options.form} was asked for`, line: null };
  const context = {
    fileUrl: options.url ?? UNKNOWN_SITE,
    knownSite: options.url !== undefined,
  };
  const base = { formReason: choice.reason, url: options.url ?? null };
  const form: DataTxtForm = choice.form;
  if (form === "empty") {
    diagnostics.push({
      line: null,
      severity: "warning",
      code: "no-entries",
      message: "the file names no datasets: it has only blank lines and comments",
    });
    return { ...base, form, entries: [], records: [], diagnostics };
  }
  if (form === "draft") {
    const draft = readDraftForm(bytes, context, maxBytes);
    return {
      ...base,
      form,
      entries: draft.entries,
      records: draft.records,
      diagnostics: [...diagnostics.filter((d) => d.code !== "invalid-utf8"), ...draft.diagnostics],
    };
  }
  if (over) {
    // A YAML document cut short means something else (a list that ends early, a string cut in
    // two): the file is refused whole.
    diagnostics.push({
      line: null,
      severity: "error",
      code: "size-limit",
      // "over": a reader may stop one byte past the limit, not knowing the whole size.
      message: `the file is over ${maxBytes} bytes, the most a data.txt may have; not read`,
    });
    return { ...base, form, entries: [], records: [], diagnostics };
  }
  const yaml = readYamlForm(text, context);
  return {
    ...base,
    form,
    shape: yaml.shape ?? "list",
    entries: yaml.entries,
    records: [],
    diagnostics: [...diagnostics, ...yaml.diagnostics],
  };
}

function strictDecode(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}
