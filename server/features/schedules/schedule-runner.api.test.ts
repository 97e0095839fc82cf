import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { addDays } from "@/server/features/schedules/schedule-dates";
import { runDueSchedules } from "@/server/features/schedules/schedule-runner";
import { createTransfer } from "@/server/features/transfers/create-transfer";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { sweepExpired } from "@/server/lib/housekeeping";
import { createFundedCustomer, ETH_ADDRESS, expectLedgerCleanAfterEach } from "@/tests/support/money";
import { LISTED_ETH, listFiles, uploadBody } from "@/tests/support/ofac-files";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser, TEST_PASSWORD } from "@/tests/support/users";

// The runner (decision 036) is off in this app: each test runs passes by hand with its own clock, a New York
// instant on the day it means, so the dates below are real calendar edge cases whatever today is.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" }, { scheduleRunner: false });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
// Passes run every customer's due schedules: each test's own end with it, so a later test's clock meets none.
afterEach(async () => {
  await t.database.query(
    "update transfer_schedules set status = 'cancelled' where status in ('active', 'paused')",
  );
});

const TODAY = limitDayOf(new Date());
/** Noon in New York on `day` (EST or EDT: 16:00 or 17:00 UTC are both that day there). */
const noonOn = (day: string) => new Date(`${day}T17:00:00Z`);
const run = (day: string) => runDueSchedules({ ...t.app.deps }, { now: () => noonOn(day) });

async function saveRecipient(customer: SignedInUser, address = ETH_ADDRESS): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/recipients",
    headers: { cookie: customer.cookie },
    payload: { name: "Sam Lee", address },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().recipient.id;
}

