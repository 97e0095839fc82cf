import { describe, expect, it } from "vitest";
import { savedRecipients } from "@/server/db/schema";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser } from "@/tests/support/users";

const t = setUpTestApp();

const SAVED = "0x52908400098527886E0F7030069857D2E4169EE7";
const SOLANA = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

/** Whether `candidate` imitates `saved`, asked of the one rule: the lookalike_recipient SQL function. */
async function isLookalikeAddress(candidate: string, saved: string): Promise<boolean> {
  const customer = await createVerifiedUser(t.database);
  await t.database.db
    .insert(savedRecipients)
    .values({ userId: customer.user.id, name: "Saved", address: saved });
  const rows = await t.database.query<{ name: string }>(
    "select name from lookalike_recipient($1::uuid, $2)",
    [customer.user.id, candidate],
  );
  return rows.length === 1;
}

describe("lookalike addresses (lookalike_recipient)", () => {
  it("flags another address with the same first 4 (after 0x) and last 4 characters, in any case", async () => {
    expect(await isLookalikeAddress(`0x5290${"f".repeat(32)}9ee7`, SAVED)).toBe(true);
    expect(await isLookalikeAddress(`0X5290${"F".repeat(32)}9EE7`.replace("0X", "0x"), SAVED)).toBe(true);
  });

  it("does not flag the same address, or one differing at either end", async () => {
    expect(await isLookalikeAddress(SAVED.toLowerCase(), SAVED)).toBe(false);
    expect(await isLookalikeAddress(`0x5291${"f".repeat(32)}9ee7`, SAVED)).toBe(false);
    expect(await isLookalikeAddress(`0x5290${"f".repeat(32)}9ee8`, SAVED)).toBe(false);
    // "0x52" alone is not a match: the 0x every Ethereum address shares is not counted.
    expect(await isLookalikeAddress(`0x52aa${"f".repeat(32)}9ee7`, SAVED)).toBe(false);
  });

  it("compares Solana addresses from their first character", async () => {
    expect(await isLookalikeAddress("7EcDaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaFLtV", SOLANA)).toBe(true);
    // Without a 0x to drop, the whole address is compared, whatever its case: the same one is no lookalike.
    expect(await isLookalikeAddress(SOLANA.toLowerCase(), SOLANA)).toBe(false);
  });

  it("answers nothing when the address itself is saved as well: the customer vouched for it", async () => {
    const customer = await createVerifiedUser(t.database);
    const lookalike = `0x5290${"f".repeat(32)}9ee7`;
    await t.database.db.insert(savedRecipients).values([
      { userId: customer.user.id, name: "Saved", address: SAVED },
      { userId: customer.user.id, name: "Also saved", address: lookalike },
    ]);
    const rows = await t.database.query("select * from lookalike_recipient($1::uuid, $2)", [
      customer.user.id,
      lookalike.toUpperCase().replace("0X", "0x"),
    ]);
    expect(rows).toEqual([]);
  });
});
