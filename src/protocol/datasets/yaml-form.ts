/**
 * The YAML form of /data.txt, as deployed in practice: a list of entries, each with a `path`
 * (one path, or a list of the dataset's files) and optional `name`, `title`, `description`,
 * `license`, `type`, `rows`, `cols` and `columns` (name → type).
 *
 * Read with the `yaml` package, restricted: the failsafe schema (every scalar a string, so no
 * value becomes a date, a float or a custom type behind the catalog's back), and the document
 * walked by hand, refusing anchors, aliases and tags (an alias can multiply a small file into
 * a huge value; a tag can ask for types). An entry with a refused construct is left out with a
 * diagnostic naming its line; the other entries stand. Nothing is ever converted with `toJS`.
 */
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type Pair,
  parseDocument,
  visit,
  type YAMLMap,
} from "yaml";
import type { Diagnostic } from "../robots/diagnostic.js";
import {
  MAX_COLUMNS,
  MAX_ENTRIES,
  MAX_ENTRY_VALUES,
  MAX_FILES_PER_ENTRY,
  MAX_UNSPLIT_VALUES,
  MAX_YAML_DEPTH,
  MAX_YAML_VALUES,
} from "./limits.js";
import { scanYaml } from "./yaml-scan.js";
import { resolveDatasetPath } from "./resolve.js";
import type { ColumnSpec, DatasetEntry } from "./types.js";

export interface FormContext {
  /** The URL the file is served at; its paths resolve against it. */
  readonly fileUrl: string;
  /** False when the site is not known (a local file): full URLs are then only warned about. */
  readonly knownSite: boolean;
}

export interface FormReading {
  readonly entries: readonly DatasetEntry[];
  readonly diagnostics: readonly Diagnostic[];
  /** `mapping` when the file is one dataset's mapping (a folder's own data.txt), else a list. */
  readonly shape?: "list" | "mapping";
}

/** The text fields of an entry, read as strings. */
const TEXT_FIELDS = ["name", "title", "description", "license", "type"] as const;
type TextField = (typeof TEXT_FIELDS)[number];
const COUNT_FIELDS = ["rows", "cols"] as const;
type CountField = (typeof COUNT_FIELDS)[number];

interface Problem {
  readonly offset: number;
  readonly code: string;
  readonly message: string;
}

/**
 * Reads the YAML form. The text is scanned first (yaml-scan.ts): a plain top-level list is
 * parsed entry by entry, each entry alone, so that memory holds one entry's nodes at a time and
 * the limits on entries and values stop the reading before the parser does the work; any other
 * document is parsed whole if it is small enough, else refused.
 */
export function readYamlForm(
  text: string,
  context: FormContext,
  options: { readonly split?: boolean } = {},
): FormReading {
  // One start past MAX_ENTRIES: its line names where reading stopped.
  const scan = scanYaml(text, MAX_ENTRIES + 1);
  // `split: false` reads a small document whole whatever its shape: the reference the split
  // reading is compared with in the fuzz tests.
  if (scan.starts === null || (options.split === false && scan.total <= MAX_UNSPLIT_VALUES)) {
    if (scan.total > MAX_UNSPLIT_VALUES) {
      return {
        entries: [],
        diagnostics: [
          problem(
            null,
            "value-limit",
            `the document holds more than ${MAX_UNSPLIT_VALUES} values and is not a plain list of entries ("- path: …" at the start of a line); not read`,
          ),
        ],
      };
    }
    const whole = readDocument(text, 0, 0, context);
    if (!whole.broken) return whole;
    return { entries: [], diagnostics: [...whole.diagnostics, unreadable()] };
  }
  const diagnostics: Diagnostic[] = [];
  const entries: DatasetEntry[] = [];
  const preludeLines = scan.prelude.split("\n").length - 1;
  let spent = 0;
  for (let k = 0; k < scan.starts.length; k++) {
    const line = scan.lines[k] ?? 0;
    if (k >= MAX_ENTRIES) {
      diagnostics.push(
        problem(line, "entry-limit", `more than ${MAX_ENTRIES} entries; the rest were not read`),
      );
      break;
    }
    const values = scan.values[k] ?? 0;
    if (values > MAX_ENTRY_VALUES) {
      diagnostics.push(
        problem(
          line,
          "entry-size-limit",
          `entry ${k + 1} holds more than ${MAX_ENTRY_VALUES} values; left out unread`,
        ),
      );
      continue;
    }
    spent += values;
    if (spent > MAX_YAML_VALUES) {
      diagnostics.push(
        problem(
          line,
          "value-limit",
          `more than ${MAX_YAML_VALUES} values in the file; entries from entry ${k + 1} on were not read`,
        ),
      );
      break;
    }
    const chunk = scan.prelude + text.slice(scan.starts[k], scan.starts[k + 1] ?? text.length);
    const part = readDocument(chunk, line - 1 - preludeLines, k, context);
    diagnostics.push(...part.diagnostics);
    if (part.broken) {
      // As for a document read whole: a broken document cannot be trusted to mean what it seems.
      diagnostics.push(unreadable());
      return { entries: [], diagnostics };
    }
    entries.push(...part.entries);
  }
  return { entries, diagnostics };
}

