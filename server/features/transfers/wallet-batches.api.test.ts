import pg from "pg";
import { describe, expect, it } from "vitest";
import { walletBatchStats } from "@/server/features/transfers/transfer-function";
import { createFundedCustomer, expectLedgerCleanAfterEach, requestTransfer } from "@/tests/support/money";
import { waitFor } from "@/tests/support/server-process";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Transfers of one wallet that arrive while its previous call runs go to PostgreSQL together (decision 012).
// To make the batch certain, a second connection holds the wallet's row lock: the first request waits on it
// inside PostgreSQL, the rest wait in the server, and all of them go as one call once the lock is let go.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
const onPostgres = Boolean(process.env.DATABASE_URL);

const summary = async (who: SignedInUser) =>
  (
    await t.app.inject({ method: "GET", url: "/api/account/summary", headers: { cookie: who.cookie } })
  ).json();

/**
 * Sends the requests of `who` while the wallet is locked, each once the one before it is waiting (the first
 * inside PostgreSQL on the lock, the rest in the server), so they arrive in the order given; then lets the
 * lock go. Answers them in that order, and how many calls carried them.
 */
async function sendWhileLocked(who: SignedInUser, sends: { body: Record<string, unknown>; key?: string }[]) {
  const url = (t.database as { url?: string }).url as string;
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  try {
    await locker.query("begin");
    await locker.query("select id from ledger_accounts where user_id = $1 for update", [who.user.id]);
    const before = walletBatchStats(t.database);
    const pending = [];
    for (const [i, { body, key }] of sends.entries()) {
      pending.push(requestTransfer(t.app, who, { recipientRouting: "CRYPTO", ...body }, key));
      await waitFor(
        `request ${i} to wait`,
        () => {
          const now = walletBatchStats(t.database);
          return now.batches - before.batches === 1 && now.queued === i;
        },
        { timeoutMs: 10_000, intervalMs: 10 },
      );
    }
    await locker.query("commit");
    const answers = await Promise.all(pending);
    const after = walletBatchStats(t.database);
    return { answers, calls: after.batches - before.batches, largest: after.largest };
  } finally {
    await locker.end();
  }
}

describe.skipIf(!onPostgres)("transfers of one wallet sent together", () => {
  it("answers each request as a call of its own would, in arrival order, with one call for the waiting ones", async () => {
    const customer = await createFundedCustomer(t, admin, "100");
    const { answers, calls, largest } = await sendWhileLocked(
      customer,
      Array.from({ length: 10 }, (_, i) => ({ body: { amount: 15, purpose: `Rent ${i}` } })),
    );
    // The first went alone (it was waiting on the lock); the nine behind it went as one call.
    expect(calls).toBe(2);
    expect(largest).toBeGreaterThanOrEqual(9);
    // $100 covers six transfers of $15; the seventh and later are refused with what was left each time.
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201, 201, 422, 422, 422, 422]);
    expect(answers.slice(0, 6).map((a) => a.json().transferRequest.purpose)).toEqual([
      "Rent 0",
      "Rent 1",
      "Rent 2",
      "Rent 3",
      "Rent 4",
      "Rent 5",
    ]);
    for (const refused of answers.slice(6)) {
      expect(refused.json()).toMatchObject({ insufficientFunds: true, availableBalance: "$10.00" });
    }
    expect(await summary(customer)).toMatchObject({ availableBalance: "$10.00", pendingBalance: "$90.00" });
  });

  it("keeps idempotency inside one call: a repeated key replays the first answer, a changed body conflicts", async () => {
    const customer = await createFundedCustomer(t, admin, "100");
    const { answers, calls } = await sendWhileLocked(customer, [
      { body: { amount: 5 }, key: "first-alone" },
      { body: { amount: 7 }, key: "same-key" },
      { body: { amount: 7 }, key: "same-key" },
      { body: { amount: 8 }, key: "same-key" },
      { body: { amount: 9 } },
    ]);
    expect(calls).toBe(2);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 409, 201]);
    expect(answers[2].json()).toEqual(answers[1].json());
    expect(answers[3].json().message).toMatch(/idempotency/i);
    expect(await summary(customer)).toMatchObject({ pendingBalance: "$21.00" });
  });

  it("runs each request alone when PostgreSQL refuses the call, so one bad request refuses only itself", async () => {
    const customer = await createFundedCustomer(t, admin, "100");
    // A request PostgreSQL refuses: a trigger on this test's database, for one recipient name only.
    await t.database.query(`create function refuse_poison() returns trigger language plpgsql as $$
      begin
        if new.recipient_name = 'Poison Pill' then raise exception 'refused by the test'; end if;
        return new;
      end $$`);
    await t.database.query(
      "create trigger refuse_poison before insert on transfer_requests for each row execute function refuse_poison()",
    );
    try {
      const { answers, calls } = await sendWhileLocked(customer, [
        { body: { amount: 1 } },
        { body: { amount: 2 } },
        { body: { amount: 3, recipientName: "Poison Pill" } },
        { body: { amount: 4 } },
      ]);
      expect(calls).toBe(2);
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 500, 201]);
      expect(await summary(customer)).toMatchObject({ pendingBalance: "$7.00" });
    } finally {
      await t.database.query("drop trigger refuse_poison on transfer_requests");
      await t.database.query("drop function refuse_poison()");
    }
  });

  it("never gathers two customers' transfers into one call", async () => {
    const [ann, bob] = await Promise.all([
      createFundedCustomer(t, admin, "50"),
      createFundedCustomer(t, admin, "50"),
    ]);
    const before = walletBatchStats(t.database);
    const answers = await Promise.all([
      requestTransfer(t.app, ann, { amount: 1 }),
      requestTransfer(t.app, bob, { amount: 2 }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
    expect(walletBatchStats(t.database).batches - before.batches).toBe(2);
    expect(await summary(ann)).toMatchObject({ pendingBalance: "$1.00" });
    expect(await summary(bob)).toMatchObject({ pendingBalance: "$2.00" });
  });
});
