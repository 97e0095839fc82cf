import { describe, expect, it } from "vitest";
import { createFundedCustomer, expectLedgerCleanAfterEach, requestTransfer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser, TEST_PASSWORD } from "@/tests/support/users";

// GET /api/transfer/limits names what can still leave today: the bank's remaining amount, the customer's own, and
// the lower of the two, which every money form shows, so a form never offers more than the gate passes.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

const limits = async (who: SignedInUser) =>
  (
    await t.app.inject({ method: "GET", url: "/api/transfer/limits", headers: { cookie: who.cookie } })
  ).json();
const setOwnLimit = (who: SignedInUser, dailyLimit: string | null) =>
  t.app.inject({
    method: "PUT",
    url: "/api/transfer/self-limits/daily-limit",
    headers: { cookie: who.cookie },
    payload: { dailyLimit, password: TEST_PASSWORD },
  });

describe("today's remaining amount", () => {
  it("is the bank's alone while the customer has no limit of their own", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    expect((await requestTransfer(t.app, customer, { amount: "80.25" }, "k-bank")).statusCode).toBe(201);
    expect(await limits(customer)).toMatchObject({
      remainingToday: "$1,919.75",
      ownDailyLimit: null,
      ownDailyLimitCents: null,
      ownRemainingToday: null,
      ownRemainingTodayCents: null,
      effectiveDailyLimit: "$2,000.00",
      effectiveDailyLimitCents: 200_000,
      effectiveRemainingToday: "$1,919.75",
      effectiveRemainingTodayCents: 191_975,
    });
  });

  it("is the customer's own when it is lower, and the amount it names is exactly what the gate still passes", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    expect((await setOwnLimit(customer, "100")).statusCode).toBe(200);
    expect((await requestTransfer(t.app, customer, { amount: "80.25" }, "k-own")).statusCode).toBe(201);
    const now = await limits(customer);
    expect(now).toMatchObject({
      dailyLimit: "$2,000.00",
      remainingToday: "$1,919.75",
      ownDailyLimit: "$100.00",
      ownDailyLimitCents: 10_000,
      ownRemainingToday: "$19.75",
      ownRemainingTodayCents: 1_975,
      effectiveDailyLimit: "$100.00",
      effectiveRemainingToday: "$19.75",
      effectiveRemainingTodayCents: 1_975,
    });
    expect((await requestTransfer(t.app, customer, { amount: "19.76" }, "k-over")).json()).toMatchObject({
      reason: "personal_daily_limit",
    });
    expect((await requestTransfer(t.app, customer, { amount: "19.75" }, "k-exact")).statusCode).toBe(201);
    expect(await limits(customer)).toMatchObject({
      ownRemainingToday: "$0.00",
      effectiveRemainingToday: "$0.00",
    });
  });
});