/**
 * Reads one document: the whole file, or one entry of a split file (`lineShift` lines and
 * `firstIndex` entries before it).
 */
function readDocument(
  text: string,
  lineShift: number,
  firstIndex: number,
  context: FormContext,
): FormReading & { readonly broken: boolean } {
  const lines = new LineCounter();
  const diagnostics: Diagnostic[] = [];
  const lineOf = (offset: number): number => lineShift + lines.linePos(offset).line;
  const doc = parseDocument(text, {
    schema: "failsafe",
    uniqueKeys: true,
    merge: false,
    strict: true,
    prettyErrors: false,
    lineCounter: lines,
  });
  for (const error of doc.errors) {
    const noticed = error.pos[0];
    const opened = openedAt(doc, noticed);
    const where =
      lineOf(opened) === lineOf(noticed) ? "" : ` (it runs on to line ${lineOf(noticed)})`;
    diagnostics.push(
      problem(
        lineOf(opened),
        "yaml-syntax",
        `YAML: ${firstLine(error.message)}${where} [${error.code}]`,
      ),
    );
  }
  for (const warning of doc.warnings) {
    // Unresolved tags are reported by the walk below, once, with the reason.
    if (warning.code === "TAG_RESOLVE_FAILED") continue;
    diagnostics.push({
      line: lineOf(warning.pos[0]),
      severity: "warning",
      code: "yaml-warning",
      message: `YAML: ${firstLine(warning.message)} [${warning.code}]`,
    });
  }
  if (doc.errors.length > 0) {
    return { entries: [], diagnostics, broken: true };
  }
  const refused = refusedConstructs(doc);
  const root = doc.contents;
  // Each refused construct belongs to the entry around it, or to the list itself.
  const items = root !== null && isSeq(root) ? root.items.filter(isNodeLike) : [];
  const byItem = new Map<Node, Problem[]>();
  const rootProblems: Problem[] = [];
  for (const p of refused) {
    const item = itemAt(p.offset, items);
    if (item === null) rootProblems.push(p);
    else byItem.set(item, [...(byItem.get(item) ?? []), p]);
  }
  for (const p of refused) diagnostics.push(problem(lineOf(p.offset), p.code, p.message));
  if (root === null) {
    diagnostics.push(problem(null, "no-entries", "the YAML document is empty: no entries"));
    return { entries: [], diagnostics, broken: false };
  }
  if (rootProblems.length > 0) {
    diagnostics.push(
      problem(
        lineOf(rootProblems[0]?.offset ?? 0),
        "yaml-refused",
        "the list itself uses a refused construct; no entry was read",
      ),
    );
    return { entries: [], diagnostics, broken: false };
  }
  if (isMap(root) && hasPathKey(root)) {
    // The form R pins writes in each dataset's folder: one dataset, its fields at the top.
    diagnostics.push({
      line: lineOf(nodeStart(root)),
      severity: "info",
      code: "mapping-form",
      message:
        'one dataset written as a mapping ("path: …" at the top), as in a folder\'s own data.txt',
    });
    const entry = readEntry(root, firstIndex + 1, lineOf, context, diagnostics);
    return { entries: entry === null ? [] : [entry], diagnostics, broken: false, shape: "mapping" };
  }
  if (!isSeq(root)) {
    const got = isMap(root) ? "a mapping without a path" : "a single value";
    diagnostics.push(
      problem(
        lineOf(root.range?.[0] ?? 0),
        "not-a-list",
        `expected a list of entries ("- path: …") or one dataset's mapping ("path: …"), got ${got}`,
      ),
    );
    return { entries: [], diagnostics, broken: false };
  }
  const entries: DatasetEntry[] = [];
  for (let i = 0; i < root.items.length; i++) {
    const item = root.items[i];
    if (firstIndex + i >= MAX_ENTRIES) {
      diagnostics.push(
        problem(
          lineOf(nodeStart(item)),
          "entry-limit",
          `more than ${MAX_ENTRIES} entries; the rest were not read`,
        ),
      );
      break;
    }
    if (!isNodeLike(item)) continue;
    const own = byItem.get(item) ?? [];
    if (own.length > 0) {
      diagnostics.push(
        problem(
          lineOf(nodeStart(item)),
          "entry-refused",
          `entry ${firstIndex + i + 1} is left out: it uses ${describeRefused(own)}, which data.txt does not allow`,
        ),
      );
      continue;
    }
    const entry = readEntry(item, firstIndex + i + 1, lineOf, context, diagnostics);
    if (entry !== null) entries.push(entry);
  }
  if (entries.length === 0 && root.items.length === 0) {
    diagnostics.push(
      problem(lineOf(nodeStart(root)), "no-entries", "the list is empty: no entries"),
    );
  }
  return { entries, diagnostics, broken: false };
}

