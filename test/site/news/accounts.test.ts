// The news site's accounts: passwords checked against their hashes, sessions bounded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Accounts } from "../../../src/site/news/accounts.js";
import { MAX_PASSWORD_CHARS, MAX_SESSIONS } from "../../../src/site/news/limits.js";

describe("accounts", () => {
  it("logs in with the right password only, whatever the case of the name", async () => {
    const accounts = new Accounts();
    assert.equal((await accounts.register("Ann", "correct-horse")).ok, true);
    assert.equal((await accounts.login("ann", "correct-horse")).ok, true);
    assert.equal((await accounts.login("Ann", "correct-horsE")).ok, false);
    assert.equal((await accounts.login("bob", "correct-horse")).ok, false);
  });

  it(`passwords of ${MAX_PASSWORD_CHARS} characters, not one more`, async () => {
    const accounts = new Accounts();
    assert.equal((await accounts.register("a", "p".repeat(MAX_PASSWORD_CHARS))).ok, true);
    const longer = await accounts.register("b", "p".repeat(MAX_PASSWORD_CHARS + 1));
    assert.equal(longer.ok, false);
    assert.equal((await accounts.login("a", "p".repeat(MAX_PASSWORD_CHARS + 1))).ok, false);
  });

  it(`keeps at most ${MAX_SESSIONS} sessions, dropping the oldest`, async () => {
    const accounts = new Accounts();
    const made = await accounts.register("ann", "correct-horse");
    assert.ok(made.ok);
    const tokens: string[] = [];
    for (let i = 0; i <= MAX_SESSIONS; i++) tokens.push(accounts.open(made.user));
    assert.equal(accounts.user(tokens[0] as string), null, "the oldest is dropped");
    assert.equal(accounts.user(tokens[1] as string)?.name, "ann");
    assert.equal(accounts.user(tokens[MAX_SESSIONS] as string)?.name, "ann");
  });

  it("a closed session is gone", async () => {
    const accounts = new Accounts();
    const made = await accounts.register("ann", "correct-horse");
    assert.ok(made.ok);
    const token = accounts.open(made.user);
    assert.deepEqual(accounts.user(token), { name: "ann", admin: false });
    accounts.close(token);
    assert.equal(accounts.user(token), null);
  });
});
