import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import {
  captureHold,
  creditFromExternalFunding,
  findWallet,
  lockWallet,
  openWallet,
  placeHold,
  postEntry,
  releaseHold,
  systemAccountId,
  verifyLedger,
} from "@/server/lib/ledger";
import { createTestDatabase } from "@/tests/support/test-database";

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
      email: `ledger${counter}@pillar.test`,
      firstName: "Led",
      lastName: "Ger",
      pillarTag: `ledger_${counter}`,
      passwordHash: "x",
      isEmailVerified: true,
    })
    .returning({ id: users.id });
  await openWallet(database.db, u.id);
  return u.id;
}

async function fund(userId: string, cents: number) {
  // The path incoming payments and admin credits run.
  await database.db.transaction((tx) =>
    creditFromExternalFunding(tx, userId, { kind: "test_funding", description: "Funding", amount: cents }),
  );
}

async function expectLedgerClean() {
  const report = await verifyLedger(database.db);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
}

describe("ledger", () => {
  it("has the four system accounts", async () => {
    for (const code of ["external_funding", "usdc_clearing", "fee_revenue", "adjustments"] as const) {
      expect(await systemAccountId(database.db, code)).toMatch(/[0-9a-f-]{36}/);
    }
  });

  it("moves a cached balance with its postings", async () => {
    const userId = await createUser();
    await fund(userId, 12_345);
    expect(await findWallet(database.db, userId)).toMatchObject({ balance: 12_345, held: 0 });
    await expectLedgerClean();
  });

  it("refuses an entry that does not balance, writing nothing", async () => {
    const userId = await createUser();
    const before = await verifyLedger(database.db);
    await expect(
      database.db.transaction(async (tx) => {
        const wallet = await lockWallet(tx, userId);
        await postEntry(tx, {
          kind: "bad",
          description: "Bad",
          postings: [
            { accountId: wallet.id, amount: 100 },
            { accountId: wallet.id, amount: -99 },
          ],
        });
      }),
    ).rejects.toThrow(/does not balance/);
    expect((await verifyLedger(database.db)).entries).toBe(before.entries);
    await expectLedgerClean();
  });

  it("never lets a wallet go below what it holds", async () => {
    const userId = await createUser();
    await fund(userId, 1_000);
    await expect(
      database.db.transaction(async (tx) => {
        const wallet = await lockWallet(tx, userId);
        await placeHold(tx, wallet, 1_001, { type: "test", id: "overdraw" });
      }),
    ).rejects.toBeInstanceOf(AppError);
    await expect(
      database.db.transaction(async (tx) => {
        const wallet = await lockWallet(tx, userId);
        await postEntry(tx, {
          kind: "spend",
          description: "Spend",
          postings: [
            { accountId: wallet.id, amount: -1_001 },
            { accountId: await systemAccountId(tx, "usdc_clearing"), amount: 1_001 },
          ],
        });
      }),
    ).rejects.toBeInstanceOf(AppError);
    expect(await findWallet(database.db, userId)).toMatchObject({ balance: 1_000, held: 0 });
    await expectLedgerClean();
  });

  it("captures or releases a hold exactly once", async () => {
    const userId = await createUser();
    await fund(userId, 5_000);
    const holdId = await database.db.transaction(async (tx) =>
      placeHold(tx, await lockWallet(tx, userId), 2_000, { type: "test", id: "h1" }),
    );
    expect(await findWallet(database.db, userId)).toMatchObject({ balance: 5_000, held: 2_000 });
    await database.db.transaction(async (tx) => {
      const wallet = await lockWallet(tx, userId);
      await captureHold(tx, holdId, {
        kind: "capture",
        description: "Capture",
        postings: [
          { accountId: wallet.id, amount: -2_000 },
          { accountId: await systemAccountId(tx, "usdc_clearing"), amount: 1_960 },
          { accountId: await systemAccountId(tx, "fee_revenue"), amount: 40 },
        ],
      });
    });
    await expect(database.db.transaction((tx) => releaseHold(tx, holdId))).rejects.toThrow(
      /already captured/,
    );
    expect(await findWallet(database.db, userId)).toMatchObject({ balance: 3_000, held: 0 });
    await expectLedgerClean();
  });

  it("reports drift when a cached balance is tampered with", async () => {
    const userId = await createUser();
    await fund(userId, 700);
    await database.query("update ledger_accounts set balance = balance + 1 where user_id = $1", [userId]);
    const report = await verifyLedger(database.db);
    expect(report.ok).toBe(false);
    expect(report.problems.join("\n")).toMatch(/cached balance 701 but postings sum to 700/);
    await database.query("update ledger_accounts set balance = balance - 1 where user_id = $1", [userId]);
    await expectLedgerClean();
  });

  it("streams in batches: the same report at one row a batch, drift found in a late batch, progress counted", async () => {
    const [a, b] = [await createUser(), await createUser()];
    await fund(a, 900);
    await fund(b, 400);
    const whole = await verifyLedger(database.db);
    const phases: Record<string, number> = {};
    const streamed = await verifyLedger(database.db, {
      batchSize: 1,
      onProgress: ({ phase, done }) => {
        phases[phase] = done;
      },
    });
    expect(streamed).toEqual(whole);
    expect(phases).toMatchObject({ entries: whole.entries, accounts: whole.accounts });
    expect(phases.postings).toBeGreaterThan(0);

    // A held amount no open hold explains, and an entry that does not balance: both found two rows a batch.
    await database.query("update ledger_accounts set held = held + 5 where user_id = $1", [b]);
    const [entry] = await database.query<{ id: string }>(
      "insert into journal_entries (kind, description) values ('test', 'stray') returning id",
    );
    await database.query(
      "insert into postings (entry_id, account_id, amount) select $1, id, 3 from ledger_accounts where user_id = $2",
      [entry!.id, a],
    );
    const drifted = await verifyLedger(database.db, { batchSize: 2 });
    expect(drifted.ok).toBe(false);
    expect(drifted.problems).toEqual(
      expect.arrayContaining([
        `entry ${entry!.id} sums to 3`,
        "postings sum to 3, not 0",
        expect.stringMatching(/held 5 but open holds sum to 0/),
        expect.stringMatching(/cached balance 900 but postings sum to 903/),
      ]),
    );
    expect(drifted.entries).toBe(whole.entries + 1);
    await database.query("delete from postings where entry_id = $1", [entry!.id]);
    await database.query("delete from journal_entries where id = $1", [entry!.id]);
    await database.query("update ledger_accounts set held = held - 5 where user_id = $1", [b]);
    await expectLedgerClean();
  });

  it("keeps every invariant through random sequences of funding, holds, captures and releases", async () => {
    const userId = await createUser();
    const op = fc.oneof(
      fc.record({ kind: fc.constant("fund" as const), cents: fc.integer({ min: 1, max: 500_000 }) }),
      fc.record({ kind: fc.constant("hold" as const), cents: fc.integer({ min: 1, max: 500_000 }) }),
      fc.record({ kind: fc.constant("capture" as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant("release" as const), pick: fc.nat() }),
    );
    const open: { id: string; amount: number }[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        for (const o of ops) {
          try {
            if (o.kind === "fund") await fund(userId, o.cents);
            else if (o.kind === "hold") {
              const id = await database.db.transaction(async (tx) =>
                placeHold(tx, await lockWallet(tx, userId), o.cents, { type: "prop", id: String(o.cents) }),
              );
              open.push({ id, amount: o.cents });
            } else if (open.length > 0) {
              const [h] = open.splice(o.pick % open.length, 1);
              await database.db.transaction(async (tx) => {
                const wallet = await lockWallet(tx, userId);
                if (o.kind === "release") return releaseHold(tx, h.id);
                const fee = Math.round(h.amount * 0.02);
                await captureHold(tx, h.id, {
                  kind: "capture",
                  description: "Capture",
                  postings: [
                    { accountId: wallet.id, amount: -h.amount },
                    { accountId: await systemAccountId(tx, "usdc_clearing"), amount: h.amount - fee },
                    ...(fee > 0
                      ? [{ accountId: await systemAccountId(tx, "fee_revenue"), amount: fee }]
                      : []),
                  ],
                });
              });
            }
          } catch (err) {
            // Holds beyond the available balance are refused; nothing else may fail.
            if (!(err instanceof AppError)) throw err;
          }
        }
        const report = await verifyLedger(database.db);
        expect(report.problems).toEqual([]);
        const wallet = await findWallet(database.db, userId);
        expect(wallet!.held).toBe(open.reduce((s, h) => s + h.amount, 0));
        expect(wallet!.balance - wallet!.held).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 25 },
    );
  });
});