/**
 * Anchors, aliases and tags anywhere in the document, and collections nested deeper than
 * {@link MAX_YAML_DEPTH}. An explicit stack, bounded by the depth limit, so that no input can
 * make the walk itself deep.
 */
function refusedConstructs(doc: Document): Problem[] {
  const problems: Problem[] = [];
  const root = doc.contents;
  if (root === null) return problems;
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 1 }];
  let depthReported = false;
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (!isNodeLike(node)) continue;
    const offset = nodeStart(node);
    if (isAlias(node)) {
      problems.push({
        offset,
        code: "yaml-alias",
        message: `alias *${node.source}: aliases are not allowed`,
      });
      continue;
    }
    if (typeof node.anchor === "string") {
      problems.push({
        offset,
        code: "yaml-anchor",
        message: `anchor &${node.anchor}: anchors are not allowed`,
      });
    }
    if (typeof node.tag === "string") {
      problems.push({
        offset,
        code: "yaml-tag",
        message: `tag ${node.tag}: tags and custom types are not allowed`,
      });
    }
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth >= MAX_YAML_DEPTH) {
      if (!depthReported) {
        depthReported = true;
        problems.push({
          offset,
          code: "depth-limit",
          message: `collections nested deeper than ${MAX_YAML_DEPTH} levels are not read`,
        });
      }
      continue;
    }
    for (const item of node.items) {
      if (isMap(node)) {
        const pair = item as Pair;
        stack.push({ node: pair.key, depth: depth + 1 }, { node: pair.value, depth: depth + 1 });
      } else stack.push({ node: item, depth: depth + 1 });
    }
  }
  return problems.sort((a, b) => a.offset - b.offset);
}

/**
 * Where the value a syntax error belongs to opened. The yaml package reports an unterminated
 * quoted scalar or flow collection where it gave up, at its end: the next line, or the end of
 * the file. The line to mend is where the quote or bracket opened: the innermost such value
 * that runs up to `offset`. Any other error stays where it was reported.
 */
function openedAt(doc: Document, offset: number): number {
  let opened = offset;
  visit(doc, {
    Node(_key, node) {
      const range = node.range;
      if (range === null || range === undefined) return;
      const runsOn = isScalar(node)
        ? node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE"
        : (isMap(node) || isSeq(node)) && node.flow === true;
      if (
        runsOn &&
        range[0] < offset &&
        offset <= range[2] &&
        (opened === offset || range[0] > opened)
      )
        opened = range[0];
    },
  });
  return opened;
}

/** The item whose range holds `offset` (items in document order), by binary search; or null. */
function itemAt(offset: number, items: readonly Node[]): Node | null {
  let low = 0;
  let high = items.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const range = (items[mid] as Node).range;
    if (range === null || range === undefined) return null;
    if (offset < range[0]) high = mid - 1;
    else if (offset >= range[2]) low = mid + 1;
    else return items[mid] as Node;
  }
  return null;
}

function describeRefused(problems: readonly Problem[]): string {
  const kinds = new Set(
    problems.map((p) => p.code.replace("yaml-", "").replace("depth-limit", "deep nesting")),
  );
  const names = [...kinds].map((k) =>
    k === "alias" ? "an alias" : k === "anchor" ? "an anchor" : k === "tag" ? "a tag" : k,
  );
  return names.join(" and ");
}

