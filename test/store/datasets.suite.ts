// The contract of DatasetCatalogs (src/store/types.ts), run against every back end, as
// store.suite.ts does for the rest of the store: SQLite (migration 5) and Redis.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StoreError } from "../../src/store/errors.js";
import type { CrawlStore, StoredCatalog } from "../../src/store/types.js";
import type { StoreHarness } from "./store.suite.js";

const catalog = (
  origin: string,
  agent: string,
  extra: Partial<StoredCatalog> = {},
): StoredCatalog => ({
  origin,
  agent,
  at: 1_700_000_000_000,
  outcome: "found",
  status: 200,
  form: "yaml",
  datasets: 2,
  fetchable: 1,
  guesses: 0,
  body: JSON.stringify({ datasets: [{ path: "/a.csv" }, { path: "/b.csv" }], notes: [] }),
  ...extra,
});

export function datasetCatalogsContract(name: string, harness: StoreHarness): void {
  const withStore =
    (test: (store: CrawlStore, reopen: () => Promise<CrawlStore>) => Promise<void>) => async () => {
      const place = await harness.fresh();
      const opened: CrawlStore[] = [];
      const open = async () => {
        const store = await place.open();
        opened.push(store);
        return store;
      };
      try {
        await test(await open(), open);
      } finally {
        for (const store of opened) await store.close();
      }
    };

  describe(`${name}: DatasetCatalogs`, () => {
    it(
      "put then get gives back the same catalog, across connections",
      withStore(async (store, reopen) => {
        const a = catalog("https://a.example", "bot");
        await store.datasets.put(a);
        assert.deepEqual(await store.datasets.get("https://a.example", "bot"), a);
        assert.deepEqual(await (await reopen()).datasets.get("https://a.example", "bot"), a);
      }),
    );

    it(
      '"replacing the one of the same origin and agent"; other agents are kept apart',
      withStore(async (store) => {
        await store.datasets.put(catalog("https://a.example", "bot"));
        const newer = catalog("https://a.example", "bot", {
          at: 1_700_000_100_000,
          outcome: "missing",
          status: 404,
          form: null,
          guesses: 2,
        });
        await store.datasets.put(newer);
        await store.datasets.put(catalog("https://a.example", "other"));
        assert.deepEqual(await store.datasets.get("https://a.example", "bot"), newer);
        assert.equal((await store.datasets.list()).length, 2);
        assert.equal(await store.datasets.get("https://b.example", "bot"), null);
      }),
    );

    it(
      '"every catalog, by origin then agent"',
      withStore(async (store) => {
        for (const [origin, agent] of [
          ["https://c.example", "bot"],
          ["https://a.example", "zeta"],
          ["https://a.example", "alpha"],
          ["https://b.example", "bot"],
        ] as const) {
          await store.datasets.put(catalog(origin, agent));
        }
        assert.deepEqual(
          (await store.datasets.list()).map((c) => `${c.origin} ${c.agent}`),
          [
            "https://a.example alpha",
            "https://a.example zeta",
            "https://b.example bot",
            "https://c.example bot",
          ],
        );
      }),
    );

    it(
      "a catalog that could not be read back is refused with HEED_STORE_BAD_ARGUMENT",
      withStore(async (store) => {
        const BAD: readonly Partial<StoredCatalog>[] = [
          { origin: "" },
          { outcome: "maybe" as StoredCatalog["outcome"] },
          { form: "xml" as StoredCatalog["form"] },
          { datasets: -1 },
          { at: Number.NaN },
        ];
        for (const bad of BAD) {
          await assert.rejects(
            store.datasets.put(catalog("https://a.example", "bot", bad)),
            (error: unknown) =>
              error instanceof StoreError && error.code === "HEED_STORE_BAD_ARGUMENT",
            JSON.stringify(bad),
          );
        }
        assert.deepEqual(await store.datasets.list(), []);
      }),
    );
  });
}
