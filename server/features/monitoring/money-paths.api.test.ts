import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { MonitoringAlert, RuleName } from "@/contract/monitoring";
import { addDays } from "@/server/features/schedules/schedule-dates";
import { runDueSchedules } from "@/server/features/schedules/schedule-runner";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { expectMoneyConsistent } from "@/tests/support/transfer-invariants";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Decision 054: payments by $tag, money requests paid and scheduled transfers go through the
// monitoring rules, judged by the jobs room's monitoring consumer after their commit, on both sides of a payment.
// The consumers and the schedule runner run only when a test runs them; every test ends with the ledger invariants.
const t = setUpTestApp(
  { RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" },
  { scheduleRunner: false, jobs: { consumerEveryMs: 3_600_000, consumerWakeDelayMs: 3_600_000 } },
);
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
afterEach(async () => {
  await expectMoneyConsistent(t.database);
});

let compliance: SignedInUser;
beforeAll(async () => {
  compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
});

const tagOf = (who: SignedInUser) => `$${who.user.pillarTag}`;
let keys = 0;
const post = (who: SignedInUser, url: string, payload: object, key = true) =>
  t.app.inject({
    method: "POST",
    url,
    headers: { cookie: who.cookie, ...(key ? { "idempotency-key": `paths-${++keys}` } : {}) },
    payload,
  });

async function payByTag(from: SignedInUser, to: SignedInUser, amount: string) {
  const res = await post(from, "/api/transfer/tag-payments", { tag: tagOf(to), amount });
  expect(res.statusCode, res.body).toBe(201);
}

/** The customer's alerts once the jobs room has judged every money movement made so far. */
async function alertsOf(customer: SignedInUser, rule?: RuleName): Promise<MonitoringAlert[]> {
  await t.app.jobs.drainConsumers();
  const q = new URLSearchParams({ q: customer.email, limit: "200", ...(rule ? { rule } : {}) });
  const res = await t.app.inject({
    method: "GET",
    url: `/api/admin/monitoring/alerts?${q}`,
    headers: { cookie: compliance.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as MonitoringAlert[]).filter((a) => a.customer?.id === customer.user.id);
}

const transactionOf = async (customer: SignedInUser, type: "debit" | "credit") => {
  const [row] = await t.database.query<{ id: string }>(
    `select id from transactions where user_id = $1 and source_type = 'tag_payment' and type = $2
     order by created_at desc limit 1`,
    [customer.user.id, type],
  );
  return row!.id;
};

describe("payments by $tag", () => {
  it("sees money received by $tag and passed on by $tag within hours (a chain), on the payer's side", async () => {
    const source = await createFundedCustomer(t, admin, "2000.00");
    const mule = await createApprovedCustomer(t.database);
    const next = await createApprovedCustomer(t.database);
    await payByTag(source, mule, "1500.00");
    expect(await alertsOf(mule, "rapid_in_out")).toEqual([]);
    await payByTag(mule, next, "1450.00");

    const [alert] = await alertsOf(mule, "rapid_in_out");
    expect(alert).toMatchObject({ eventKind: "tag_out", eventId: await transactionOf(mule, "debit") });
    expect(alert!.evidence).toMatchObject({ inTotalCents: 150_000, outTotalCents: 145_000 });
    const [credit] = alert!.evidence.credits as { kind: string; counterparty: string }[];
    expect(credit).toMatchObject({ kind: "tag_in", counterparty: source.user.id });
    expect(alert!.evidence.event).toMatchObject({
      kind: "tag_out",
      counterparty: next.user.id,
      channel: "direct",
    });
    // Judged once: draining again files nothing more.
    expect(await alertsOf(mule, "rapid_in_out")).toHaveLength(1);
  });

  it("judges the payee's side too: a burst of payments received by $tag", async () => {
    const collector = await createApprovedCustomer(t.database);
    for (let i = 0; i < 8; i++) {
      const payer = await createFundedCustomer(t, admin, "300.00");
      await payByTag(payer, collector, "150.00");
    }
    const [alert] = await alertsOf(collector, "incoming_burst");
    expect(alert).toMatchObject({ eventKind: "tag_in", blocking: false });
    expect(alert!.evidence.count).toBeGreaterThanOrEqual(6);
    // Named by the payee's own credit of the payment that tipped it.
    const credits = await t.database.query<{ id: string }>(
      "select id from transactions where user_id = $1 and source_type = 'tag_payment' and type = 'credit'",
      [collector.user.id],
    );
    expect(credits.map((c) => c.id)).toContain(alert!.eventId);
  });
});

describe("money requests paid", () => {
  it("judges the payment of a request like any payment by $tag, with its channel", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createFundedCustomer(t, admin, "2000.00");
    const asked = await post(
      requester,
      "/api/transfer/requests",
      { tag: tagOf(payer), amount: "1600.00" },
      false,
    );
    expect(asked.statusCode, asked.body).toBe(201);
    const paid = await post(payer, `/api/transfer/requests/${asked.json().request.id}/pay`, {});
    expect(paid.statusCode, paid.body).toBe(201);

    const [alert] = await alertsOf(payer, "first_large_new_address");
    expect(alert).toMatchObject({ eventKind: "tag_out", eventId: await transactionOf(payer, "debit") });
    expect(alert!.evidence).toMatchObject({ payee: requester.user.id, amountCents: 160_000 });
    expect(alert!.evidence.event).toMatchObject({ channel: "request" });

    // The requester passes the money on to a new address at once: money in by a request, then out.
    const out = await requestTransfer(t.app, requester, {
      amount: "1500.00",
      cryptoAddress: `0x${randomBytes(20).toString("hex")}`,
    });
    expect(out.statusCode, out.body).toBe(201);
    const [passed] = await alertsOf(requester, "rapid_in_out");
    expect((passed!.evidence.credits as { kind: string }[]).map((c) => c.kind)).toEqual(["tag_in"]);
  });
});

describe("scheduled transfers", () => {
  it("judges a schedule's runs like the customer's own transfers, naming the schedule", async () => {
    const customer = await createFundedCustomer(t, admin, "2000.00");
    const recipient = await post(
      customer,
      "/api/recipients",
      { name: "Sam Lee", address: `0x${randomBytes(20).toString("hex")}` },
      false,
    );
    expect(recipient.statusCode, recipient.body).toBe(201);
    const today = limitDayOf(new Date());
    const made = await post(
      customer,
      "/api/schedules",
      {
        recipientId: recipient.json().recipient.id,
        requestKey: `form-${randomBytes(8).toString("hex")}`,
        amount: "1450.00",
        cadence: "once",
        startOn: addDays(today, 1),
      },
      false,
    );
    expect(made.statusCode, made.body).toBe(201);
    const ran = await runDueSchedules(
      { ...t.app.deps },
      { now: () => new Date(`${addDays(today, 1)}T17:00:00Z`) },
    );
    expect(ran).toMatchObject({ made: 1 });

    const [alert] = await alertsOf(customer, "first_large_new_address");
    const [transfer] = await t.database.query<{ id: string }>(
      "select id from transfer_requests where user_id = $1 and schedule_run_key is not null",
      [customer.user.id],
    );
    expect(alert).toMatchObject({ eventKind: "transfer", eventId: transfer!.id, transferId: transfer!.id });
    expect(alert!.evidence.event).toMatchObject({ channel: "schedule", amountCents: 145_000 });
  });
});
