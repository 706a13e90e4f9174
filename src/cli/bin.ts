#!/usr/bin/env node
// The `heed` command. `npm run build` writes the bundled command line over tsc's output of this
// file (scripts/build-cli.mjs); either way it runs process-main.ts.
import "./process-main.js";
