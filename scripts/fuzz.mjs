// `npm run fuzz`: the fuzz tests of test/fuzz/ with many more runs and bigger inputs than
// `npm test` gives them. `npm run fuzz -- 100000` sets the runs of each property; HEED_FUZZ_SEED
// replays a failure fast-check printed.
import { spawnSync } from "node:child_process";

const runs = process.argv[2] ?? process.env.HEED_FUZZ_RUNS ?? "20000";
const result = spawnSync(process.execPath, ["--test", "dist/test/fuzz/"], {
  stdio: "inherit",
  env: {
    ...process.env,
    HEED_FUZZ_RUNS: runs,
    HEED_FUZZ_SCALE: process.env.HEED_FUZZ_SCALE ?? "400",
  },
});
process.exit(result.status ?? 1);