async function schedule(customer: SignedInUser, body: Record<string, unknown>) {
  const recipientId = body.recipientId ?? (await saveRecipient(customer));
  const res = await t.app.inject({
    method: "POST",
    url: "/api/schedules",
    headers: { cookie: customer.cookie },
    payload: { recipientId, requestKey: `form-${randomBytes(8).toString("hex")}`, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().schedule as { id: string; upcoming: string[] };
}

async function transfersOf(customer: SignedInUser) {
  return t.database.query<{ id: string; amount: string; status: string; created_at: Date }>(
    "select id, amount, status, created_at from transfer_requests where user_id = $1 order by created_at",
    [customer.user.id],
  );
}
async function runsOf(scheduleId: string) {
  return t.database.query<{
    run_on: string;
    outcome: string;
    reason: string | null;
    transfer_id: string | null;
  }>(
    "select run_on::text, outcome, reason, transfer_id from schedule_runs where schedule_id = $1 order by run_on",
    [scheduleId],
  );
}
async function notificationsOf(customer: SignedInUser) {
  return t.database.query<{ title: string; body: string; link: string | null }>(
    "select title, body, link from notifications where user_id = $1 and kind = 'transfer_status' order by id",
    [customer.user.id],
  );
}
async function scheduleRow(id: string) {
  const [row] = await t.database.query<{
    status: string;
    next_run_on: string | null;
    next_run_index: number;
  }>("select status, next_run_on::text, next_run_index from transfer_schedules where id = $1", [id]);
  return row!;
}

describe("running due schedules", () => {
  it("makes a one-off run once, as an ordinary pending transfer request, and tells the customer", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const once = await schedule(customer, { amount: "25.00", cadence: "once", startOn: addDays(TODAY, 1) });

    expect(await run(TODAY)).toEqual({ made: 0, skipped: 0, passed: 0 });
    expect(await run(addDays(TODAY, 1))).toEqual({ made: 1, skipped: 0, passed: 0 });
    expect(await run(addDays(TODAY, 1))).toEqual({ made: 0, skipped: 0, passed: 0 });
    expect(await run(addDays(TODAY, 30))).toEqual({ made: 0, skipped: 0, passed: 0 });

    const transfers = await transfersOf(customer);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ status: "pending" });
    expect(Number(transfers[0]!.amount)).toBe(2500);
    const [key] = await t.database.query<{ key: string }>(
      "select key from idempotency_keys where user_id = $1",
      [customer.user.id],
    );
    expect(key!.key).toBe(`schedule:${once.id}:${addDays(TODAY, 1)}`);
    expect(await runsOf(once.id)).toEqual([
      { run_on: addDays(TODAY, 1), outcome: "made", reason: null, transfer_id: transfers[0]!.id },
    ]);
    expect(await scheduleRow(once.id)).toMatchObject({ status: "completed", next_run_on: null });
    const [told] = await notificationsOf(customer);
    expect(told).toMatchObject({
      title: "Scheduled transfer requested",
      link: `/transfers/${transfers[0]!.id}`,
    });
    expect(told!.body).toContain("$25.00 to Sam Lee");
    expect(told!.body).toContain("This was the schedule's last transfer.");
  });

  it("runs the 31st on the last day of February and every missed weekly run in date order, once each", async () => {
    const customer = await createFundedCustomer(t, admin, "1000.00");
    // Two years ahead at most: the next January 31st, whatever today is.
    const year = Number(TODAY.slice(0, 4)) + 1;
    // Its transfers are written at that clock's time: on PostgreSQL their months' partitions must exist, which the
    // partitions loop keeps three months ahead of the real clock (decision 063); made here as far as the test goes.
    await t.database.query("select partitions_premake(30)");
    const monthly = await schedule(customer, {
      amount: "10.00",
      cadence: "monthly",
      startOn: `${year}-01-31`,
      endOn: `${year}-04-30`,
    });
    const feb = new Date(Date.UTC(year, 2, 0)).getUTCDate();
    expect(monthly.upcoming).toEqual([`${year}-01-31`, `${year}-02-${feb}`, `${year}-03-31`]);
    expect(await run(`${year}-01-31`)).toMatchObject({ made: 1 });
    expect(await run(`${year}-02-${feb - 1}`)).toMatchObject({ made: 0 });
    expect(await run(`${year}-02-${feb}`)).toMatchObject({ made: 1 });
    // The service was down for two months: both missed runs are made, in order, then the schedule ends.
    expect(await run(`${year}-05-15`)).toMatchObject({ made: 2 });
    expect((await runsOf(monthly.id)).map((r) => r.run_on)).toEqual([
      `${year}-01-31`,
      `${year}-02-${feb}`,
      `${year}-03-31`,
      `${year}-04-30`,
    ]);
    expect(await scheduleRow(monthly.id)).toMatchObject({ status: "completed", next_run_on: null });
    expect(await transfersOf(customer)).toHaveLength(4);
  });

  it("skips a run it cannot make with the reason, tells the customer, and moves on to the next date", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    const start = addDays(TODAY, 1);
    const weekly = await schedule(customer, { amount: "60.00", cadence: "weekly", startOn: start });
    expect(await run(start)).toMatchObject({ made: 1 });
    // $40 left: the second week's $60 cannot be made.
    expect(await run(addDays(start, 7))).toMatchObject({ made: 0, skipped: 1 });
    expect((await runsOf(weekly.id))[1]).toMatchObject({ outcome: "skipped", reason: "insufficient_funds" });
    expect(await scheduleRow(weekly.id)).toMatchObject({ status: "active", next_run_on: addDays(start, 14) });
    // The list shows each schedule's latest run: the skipped one, not the first week's.
    const list = await t.app.inject({
      method: "GET",
      url: "/api/schedules",
      headers: { cookie: customer.cookie },
    });
    expect(list.statusCode, list.body).toBe(200);
    const listed = list.json().items.find((s: { id: string }) => s.id === weekly.id);
    expect(listed.lastRun).toMatchObject({ runOn: addDays(start, 7), outcome: "skipped" });
    const skipped = (await notificationsOf(customer)).at(-1)!;
    expect(skipped.title).toBe("Scheduled transfer skipped");
    expect(skipped.body).toContain("was not made: there was not enough available balance.");
    expect(skipped.body).toContain("The next one is on");
    expect(await transfersOf(customer)).toHaveLength(1);
  });

  it("skips runs while the account is frozen, crypto sends are blocked or the recipient was removed", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const start = addDays(TODAY, 1);
    const recipientId = await saveRecipient(customer);
    const weekly = await schedule(customer, {
      recipientId,
      amount: "5.00",
      cadence: "weekly",
      startOn: start,
    });

    await t.database.query("update users set frozen_at = now() where id = $1", [customer.user.id]);
    expect(await run(start)).toMatchObject({ skipped: 1 });
    await t.database.query("update users set frozen_at = null where id = $1", [customer.user.id]);

    const blocked = await t.app.inject({
      method: "PUT",
      url: "/api/transfer/self-limits/send-block",
      headers: { cookie: customer.cookie },
      payload: { on: true, cooldown: "24 hours", password: TEST_PASSWORD },
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(await run(addDays(start, 7))).toMatchObject({ skipped: 1 });

    await t.database.query("delete from saved_recipients where id = $1", [recipientId]);
    expect(await run(addDays(start, 14))).toMatchObject({ skipped: 1 });

    expect((await runsOf(weekly.id)).map((r) => r.reason)).toEqual([
      "account_frozen",
      "sends_blocked",
      "recipient_removed",
    ]);
    expect(await transfersOf(customer)).toHaveLength(0);
    expect((await notificationsOf(customer)).map((n) => n.body.split(": ")[1])).toEqual([
      `your account is frozen. The next one is on ${longDayOf(addDays(start, 7))}.`,
      `crypto sends are blocked on your account. The next one is on ${longDayOf(addDays(start, 14))}.`,
      "the recipient was removed from your saved recipients. The next one is on " +
        longDayOf(addDays(start, 21)) +
        ".",
    ]);
  });

  it("skips a run over the customer's own daily limit", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const lowered = await t.app.inject({
      method: "PUT",
      url: "/api/transfer/self-limits/daily-limit",
      headers: { cookie: customer.cookie },
      payload: { dailyLimit: "20", password: TEST_PASSWORD },
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    const once = await schedule(customer, { amount: "30.00", cadence: "once", startOn: addDays(TODAY, 1) });
    expect(await run(addDays(TODAY, 1))).toMatchObject({ skipped: 1 });
    expect(await runsOf(once.id)).toMatchObject([{ outcome: "skipped", reason: "personal_daily_limit" }]);
    expect(await scheduleRow(once.id)).toMatchObject({ status: "completed" });
  });

  it("never runs a paused or cancelled schedule, and a resumed one picks up from today without the missed runs", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const start = addDays(TODAY, 1);
    const weekly = await schedule(customer, { amount: "5.00", cadence: "weekly", startOn: start });
    const post = (path: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/schedules/${weekly.id}/${path}`,
        headers: { cookie: customer.cookie },
      });
    expect((await post("pause")).statusCode).toBe(200);
    expect(await run(addDays(start, 15))).toMatchObject({ made: 0 });
    expect((await post("resume")).statusCode).toBe(200);
    // Resumed today (the real one): the next run is still the first date.
    expect(await scheduleRow(weekly.id)).toMatchObject({ status: "active", next_run_on: start });
    expect((await post("cancel")).statusCode).toBe(200);
    expect(await run(addDays(start, 30))).toMatchObject({ made: 0 });
    expect(await transfersOf(customer)).toHaveLength(0);
  });
});

describe("a run retried long after its transfer was made", () => {
  it("records the transfer it made, not a second one, once its idempotency record was swept", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const start = addDays(TODAY, 1);
    const weekly = await schedule(customer, { amount: "25.00", cadence: "weekly", startOn: start });
    // The runner dies between the run's transfer and its record.
    const died = runDueSchedules(
      { ...t.app.deps },
      {
        now: () => noonOn(start),
        at: (step) => {
          if (step === "transfer-made") throw new Error("runner died");
        },
      },
    );
    await expect(died).rejects.toThrow("runner died");
    const [made] = await transfersOf(customer);
    expect(await transfersOf(customer)).toHaveLength(1);
    expect(await runsOf(weekly.id)).toEqual([]);

    // Nothing retries for a week: the run's idempotency record ages out and is swept, the claim long expired.
    await t.database.query(
      "update idempotency_keys set created_at = now() - interval '8 days' where user_id = $1",
      [customer.user.id],
    );
    expect((await sweepExpired(t.database.db)).idempotencyKeys).toBeGreaterThanOrEqual(1);
    const [kept] = await t.database.query<{ n: string }>(
      "select count(*)::text as n from idempotency_keys where user_id = $1",
      [customer.user.id],
    );
    expect(kept!.n).toBe("0");
    await t.database.query(
      "update transfer_schedules set lease_until = now() - interval '1 second' where id = $1",
      [weekly.id],
    );

    expect(await run(start)).toEqual({ made: 1, skipped: 0, passed: 0 });
    expect(await transfersOf(customer)).toEqual([made]);
    expect(await runsOf(weekly.id)).toEqual([
      { run_on: start, outcome: "made", reason: null, transfer_id: made!.id },
    ]);
    expect(await scheduleRow(weekly.id)).toMatchObject({ status: "active", next_run_on: addDays(start, 7) });
    expect((await notificationsOf(customer)).map((n) => n.link)).toEqual([`/transfers/${made!.id}`]);
  });

  it("answers a run's second call with the transfer its reference names, even once the account is frozen", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const maker = { id: customer.user.id, isAdmin: false, session: null };
    const input = {
      amount: "12.00",
      recipientName: "Sam Lee",
      purpose: "Rent",
      paymentMethod: "crypto" as const,
      cryptoAddress: ETH_ADDRESS,
      confirmLookalikeAddress: true,
    };
    const runKey = `schedule:${randomBytes(4).toString("hex")}:${TODAY}`;
    const first = await createTransfer(
      t.app.deps,
      maker,
      input,
      undefined,
      new Date(),
      {},
      { scheduleRunKey: runKey },
    );
    expect(first).toMatchObject({ statusCode: 201, replayed: false });
    await t.database.query("update users set frozen_at = now() where id = $1", [customer.user.id]);
    // No Idempotency-Key this time, and another amount (the schedule was edited): the run's reference decides.
    const again = await createTransfer(
      t.app.deps,
      maker,
      { ...input, amount: "13.00" },
      undefined,
      new Date(),
      {},
      { scheduleRunKey: runKey },
    );
    await t.database.query("update users set frozen_at = null where id = $1", [customer.user.id]);
    expect(again.replayed).toBe(true);
    expect(again.body.transferRequest.id).toBe(first.body.transferRequest.id);
    expect(again.body.transferRequest.amountCents).toBe(1200);
    expect(await transfersOf(customer)).toHaveLength(1);
  });
});

describe("a run to an address under review", () => {
  it("is skipped with a neutral reason instead of making a held transfer", async () => {
    // Last in the file: the sanctions list loaded here screens everything after it.
    const compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    const loaded = await t.app.inject({
      method: "POST",
      url: "/api/admin/compliance/lists",
      headers: { cookie: compliance.cookie },
      payload: uploadBody(listFiles()),
    });
    expect(loaded.statusCode, loaded.body).toBe(200);
    const customer = await createFundedCustomer(t, admin, "500.00");
    const recipientId = await saveRecipient(customer, LISTED_ETH);
    const once = await schedule(customer, {
      recipientId,
      amount: "5.00",
      cadence: "once",
      startOn: addDays(TODAY, 1),
    });
    expect(await run(addDays(TODAY, 1))).toMatchObject({ made: 0, skipped: 1 });
    expect(await runsOf(once.id)).toMatchObject([{ outcome: "skipped", reason: "under_review" }]);
    expect(await transfersOf(customer)).toHaveLength(0);
    const [told] = await notificationsOf(customer);
    expect(told!.body).toContain("was not made: this transfer needs a review first.");
    expect(told!.body).not.toMatch(/sanction|OFAC|list/i);
  });
});

function longDayOf(day: string) {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString("en-US", {
    timeZone: "UTC",
    weekday: "long",
    month: "long",
    day: "numeric",
    year: "numeric",
  });
}
