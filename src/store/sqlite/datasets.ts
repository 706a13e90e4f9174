/** Each host's dataset catalog in the SQLite file (migration 5, table `dataset_catalogs`). */
import type Database from "better-sqlite3";
import { StoreError } from "../errors.js";
import type { DatasetCatalogs, StoredCatalog } from "../types.js";
import { checkCatalog, isForm, isOutcome } from "../datasets.js";

interface CatalogRow {
  readonly origin: string;
  readonly agent: string;
  readonly at: number;
  readonly outcome: string;
  readonly status: number | null;
  readonly form: string | null;
  readonly datasets: number;
  readonly fetchable: number;
  readonly guesses: number;
  readonly body: string;
}

export function sqliteDatasetCatalogs(db: Database.Database): DatasetCatalogs {
  const put = db.prepare<[CatalogRow]>(
    `INSERT OR REPLACE INTO dataset_catalogs
       (origin, agent, at, outcome, status, form, datasets, fetchable, guesses, body)
     VALUES (@origin, @agent, @at, @outcome, @status, @form, @datasets, @fetchable, @guesses, @body)`,
  );
  const get = db.prepare<[string, string], CatalogRow>(
    "SELECT * FROM dataset_catalogs WHERE origin = ? AND agent = ?",
  );
  const list = db.prepare<[], CatalogRow>("SELECT * FROM dataset_catalogs ORDER BY origin, agent");
  return {
    async put(catalog) {
      checkCatalog(catalog);
      put.run({ ...catalog });
    },
    async get(origin, agent) {
      const row = get.get(origin, agent);
      return row === undefined ? null : fromRow(row);
    },
    async list() {
      return list.all().map(fromRow);
    },
  };
}

function fromRow(row: CatalogRow): StoredCatalog {
  const { outcome, form } = row;
  if (!isOutcome(outcome) || (form !== null && !isForm(form))) {
    throw new StoreError(
      "HEED_STORE_CORRUPT",
      `dataset catalog of ${row.origin}: outcome ${outcome}, form ${String(form)}`,
    );
  }
  return { ...row, outcome, form };
}
