/**
 * Each host's dataset catalog in Redis: one hash (`P datasets`, ./keys.ts), field
 * `<agent> <origin>` (an agent is a name token, without spaces), value the catalog as JSON.
 */
import { checkCatalog, isForm, isOutcome } from "../datasets.js";
import { StoreError } from "../errors.js";
import type { DatasetCatalogs, StoredCatalog } from "../types.js";
import type { RedisClient, RedisKeys } from "./keys.js";

export function redisDatasetCatalogs(client: RedisClient, keys: RedisKeys): DatasetCatalogs {
  const field = (origin: string, agent: string) => `${agent} ${origin}`;
  return {
    async put(catalog) {
      checkCatalog(catalog);
      await client.hset(
        keys.datasets,
        field(catalog.origin, catalog.agent),
        JSON.stringify(catalog),
      );
    },
    async get(origin, agent) {
      const text = await client.hget(keys.datasets, field(origin, agent));
      return text === null ? null : parse(text);
    },
    async list() {
      const all = await client.hvals(keys.datasets);
      return all
        .map(parse)
        .sort((a, b) => compare(a.origin, b.origin) || compare(a.agent, b.agent));
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function parse(text: string): StoredCatalog {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoreError("HEED_STORE_CORRUPT", "a dataset catalog is not JSON", { cause: error });
  }
  const c = value as Partial<StoredCatalog> | null;
  if (
    c === null ||
    typeof c !== "object" ||
    typeof c.origin !== "string" ||
    typeof c.agent !== "string" ||
    typeof c.outcome !== "string" ||
    !isOutcome(c.outcome) ||
    (c.form !== null && (typeof c.form !== "string" || !isForm(c.form))) ||
    typeof c.body !== "string"
  ) {
    throw new StoreError(
      "HEED_STORE_CORRUPT",
      "a dataset catalog has a shape this heed never writes",
    );
  }
  return {
    origin: c.origin,
    agent: c.agent,
    at: Number(c.at),
    outcome: c.outcome,
    status: c.status ?? null,
    form: c.form ?? null,
    datasets: Number(c.datasets),
    fetchable: Number(c.fetchable),
    guesses: Number(c.guesses),
    body: c.body,
  };
}