function readEntry(
  node: Node,
  index: number,
  lineOf: (offset: number) => number,
  context: FormContext,
  diagnostics: Diagnostic[],
): DatasetEntry | null {
  const line = lineOf(nodeStart(node));
  if (!isMap(node)) {
    diagnostics.push(
      problem(line, "bad-entry", `entry ${index} is not a mapping of fields ("path: …"); left out`),
    );
    return null;
  }
  const fields = readFields(node, line, lineOf, diagnostics);
  const pathNode = fields.get("path");
  if (pathNode === undefined) {
    diagnostics.push(problem(line, "missing-path", `entry ${index} has no path; left out`));
    return null;
  }
  const path = readPath(pathNode.value, pathNode.line, diagnostics);
  if (path === null) return null;
  const list = typeof path === "string" ? [path] : path;
  const urls: string[] = [];
  for (const p of list) {
    const resolved = resolveDatasetPath(p, context.fileUrl);
    if (resolved.ok) urls.push(resolved.url);
    else if (!context.knownSite && resolved.code === "outside-site" && /^https?:\/\//i.test(p)) {
      diagnostics.push({
        line: pathNode.line,
        severity: "warning",
        code: "absolute-url",
        message: `"${p}" is a full URL: it must be on the site that serves this file`,
      });
      urls.push(p);
    } else diagnostics.push(problem(pathNode.line, resolved.code, resolved.message));
  }
  if (urls.length === 0) {
    diagnostics.push(
      problem(line, "no-usable-path", `entry ${index} has no path on the site; left out`),
    );
    return null;
  }
  const text: Record<TextField, string | null> = {
    name: null,
    title: null,
    description: null,
    license: null,
    type: null,
  };
  for (const key of TEXT_FIELDS) {
    const field = fields.get(key);
    if (field !== undefined) text[key] = readText(key, field.value, field.line, diagnostics);
  }
  const counts: Record<CountField, number | null> = { rows: null, cols: null };
  for (const key of COUNT_FIELDS) {
    const field = fields.get(key);
    if (field !== undefined) counts[key] = readCount(key, field.value, field.line, diagnostics);
  }
  const columnsField = fields.get("columns");
  const columns =
    columnsField === undefined
      ? null
      : readColumns(columnsField.value, columnsField.line, lineOf, diagnostics);
  const extra: Record<string, string> = {};
  for (const [key, field] of fields) {
    if (KNOWN.has(key)) continue;
    if (isScalar(field.value)) {
      diagnostics.push({
        line: field.line,
        severity: "info",
        code: "unknown-field",
        message: `"${key}" is not a data.txt field; kept as written`,
      });
      Object.defineProperty(extra, key, { value: String(field.value.value), enumerable: true });
    } else {
      diagnostics.push({
        line: field.line,
        severity: "warning",
        code: "unknown-field",
        message: `"${key}" is not a data.txt field and is not a plain value; ignored`,
      });
    }
  }
  const single = typeof path === "string" ? path : null;
  return {
    path,
    urls,
    ...text,
    ...counts,
    columns,
    extra,
    line,
    manifest: single !== null && isManifestPath(single),
    agents: null,
    record: null,
  };
}

const KNOWN = new Set<string>(["path", ...TEXT_FIELDS, ...COUNT_FIELDS, "columns", "metadata"]);

function hasPathKey(map: YAMLMap): boolean {
  return map.items.some(
    (pair) =>
      isScalar(pair.key) &&
      typeof pair.key.value === "string" &&
      pair.key.value.toLowerCase() === "path",
  );
}

