// crawler/usage-site-files.ts: a site's tdmrep.json read once, however many pages wait for it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_TDMREP_SITES, TdmRepFiles } from "../../src/crawler/usage-site-files.js";
import { readTdmRepJson } from "../../src/protocol/usage/index.js";

describe("TdmRepFiles", () => {
  it("reads once per site; concurrent pages wait for the one read", async () => {
    const reads: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((ok) => (release = ok));
    const files = new TdmRepFiles(async (origin) => {
      reads.push(origin);
      await gate;
      return readTdmRepJson('[{"location":"/","tdm-reservation":1}]');
    });
    const waiting = [files.ensure("https://a.test"), files.ensure("https://a.test")];
    assert.equal(files.get("https://a.test"), null);
    release();
    await Promise.all(waiting);
    await files.ensure("https://a.test");
    assert.deepEqual(reads, ["https://a.test"]);
    assert.equal(files.get("https://a.test")?.rules.length, 1);
  });

  it("a read that fails is remembered as no file, and never throws", async () => {
    let calls = 0;
    const files = new TdmRepFiles(async () => {
      calls++;
      throw new Error("network");
    });
    await files.ensure("https://b.test");
    await files.ensure("https://b.test");
    assert.equal(files.get("https://b.test"), null);
    assert.equal(calls, 1);
  });

  it(`keeps at most ${MAX_TDMREP_SITES} sites, dropping the oldest`, async () => {
    const files = new TdmRepFiles(async () => readTdmRepJson("[]"));
    for (let i = 0; i <= MAX_TDMREP_SITES; i++) await files.ensure(`https://s${i}.test`);
    assert.equal(files.get("https://s0.test"), null);
    assert.notEqual(files.get(`https://s${MAX_TDMREP_SITES}.test`), null);
  });
});
