import { afterEach, describe, expect, it, vi } from "vitest";
import { createFundedCustomer, expectLedgerCleanAfterEach, requestTransfer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import {
  createVerifiedUser,
  logIn,
  type SignedInUser,
  setUpAdminUser,
  TEST_PASSWORD,
} from "@/tests/support/users";

// The customer's own limits (issue 32 §5, decision 035), enforced by money_out_gate / money_out_limits under the
// wallet lock. The clock is the server's Date (faked below), which the route sends to the SQL functions.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 3_600_000;
/**
 * Moves the clock `ms` past the real now. PGlite's now() follows it too, so the customer's session ends past its
 * 12 hours like a real one would: they sign in again.
 */
async function later(who: SignedInUser, ms: number) {
  vi.useRealTimers();
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
  who.cookie = await logIn(t.app, who.user.email, TEST_PASSWORD);
}

const put = (who: SignedInUser, path: string, payload: unknown) =>
  t.app.inject({
    method: "PUT",
    url: `/api/transfer/self-limits/${path}`,
    headers: { cookie: who.cookie },
    payload: payload as object,
  });
const selfLimits = async (who: SignedInUser) =>
  (
    await t.app.inject({ method: "GET", url: "/api/transfer/self-limits", headers: { cookie: who.cookie } })
  ).json();
const send = (who: SignedInUser, amount: string, key?: string) =>
  requestTransfer(t.app, who, { amount }, key ?? `k-${Math.random()}`);
const funded = () => createFundedCustomer(t, admin, "1000.00");

describe("the personal daily limit", () => {
  it("lowers at once and refuses what would pass it, with a clear message", async () => {
    const customer = await funded();
    const lowered = await put(customer, "daily-limit", { dailyLimit: "100" });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(lowered.json()).toMatchObject({
      message: "Your daily limit is lowered now.",
      selfLimits: { personalDailyLimit: "$100.00", pendingRaise: null },
    });
    expect((await send(customer, "60")).statusCode).toBe(201);
    const refused = await send(customer, "50");
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      reason: "personal_daily_limit",
      personalLimitExceeded: true,
      personalDailyLimit: "$100.00",
      remainingToday: "$40.00",
      message: "This is over the daily limit you set yourself ($100.00). You can send $40.00 more today.",
    });
    expect((await send(customer, "40")).statusCode).toBe(201);
  });

  it("holds under racing requests: never more than the limit leaves, whatever the order", async () => {
    const customer = await funded();
    await put(customer, "daily-limit", { dailyLimit: "100" });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => send(customer, "30", `race-${i}`)),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 422)).toHaveLength(9);
    for (const r of results.filter((r) => r.statusCode === 422)) {
      expect(r.json().reason).toBe("personal_daily_limit");
    }
    const [row] = await t.database.query(
      "select coalesce(sum(amount), 0)::int as total from transfer_requests where user_id = $1",
      [customer.user.id],
    );
    expect(row!.total).toBe(9_000);
  });

  it("raises only after 24 hours, announced by e-mail; lowering cancels a waiting raise", async () => {
    const customer = await funded();
    await put(customer, "daily-limit", { dailyLimit: "50" });
    const raised = await put(customer, "daily-limit", { dailyLimit: "500" });
    expect(raised.statusCode).toBe(200);
    expect(raised.json().message).toBe(
      "Your daily limit will rise in 24 hours. We sent you an e-mail about it.",
    );
    expect(raised.json().selfLimits).toMatchObject({
      personalDailyLimit: "$50.00",
      pendingRaise: { dailyLimit: "$500.00", dailyLimitCents: 50_000 },
    });
    const mail = await t.database.query(
      "select subject from mail_outbox where to_address = $1 and kind = 'daily_limit_raised'",
      [customer.user.email],
    );
    expect(mail).toEqual([{ subject: expect.stringContaining("$500.00") }]);
    expect((await send(customer, "60")).json().reason).toBe("personal_daily_limit");

    await later(customer, 23 * HOUR);
    const r23 = await send(customer, "60");
    expect(r23.json().reason, r23.body).toBe("personal_daily_limit");
    await later(customer, 24 * HOUR + 60_000);
    expect((await selfLimits(customer)).personalDailyLimit).toBe("$500.00");
    expect((await send(customer, "60")).statusCode).toBe(201);
    vi.useRealTimers();

    // A waiting raise to no limit at all, then lowered again: the lower one applies at once, the raise is gone.
    const other = await funded();
    await put(other, "daily-limit", { dailyLimit: "50" });
    await put(other, "daily-limit", { dailyLimit: null });
    expect((await selfLimits(other)).pendingRaise).toMatchObject({ dailyLimit: null });
    const lower = await put(other, "daily-limit", { dailyLimit: "20" });
    expect(lower.json().selfLimits).toMatchObject({ personalDailyLimit: "$20.00", pendingRaise: null });
    await later(other, 25 * HOUR);
    expect((await selfLimits(other)).personalDailyLimit).toBe("$20.00");
  });

  it.each([
    [{ dailyLimit: "2500" }, "Your own daily limit must be less than the bank's $2,000"],
    [{ dailyLimit: "0" }, "Your own daily limit must be more than $0"],
    [{ dailyLimit: "-5" }, "Your own daily limit must be more than $0"],
    [{ dailyLimit: "1.234" }, "Enter a dollar amount with at most 2 decimals"],
    [{ dailyLimit: ["1"] }, /dailyLimit/i],
    [{ dailyLimit: "10", userId: "someone-else" }, /unrecognized|userId/i],
    [{}, /dailyLimit/i],
  ])("refuses %j with a 400", async (body, message) => {
    const customer = await funded();
    const res = await put(customer, "daily-limit", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it("refuses staff, who never bank", async () => {
    const res = await put(admin, "daily-limit", { dailyLimit: "10" });
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe("staff_account");
  });
});

describe("Block crypto sends", () => {
  it("refuses every transfer while on and through the whole cooldown, which nothing shortens", async () => {
    const customer = await funded();
    const on = await put(customer, "send-block", { on: true, cooldown: "7 days" });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().selfLimits).toMatchObject({ sendsBlocked: true, blockOn: true, cooldown: "7 days" });

    const blocked = await send(customer, "5");
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({
      reason: "sends_blocked",
      sendsBlocked: true,
      message:
        "You blocked crypto sends. Turn the block off in Settings; sending opens again after its cooldown.",
    });

    // While on, the cooldown may only grow.
    const shorter = await put(customer, "send-block", { on: true, cooldown: "24 hours" });
    expect(shorter.statusCode).toBe(409);
    expect(shorter.json()).toMatchObject({
      reason: "cooldown_shorter",
      message: "While sends are blocked, the cooldown can only be made longer",
    });

    const off = await put(customer, "send-block", { on: false });
    expect(off.statusCode).toBe(200);
    const until = new Date(off.json().selfLimits.blockedUntil).getTime();
    expect(until).toBeGreaterThan(Date.now() + 7 * 24 * HOUR - 60_000);
    const cooling = await send(customer, "5");
    expect(cooling.statusCode).toBe(403);
    expect(cooling.json()).toMatchObject({
      reason: "sends_blocked",
      blockedUntil: new Date(until).toISOString(),
    });
    expect(cooling.json().message).toMatch(
      /^You blocked crypto sends\. The block ends on .+, and no one can end it sooner\.$/,
    );

    // Switching it off again, or on and off with a shorter cooldown, never brings the end closer.
    await put(customer, "send-block", { on: false });
    await put(customer, "send-block", { on: true, cooldown: "24 hours" });
    const again = await put(customer, "send-block", { on: false });
    expect(new Date(again.json().selfLimits.blockedUntil).getTime()).toBe(until);

    // Staff may only write a note: the note route takes nothing else, and no admin route changes the block.
    const note = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${customer.user.id}/self-limit-notes`,
      headers: { cookie: admin.cookie },
      payload: { note: "Customer asked to lift the block early; explained the cooldown." },
    });
    expect(note.statusCode, note.body).toBe(201);
    expect(note.json().selfLimits.blockedUntil).toBe(new Date(until).toISOString());
    const sneaky = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${customer.user.id}/self-limit-notes`,
      headers: { cookie: admin.cookie },
      payload: { note: "lift", blockedUntil: null, blockOn: false },
    });
    expect(sneaky.statusCode).toBe(400);
    // The customer's own routes, with the admin's cookie, are refused (staff never bank) and touch nothing.
    expect((await put(admin, "send-block", { on: false })).statusCode).toBe(403);

    // Not even a direct write: the table's trigger refuses any shortening or removal.
    await expect(
      t.database.query("update customer_limits set blocked_until = now() where user_id = $1", [
        customer.user.id,
      ]),
    ).rejects.toThrow(/cannot be shortened/);
    await expect(
      t.database.query("delete from customer_limits where user_id = $1", [customer.user.id]),
    ).rejects.toThrow(/cannot be removed/);
    expect((await selfLimits(customer)).blockedUntil).toBe(new Date(until).toISOString());

    await later(customer, 7 * 24 * HOUR - HOUR);
    expect((await send(customer, "5")).statusCode).toBe(403);
    await later(customer, 7 * 24 * HOUR + 60_000);
    expect((await send(customer, "5")).statusCode).toBe(201);
  });

  it("blocks a switch-off of an on block whose full cooldown is not written, even by hand", async () => {
    const customer = await funded();
    await put(customer, "send-block", { on: true, cooldown: "12 months" });
    await expect(
      t.database.query(
        "update customer_limits set block_on = false, blocked_until = now() + interval '1 day' where user_id = $1",
        [customer.user.id],
      ),
    ).rejects.toThrow(/full cooldown/);
    await expect(
      t.database.query("update customer_limits set block_cooldown = '24 hours' where user_id = $1", [
        customer.user.id,
      ]),
    ).rejects.toThrow(/cannot be shortened/);
    expect((await selfLimits(customer)).blockOn).toBe(true);
  });

  it.each([
    [{ on: true }, "Choose how long the block lasts after you turn it off"],
    [{ on: true, cooldown: "1 minute" }, /cooldown/i],
    [{ on: "yes", cooldown: "7 days" }, /on/i],
    [{ on: false, blockedUntil: "2020-01-01T00:00:00Z" }, /unrecognized|blockedUntil/i],
  ])("refuses %j with a 400", async (body, message) => {
    const customer = await funded();
    const res = await put(customer, "send-block", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it("goes with its customer: deleting the account removes a block the customer set", async () => {
    const leaving = await createVerifiedUser(t.database);
    expect((await put(leaving, "send-block", { on: true, cooldown: "12 months" })).statusCode).toBe(200);
    await t.database.query("delete from users where id = $1", [leaving.user.id]);
    expect(
      await t.database.query("select 1 from customer_limits where user_id = $1", [leaving.user.id]),
    ).toEqual([]);
  });

  it("answers 404 for a note on an unknown or staff account, and 403 to a customer", async () => {
    const customer = await funded();
    const note = (userId: string, who: SignedInUser) =>
      t.app.inject({
        method: "POST",
        url: `/api/admin/users/${userId}/self-limit-notes`,
        headers: { cookie: who.cookie },
        payload: { note: "x" },
      });
    expect((await note("00000000-0000-4000-8000-000000000000", admin)).statusCode).toBe(404);
    expect((await note(admin.user.id, admin)).statusCode).toBe(404);
    expect((await note(customer.user.id, customer)).statusCode).toBe(403);
    const stranger = await createVerifiedUser(t.database);
    expect((await selfLimits(stranger)).sendsBlocked).toBe(false);
  });
});