/** True for a path naming a folder or a folder's own data.txt: a manifest to follow. */
export function isManifestPath(path: string): boolean {
  const bare = path.replace(/[?#].*$/, "");
  return bare.endsWith("/") || /(?:^|\/)data\.txt$/i.test(bare);
}

interface Field {
  readonly value: unknown;
  readonly line: number;
}

function readFields(
  map: YAMLMap,
  entryLine: number,
  lineOf: (offset: number) => number,
  diagnostics: Diagnostic[],
): Map<string, Field> {
  const fields = new Map<string, Field>();
  for (const pair of map.items) {
    const key = pair.key;
    const line = isNodeLike(key) ? lineOf(nodeStart(key)) : entryLine;
    if (!isScalar(key) || typeof key.value !== "string") {
      diagnostics.push(problem(line, "bad-key", "a field name must be plain text; field ignored"));
      continue;
    }
    const name = key.value;
    const lower = name.toLowerCase();
    if (lower !== name && KNOWN.has(lower)) {
      diagnostics.push({
        line,
        severity: "warning",
        code: "field-case",
        message: `"${name}" read as "${lower}": data.txt field names are lower-case`,
      });
    }
    const valueLine = isNodeLike(pair.value) ? lineOf(nodeStart(pair.value)) : line;
    fields.set(KNOWN.has(lower) ? lower : name, { value: pair.value, line: valueLine });
  }
  const metadata = fields.get("metadata");
  if (metadata !== undefined) {
    fields.delete("metadata");
    if (isMap(metadata.value)) {
      // R pins keeps a dataset's own fields under `metadata`: each is read as if written at the
      // top, where the top does not already say it.
      for (const [key, field] of readFields(metadata.value, metadata.line, lineOf, diagnostics))
        if (key !== "path" && !fields.has(key)) fields.set(key, field);
    } else if (!(isScalar(metadata.value) && metadata.value.value === null)) {
      diagnostics.push({
        line: metadata.line,
        severity: "warning",
        code: "bad-field",
        message: "metadata must be a mapping of fields; ignored",
      });
    }
  }
  return fields;
}

function readPath(
  value: unknown,
  line: number,
  diagnostics: Diagnostic[],
): string | string[] | null {
  if (isScalar(value) && typeof value.value === "string" && value.value !== "") return value.value;
  if (isSeq(value)) {
    const paths: string[] = [];
    for (const item of value.items) {
      if (paths.length >= MAX_FILES_PER_ENTRY) {
        diagnostics.push(
          problem(
            line,
            "path-limit",
            `more than ${MAX_FILES_PER_ENTRY} files in one path list; the rest were not read`,
          ),
        );
        break;
      }
      if (isScalar(item) && typeof item.value === "string" && item.value !== "")
        paths.push(item.value);
      else
        diagnostics.push(
          problem(line, "bad-path", "a path list holds only paths; an item was ignored"),
        );
    }
    if (paths.length > 0) return paths;
  }
  diagnostics.push(
    problem(line, "bad-path", "path must be a path or a list of paths; entry left out"),
  );
  return null;
}

function readText(
  key: string,
  value: unknown,
  line: number,
  diagnostics: Diagnostic[],
): string | null {
  if (isScalar(value) && typeof value.value === "string") return value.value;
  if (value === null || (isScalar(value) && value.value === null)) return null;
  diagnostics.push(
    problem(line, "bad-field", `${key} must be text, not a list or mapping; ignored`),
  );
  return null;
}

function readCount(
  key: string,
  value: unknown,
  line: number,
  diagnostics: Diagnostic[],
): number | null {
  const raw = isScalar(value) && typeof value.value === "string" ? value.value.trim() : null;
  if (raw !== null && /^\d+$/.test(raw)) {
    const n = Number(raw);
    if (Number.isSafeInteger(n)) return n;
  }
  diagnostics.push(
    problem(
      line,
      "bad-count",
      `${key} must be a whole number, got ${raw === null ? "a collection" : `"${raw}"`}; ignored`,
    ),
  );
  return null;
}

function readColumns(
  value: unknown,
  line: number,
  lineOf: (offset: number) => number,
  diagnostics: Diagnostic[],
): ColumnSpec[] | null {
  if (!isMap(value)) {
    diagnostics.push(
      problem(line, "bad-columns", "columns must be a mapping of column name to type; ignored"),
    );
    return null;
  }
  const columns: ColumnSpec[] = [];
  for (const pair of value.items) {
    if (columns.length >= MAX_COLUMNS) {
      diagnostics.push(
        problem(line, "column-limit", `more than ${MAX_COLUMNS} columns; the rest were not read`),
      );
      break;
    }
    const key = pair.key;
    const at = isNodeLike(key) ? lineOf(nodeStart(key)) : line;
    if (!isScalar(key) || typeof key.value !== "string") {
      diagnostics.push(
        problem(at, "bad-columns", "a column name must be plain text; column ignored"),
      );
      continue;
    }
    const type = pair.value;
    if (type === null || (isScalar(type) && typeof type.value === "string")) {
      columns.push({ name: key.value, type: type === null ? "" : String(type.value) });
    } else {
      diagnostics.push(
        problem(at, "bad-columns", `column "${key.value}": its type must be text; column ignored`),
      );
    }
  }
  return columns;
}

function isNodeLike(value: unknown): value is Node {
  return typeof value === "object" && value !== null && "range" in value;
}

function nodeStart(node: unknown): number {
  return isNodeLike(node) ? (node.range?.[0] ?? 0) : 0;
}

function unreadable(): Diagnostic {
  return problem(null, "yaml-unreadable", "the YAML has errors; no entry was read from it");
}

function problem(line: number | null, code: string, message: string): Diagnostic {
  return { line, severity: "error", code, message };
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}
