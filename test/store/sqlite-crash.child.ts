// The crawler half of sqlite.test.ts's kill -9 test: run as
// `node sqlite-crash.child.js --crash-child <db>`, it adds and leases until it is killed,
// printing one JSON line after each commit. The test runner also loads this file, with no
// arguments: then it does nothing.
import { openSqliteStore } from "../../src/store/sqlite/index.js";
import type { NewUrl } from "../../src/store/types.js";

export const CRASH_T0 = 1_700_000_000_000;
export const CRASH_ORIGINS = Array.from({ length: 10 }, (_, i) => `https://o${i}.crash.test`);
/** URLs added per batch: 5 for each origin. */
export const CRASH_BATCH = 50;
/** Every this many leases, one is left in flight and never settled. */
export const CRASH_IN_FLIGHT_EVERY = 7;
/** Stops by itself after this many batches, in case nobody kills it. */
const MAX_BATCHES = 2000;

export type CrashLine =
  | { readonly added: number }
  | { readonly leased: string; readonly origin: string; readonly nextAt: number }
  | { readonly inFlight: string }
  | { readonly done: string };

export function crashBatch(batch: number): NewUrl[] {
  return Array.from({ length: CRASH_BATCH }, (_, i) => {
    const origin = CRASH_ORIGINS[i % CRASH_ORIGINS.length] ?? "";
    return {
      url: `${origin}/b${batch}/u${i}`,
      origin,
      depth: 1,
      priority: i % 3,
      notBefore: 0,
      referrer: `${origin}/`,
      meta: null,
    };
  });
}

const [flag, path] = process.argv.slice(2);
if (flag === "--crash-child" && path !== undefined) {
  const store = await openSqliteStore(path);
  const say = (line: CrashLine) => process.stdout.write(`${JSON.stringify(line)}\n`);
  let now = CRASH_T0;
  let leases = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    await store.frontier.add(crashBatch(batch));
    say({ added: batch });
    for (const origin of CRASH_ORIGINS) {
      now += 10;
      const nextAt = now + 5;
      const lease = await store.frontier.lease(origin, now, 60_000, nextAt);
      if (lease === null) continue;
      say({ leased: lease.entry.url, origin, nextAt });
      leases += 1;
      if (leases % CRASH_IN_FLIGHT_EVERY === 0) {
        say({ inFlight: lease.entry.url });
        continue;
      }
      await store.frontier.settle(lease, { kind: "done", status: 200, at: now });
      say({ done: lease.entry.url });
    }
  }
  await store.close();
}
