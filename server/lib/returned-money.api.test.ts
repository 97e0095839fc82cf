import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/server/db/client";
import { users } from "@/server/db/schema";
import {
  captureHold,
  creditFromExternalFunding,
  debitReturnedMoney,
  lockWallet,
  openWallet,
  placeHold,
  postEntry,
  releaseHold,
  systemAccountId,
  verifyLedger,
} from "@/server/lib/ledger";
import { createTestDatabase } from "@/tests/support/test-database";

// Decision 056: a deposit a deep reorg removed is taken back whatever the customer spent; the wallet may then be
// below zero by exactly what it owes (returned_owed), which only shrinks, at commit, as money arrives or a hold
// placed before the reversal is released. Runs on PGlite and on PostgreSQL.
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

let counter = 0;
async function createUser(): Promise<string> {
  counter++;
  const [u] = await database.db
    .insert(users)
    .values({
      email: `returned${counter}@pillar.test`,
      firstName: "Re",
      lastName: "Turned",
      pillarTag: `returned_${counter}`,
      passwordHash: "x",
      isEmailVerified: true,
    })
    .returning({ id: users.id });
  await openWallet(database.db, u!.id);
  return u!.id;
}
const fund = (userId: string, cents: number) =>
  database.db.transaction((tx) =>
    creditFromExternalFunding(tx, userId, { kind: "test_funding", description: "Funding", amount: cents }),
  );
const takeBack = (userId: string, cents: number) =>
  database.db.transaction((tx) =>
    debitReturnedMoney(tx, "usdc_deposits", userId, {
      kind: "usdc_deposit_reversal",
      description: "Reversed",
      amount: cents,
    }),
  );
const holdOf = (userId: string, cents: number) =>
  database.db.transaction(async (tx) =>
    placeHold(tx, await lockWallet(tx, userId), cents, { type: "test", id: `h${cents}` }),
  );
const spend = (userId: string, cents: number) =>
  database.db.transaction(async (tx) => {
    const wallet = await lockWallet(tx, userId);
    await postEntry(tx, {
      kind: "test_spend",
      description: "Spend",
      postings: [
        { accountId: wallet.id, amount: -cents },
        { accountId: await systemAccountId(tx, "usdc_clearing"), amount: cents },
      ],
    });
  });
async function state(userId: string) {
  const [row] = await database.query<{ balance: string; held: string; owed: string }>(
    "select balance::text, held::text, returned_owed::text as owed from ledger_accounts where user_id = $1",
    [userId],
  );
  return { balance: Number(row!.balance), held: Number(row!.held), owed: Number(row!.owed) };
}
const expectClean = async () => expect((await verifyLedger(database.db)).problems).toEqual([]);

describe("money taken back after a deposit reversal", () => {
  it("takes it all back, owes what was spent, refuses every send, and is paid back first by money that arrives", async () => {
    const userId = await createUser();
    await fund(userId, 1_500);
    await spend(userId, 1_000);
    expect(await takeBack(userId, 1_500)).toMatchObject({ balance: -1_000, owed: 1_000 });
    expect(await state(userId)).toEqual({ balance: -1_000, held: 0, owed: 1_000 });
    await expectClean();

    // Nothing leaves: a hold or a debit of any size is refused by the wallet CHECK.
    await expect(holdOf(userId, 1)).rejects.toThrow();
    await expect(spend(userId, 1)).rejects.toThrow();
    expect(await state(userId)).toEqual({ balance: -1_000, held: 0, owed: 1_000 });

    // Money that arrives pays it back first, and what it paid cannot be spent again.
    await fund(userId, 400);
    expect(await state(userId)).toEqual({ balance: -600, held: 0, owed: 600 });
    await expect(spend(userId, 1)).rejects.toThrow();
    await fund(userId, 1_000);
    expect(await state(userId)).toEqual({ balance: 400, held: 0, owed: 0 });
    await expect(spend(userId, 401)).rejects.toThrow();
    await spend(userId, 400);
    expect(await state(userId)).toEqual({ balance: 0, held: 0, owed: 0 });
    await expectClean();
  });

  it("lets a transfer sent before the reversal be captured, and its release end what is owed", async () => {
    const captured = await createUser();
    await fund(captured, 1_500);
    const hold = await holdOf(captured, 1_200);
    expect(await takeBack(captured, 1_500)).toMatchObject({ owed: 1_200 });
    expect(await state(captured)).toEqual({ balance: 0, held: 1_200, owed: 1_200 });
    // The capture closes the hold, then posts: the owed amount must not shrink between the two statements.
    await database.db.transaction(async (tx) => {
      const wallet = await lockWallet(tx, captured);
      await captureHold(tx, hold, {
        kind: "capture",
        description: "Capture",
        postings: [
          { accountId: wallet.id, amount: -1_200 },
          { accountId: await systemAccountId(tx, "usdc_clearing"), amount: 1_200 },
        ],
      });
    });
    expect(await state(captured)).toEqual({ balance: -1_200, held: 0, owed: 1_200 });
    await expectClean();

    // Released instead (the transfer failed): the money is back, nothing is owed, and it cannot be sent twice.
    const released = await createUser();
    await fund(released, 1_500);
    const second = await holdOf(released, 1_200);
    await takeBack(released, 1_500);
    await database.db.transaction((tx) => releaseHold(tx, second));
    expect(await state(released)).toEqual({ balance: 0, held: 0, owed: 0 });
    await expect(holdOf(released, 1)).rejects.toThrow();
    await expectClean();
  });
});
