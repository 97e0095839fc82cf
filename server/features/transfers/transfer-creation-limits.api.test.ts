import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { createTestApp, type TestApp } from "@/tests/support/test-app";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

// Two apps: one with a small daily count cap (limits raised), one with the per-minute limit at a quarter of
// production (5 a minute) and the cap out of the way, so each test sees exactly one of the two limits.
let capped: TestApp;
let throttled: TestApp;

beforeAll(async () => {
  [capped, throttled] = await Promise.all([
    createTestApp({ RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "3" }),
    createTestApp({ RATE_LIMIT_SCALE: "0.25" }),
  ]);
});
afterAll(async () => {
  await Promise.all([capped.close(), throttled.close()]);
});

const transfer = (t: TestApp, who: SignedInUser, key: string, amount = "0.01") =>
  requestTransfer(t.app, who, { amount, recipientRouting: "CRYPTO" }, key);

async function fundedCustomer(t: TestApp) {
  const admin = await createAdminUser(t.database);
  const customer = await createFundedCustomer(t, admin, "100.00");
  return { admin, customer };
}

const balances = async (t: TestApp, who: SignedInUser) =>
  (
    await t.app.inject({ method: "GET", url: "/api/account/summary", headers: { cookie: who.cookie } })
  ).json();

describe("the daily count cap", () => {
  it("refuses the transfer past the cap with a flag, writes nothing, and still replays an answered key", async () => {
    const { admin, customer } = await fundedCustomer(capped);
    const first = await transfer(capped, customer, "count-1");
    expect(first.statusCode).toBe(201);
    expect((await transfer(capped, customer, "count-2")).statusCode).toBe(201);
    // A cancelled request still counts: the cap is on creating requests, not on money sent.
    const third = await transfer(capped, customer, "count-3");
    const cancel = await capped.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${third.json().transferRequest.id}`,
      headers: { cookie: admin.cookie },
      payload: { status: "cancelled", adminNotes: "customer asked" },
    });
    expect(cancel.statusCode).toBe(200);
    const before = await balances(capped, customer);

    const refused = await transfer(capped, customer, "count-4");
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: "UNPROCESSABLE",
      dailyCountLimitExceeded: true,
      dailyCountLimit: 3,
      message: "You can make at most 3 transfer requests per day. Please try again tomorrow.",
    });
    expect(refused.json().reason).toBe("daily_count_limit");
    expect(await balances(capped, customer)).toEqual(before);

    const replay = await transfer(capped, customer, "count-1");
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json().transferRequest.id).toBe(first.json().transferRequest.id);
    await expectLedgerClean(capped.database);
  });

  it("counts each customer on their own", async () => {
    const { customer: busy } = await fundedCustomer(capped);
    const { customer: other } = await fundedCustomer(capped);
    for (const key of ["a", "b", "c"]) expect((await transfer(capped, busy, key)).statusCode).toBe(201);
    expect((await transfer(capped, busy, "d")).statusCode).toBe(422);
    expect((await transfer(capped, other, "a")).statusCode).toBe(201);
    await expectLedgerClean(capped.database);
  });
});

describe("the per-minute creation limit", () => {
  it("answers 429 past the limit, never refuses a replay, and leaves other customers alone", async () => {
    const { customer } = await fundedCustomer(throttled);
    const { customer: other } = await fundedCustomer(throttled);
    const made = [];
    for (let i = 0; i < 5; i++) {
      const res = await transfer(throttled, customer, `burst-${i}`);
      expect(res.statusCode).toBe(201);
      made.push(res.json().transferRequest.id);
    }
    const before = await balances(throttled, customer);
    const refused = await transfer(throttled, customer, "burst-5");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: expect.any(Number) });
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(await balances(throttled, customer)).toEqual(before);

    const replay = await transfer(throttled, customer, "burst-0");
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json().transferRequest.id).toBe(made[0]);

    expect((await transfer(throttled, other, "burst-0")).statusCode).toBe(201);
    await expectLedgerClean(throttled.database);
  });

  it("counts a payment by $tag with the transfers: one count per customer across both areas' routes", async () => {
    const { admin, customer } = await fundedCustomer(throttled);
    const payee = await createFundedCustomer(throttled, admin, "1.00");
    for (let i = 0; i < 5; i++)
      expect((await transfer(throttled, customer, `mixed-${i}`)).statusCode).toBe(201);
    const before = await balances(throttled, customer);
    const paid = await throttled.app.inject({
      method: "POST",
      url: "/api/transfer/tag-payments",
      headers: { cookie: customer.cookie, "idempotency-key": "mixed-tag" },
      payload: { tag: `$${payee.user.pillarTag}`, amount: "0.01" },
    });
    expect(paid.statusCode).toBe(429);
    expect(paid.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(await balances(throttled, customer)).toEqual(before);
    await expectLedgerClean(throttled.database);
  });
});
