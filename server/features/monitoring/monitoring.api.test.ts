import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { COMPLIANCE_MESSAGES } from "@/contract/compliance";
import type { MonitoringAlert, RuleName } from "@/contract/monitoring";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { loadMonitoringInput } from "@/server/features/monitoring/load-monitoring-input";
import { ADDRESS_SENDERS_LISTED, defaultMonitoringConfig } from "@/server/features/monitoring/rules";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
  fundCustomer,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// The jobs room's consumers run only when a test drains them (alertsOf): what the request did and what the
// monitoring consumer files after the commit are told apart.
const t = setUpTestApp(
  { RATE_LIMIT_SCALE: "100" },
  { jobs: { consumerEveryMs: 3_600_000, consumerWakeDelayMs: 3_600_000 } },
);
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

let compliance: SignedInUser;
let support: SignedInUser;
let finance: SignedInUser;
beforeAll(async () => {
  compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
  finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
});

const call = (method: "GET" | "POST" | "PUT", url: string, who: SignedInUser | null, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(payload === undefined ? {} : { payload }),
  });

const randomEth = () => `0x${randomBytes(20).toString("hex")}`;
const SUBMITTED = "Transfer request submitted successfully";

/** The customer's alerts once the jobs room has judged every transfer made so far (money in files its own). */
async function alertsOf(customer: SignedInUser, rule?: RuleName): Promise<MonitoringAlert[]> {
  await t.app.jobs.drainConsumers();
  return alertsFiledOf(customer, rule);
}

async function alertsFiledOf(customer: SignedInUser, rule?: RuleName): Promise<MonitoringAlert[]> {
  const q = new URLSearchParams({ q: customer.email, limit: "200", ...(rule ? { rule } : {}) });
  const res = await call("GET", `/api/admin/monitoring/alerts?${q}`, compliance);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as MonitoringAlert[]).filter((a) => a.customer?.id === customer.user.id);
}

const send = async (customer: SignedInUser, amount: string, cryptoAddress: string) => {
  const res = await requestTransfer(t.app, customer, { amount, cryptoAddress });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { message: string; transferRequest: { id: string } };
};

const backdateAccount = (customer: SignedInUser, days: number) =>
  t.database.query(`update users set created_at = now() - make_interval(days => $2) where id = $1`, [
    customer.user.id,
    days,
  ]);

describe("who sees alerts", () => {
  it("answers compliance, and refuses support, finance, customers and strangers", async () => {
    const customer = await createApprovedCustomer(t.database);
    expect((await call("GET", "/api/admin/monitoring/alerts", compliance)).statusCode).toBe(200);
    for (const who of [support, finance, customer]) {
      expect((await call("GET", "/api/admin/monitoring/alerts", who)).statusCode).toBe(403);
      expect((await call("GET", `/api/admin/monitoring/alerts/${randomUUID()}`, who)).statusCode).toBe(403);
    }
    expect((await call("GET", "/api/admin/monitoring/alerts", null)).statusCode).toBe(401);
  });

  it("refuses an unknown rule, a case id that is not one, a huge limit and a long search", async () => {
    const bad = [
      "?rule=everything",
      "?caseId=1%20or%201=1",
      "?limit=100000",
      `?q=${"x".repeat(300)}`,
      "?cursor=not-a-cursor",
    ];
    for (const query of bad) {
      const res = await call("GET", `/api/admin/monitoring/alerts${query}`, compliance);
      expect(res.statusCode, query).toBe(400);
    }
    expect((await call("GET", "/api/admin/monitoring/alerts/not-a-uuid", compliance)).statusCode).toBe(400);
    expect((await call("GET", `/api/admin/monitoring/alerts/${randomUUID()}`, compliance)).statusCode).toBe(
      404,
    );
  });
});

describe("structuring (credits just under APPROVAL_THRESHOLD, $1,000, weighed by closeness)", () => {
  it("weighs each credit by how close it came to $1,000, alerts once they add up, files it on the customer's case, and holds nothing", async () => {
    const customer = await createApprovedCustomer(t.database);
    // Far under the band and at the threshold weigh nothing; $999.99 weighs 1 and $880.00 (88%) 0.9: no alert yet.
    for (const amount of ["650.00", "1000.00", "999.99", "880.00"])
      await fundCustomer(t, admin, customer.user.id, amount);
    expect(await alertsOf(customer, "structuring")).toEqual([]);

    await fundCustomer(t, admin, customer.user.id, "950.00");
    const [alert] = await alertsOf(customer, "structuring");
    expect(alert).toMatchObject({ blocking: false, eventKind: "credit" });
    expect(alert!.score).toBeGreaterThan(0.5);
    expect(alert!.evidence).toMatchObject({ limitCents: 100_000, count: 3, windowDays: 7 });
    expect((alert!.evidence.events as { amountCents: number }[]).map((e) => e.amountCents)).toEqual([
      99_999, 88_000, 95_000,
    ]);
    expect((alert!.evidence.events as { shareOfLimit: number }[]).map((e) => e.shareOfLimit)).toEqual([
      1, 0.88, 0.95,
    ]);

    // The alert sits on the customer's one case, which lists it with any other alert of the customer.
    const all = await alertsOf(customer);
    expect(all.map((a) => a.rule)).toContain("structuring");
    const detail = await call("GET", `/api/admin/compliance/cases/${alert!.caseId}`, compliance);
    expect(detail.json()).toMatchObject({
      status: "open",
      customer: { id: customer.user.id },
      hitCount: 0,
      alertCount: all.length,
    });
    const onCase = await call("GET", `/api/admin/monitoring/alerts?caseId=${alert!.caseId}`, compliance);
    expect(
      onCase
        .json()
        .items.map((a: MonitoringAlert) => a.id)
        .sort(),
    ).toEqual(all.map((a) => a.id).sort());
    const one = await call("GET", `/api/admin/monitoring/alerts/${alert!.id}`, compliance);
    expect(one.json()).toMatchObject({ id: alert!.id, rule: "structuring" });

    // Not a blocking rule: the customer's transfer goes out as usual and finance can release it.
    const transfer = await send(customer, "100.00", randomEth());
    expect(transfer.message).toBe(SUBMITTED);
    const release = await call(
      "PUT",
      `/api/admin/transfer-requests/${transfer.transferRequest.id}`,
      finance,
      {
        status: "approved",
      },
    );
    expect(release.statusCode, release.body).toBe(200);
  });
});

describe("first large transfer to a new address (graded: $1,500 and 3 × the largest before)", () => {
  it("alerts at $1,450 from a customer who never sent any (so at $1,200.00), not at $1,199.99", async () => {
    const results: Record<string, number> = {};
    for (const amount of ["1199.99", "1200.00", "1450.00"]) {
      const customer = await createFundedCustomer(t, admin, "2000.00");
      expect((await send(customer, amount, randomEth())).message).toBe(SUBMITTED);
      results[amount] = (await alertsOf(customer, "first_large_new_address")).length;
    }
    expect(results).toEqual({ "1199.99": 0, "1200.00": 1, "1450.00": 1 });
  });
});

describe("money in, then quickly out (graded: 80% of $1,000+ within 48 hours)", () => {
  it("alerts when what went out since the credit comes near 80% of it", async () => {
    const customer = await createFundedCustomer(t, admin, "1000.00");
    const address = randomEth();
    await send(customer, "600.00", address);
    expect(await alertsOf(customer, "rapid_in_out")).toEqual([]);
    await send(customer, "100.00", address);
    const [alert] = await alertsOf(customer, "rapid_in_out");
    expect(alert!.evidence).toMatchObject({ inTotalCents: 100_000, outTotalCents: 70_000, shareOut: 0.7 });
  });
});

describe("new device, then a transfer to a new address (blocking)", () => {
  const withDevices = async (newDeviceHoursAgo: number) => {
    const customer = await createFundedCustomer(t, admin, "900.00");
    await t.database.query(
      `insert into known_devices (user_id, token_hash, created_at) values
         ($1, $2, now() - interval '30 days'), ($1, $3, now() - make_interval(hours => $4))`,
      [customer.user.id, randomUUID(), randomUUID(), newDeviceHoursAgo],
    );
    return customer;
  };

  it("holds a $400 transfer 47 hours after a new device like a sanctions hit, until compliance clears it", async () => {
    const quiet = await withDevices(47);
    expect((await send(quiet, "399.99", randomEth())).message).toBe(SUBMITTED);
    expect(await alertsOf(quiet, "new_device_new_address")).toEqual([]);

    // Held at request time by create_transfer_request's own rule (its answer and its stored replay say so)...
    const customer = await withDevices(47);
    const held = await send(customer, "400.00", randomEth());
    expect(held.message).toBe(TRANSFER_MESSAGES.underReview);
    const [event] = await t.database.query<{ payload: { review: string[]; new_device_at: string | null } }>(
      "select payload from events where kind = 'transfer.requested' and payload->>'transfer_id' = $1",
      [held.transferRequest.id],
    );
    expect(event!.payload.review).toEqual(["new_device_new_address"]);
    expect(event!.payload.new_device_at).toEqual(expect.any(String));
    // ...and its alert committed with it (the hold is the alert: nothing may release the transfer before the jobs
    // room runs), before any consumer ran; the monitoring consumer's filing of the same alert is a no-op.
    const [filed] = await alertsFiledOf(customer, "new_device_new_address");
    expect(filed).toMatchObject({ blocking: true, transferId: held.transferRequest.id, score: 0.51 });
    const early = await call("PUT", `/api/admin/transfer-requests/${held.transferRequest.id}`, finance, {
      status: "approved",
    });
    expect(early.statusCode, early.body).toBe(409);
    const alerts = await alertsOf(customer, "new_device_new_address");
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    expect(alert).toMatchObject({
      id: filed!.id,
      blocking: true,
      transferId: held.transferRequest.id,
      score: 0.51,
    });
    expect(alert!.evidence).toMatchObject({ hoursAfterDevice: 47, amountCents: 40_000 });

    const release = await call("PUT", `/api/admin/transfer-requests/${held.transferRequest.id}`, finance, {
      status: "approved",
    });
    expect(release.statusCode, release.body).toBe(409);
    expect(release.json()).toMatchObject({
      complianceHold: true,
      message: COMPLIANCE_MESSAGES.complianceHold,
    });
    const detail = await call("GET", `/api/admin/compliance/cases/${alert!.caseId}`, compliance);
    expect(detail.json()).toMatchObject({ status: "open", heldTransfers: 1 });

    // Clearing takes two compliance members (decision 032): one proposes, another approves.
    const cases = `/api/admin/compliance/cases/${alert!.caseId}`;
    const proposed = await call("POST", `${cases}/decisions`, compliance, {
      decision: "clear",
      note: "Customer confirmed the new phone and the payee by a call to the number on file",
    });
    expect(proposed.statusCode, proposed.body).toBe(200);
    const decisionId = proposed.json().case.decisions.find((d: { status: string }) => d.status === "pending")
      .id as string;
    const checker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    const cleared = await call("POST", `${cases}/decisions/${decisionId}/approve`, checker, {});
    expect(cleared.statusCode, cleared.body).toBe(200);
    const released = await call("PUT", `/api/admin/transfer-requests/${held.transferRequest.id}`, finance, {
      status: "approved",
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().status).toBe("completed");
  });

  it("lets a transfer through once the new device is 48 hours old", async () => {
    const customer = await withDevices(48);
    expect((await send(customer, "400.00", randomEth())).message).toBe(SUBMITTED);
    expect(await alertsOf(customer, "new_device_new_address")).toEqual([]);
  });
});

describe("many customers paying one address (graded: 5 within 14 days)", () => {
  it("alerts on the fourth customer's transfer, not the third's, with the others as evidence", async () => {
    const pool = randomEth();
    const senders = [];
    for (let i = 0; i < 4; i++) senders.push(await createFundedCustomer(t, admin, "50.00"));
    const answers = [];
    for (const customer of senders) answers.push((await send(customer, "10.00", pool)).message);
    expect(answers).toEqual([SUBMITTED, SUBMITTED, SUBMITTED, SUBMITTED]);
    expect(await alertsOf(senders[2]!, "many_to_one_address")).toEqual([]);
    const [alert] = await alertsOf(senders[3]!, "many_to_one_address");
    expect(alert!.blocking).toBe(false);
    expect(alert!.evidence).toMatchObject({ customers: 4, address: pool.toLowerCase() });
    expect((alert!.evidence.otherCustomerIds as string[]).sort()).toEqual(
      senders
        .slice(0, 3)
        .map((s) => s.user.id)
        .sort(),
    );
  });
});

describe("many customers paying one address: what a transfer reads", () => {
  it("reads one row per other customer however often each paid, and only inside the window", async () => {
    const pool = randomEth();
    const [a, b, c, d] = [
      await createFundedCustomer(t, admin, "100.00"),
      await createFundedCustomer(t, admin, "100.00"),
      await createFundedCustomer(t, admin, "100.00"),
      await createFundedCustomer(t, admin, "100.00"),
    ];
    for (let i = 0; i < 6; i++) await send(b!, "1.00", pool);
    await send(c!, "1.00", pool);
    // d paid it 15 days ago: outside the 14-day window.
    const old = await send(d!, "1.00", pool);
    await t.database.query(
      `update transfer_requests set created_at = now() - interval '15 days' where id = $1`,
      [old.transferRequest.id],
    );
    const input = await loadMonitoringInput(
      t.database.db,
      a!.user.id,
      { id: randomUUID(), kind: "transfer", at: Date.now(), amountCents: 100, address: pool },
      defaultMonitoringConfig({ approvalThresholdCents: 100_000, dailyLimitCents: 200_000 }),
    );
    expect(input.addressSenders.map((x) => x.customerId).sort()).toEqual([b!.user.id, c!.user.id].sort());
    expect(input.addressSenderCount).toBe(2);
  });

  it(`reads and names only the ${ADDRESS_SENDERS_LISTED} most recent other customers of a busy address, and counts them all`, async () => {
    const pool = randomEth();
    const others = ADDRESS_SENDERS_LISTED + 3;
    const senders = [];
    for (let i = 0; i <= others; i++) senders.push(await createFundedCustomer(t, admin, "20.00"));
    for (const customer of senders.slice(0, others)) await send(customer, "1.00", pool);
    // Each one's transfer a minute apart, the first the oldest: which ones are "most recent" is then certain.
    const sent = senders.slice(0, others).map((s) => s.user.id);
    await t.database.query(
      `update transfer_requests r set created_at = now() - make_interval(mins => $2::int - array_position($1::uuid[], r.user_id))
        where r.user_id = any($1::uuid[])`,
      [sent, others + 1],
    );
    const last = senders[others]!;
    expect((await send(last, "1.00", pool)).message).toBe(SUBMITTED);
    const [alert] = await alertsOf(last, "many_to_one_address");
    expect(alert!.evidence).toMatchObject({ customers: others + 1, address: pool.toLowerCase() });
    expect((alert!.evidence.otherCustomerIds as string[]).sort()).toEqual(
      sent.slice(-ADDRESS_SENDERS_LISTED).sort(),
    );
  });
});

describe("dormant account suddenly active (graded: 180 quiet days, $500)", () => {
  it("alerts on a $1,500 credit to an account quiet for 181 or 140 days, not 100, and not $800 after 200", async () => {
    const cases: [days: number, amount: string, alerts: number][] = [
      [181, "1500.00", 1],
      [140, "1500.00", 1],
      [100, "1500.00", 0],
      [200, "800.00", 0],
    ];
    for (const [days, amount, expected] of cases) {
      const customer = await createApprovedCustomer(t.database);
      await backdateAccount(customer, days);
      await fundCustomer(t, admin, customer.user.id, amount);
      expect((await alertsOf(customer, "dormant_reactivated")).length, `${days} days, $${amount}`).toBe(
        expected,
      );
    }
  });
});

describe("dormant account: a keep-alive does not reset it", () => {
  it("alerts on $1,600 in after 200 quiet days broken only by a $1 credit", async () => {
    const customer = await createApprovedCustomer(t.database);
    await backdateAccount(customer, 200);
    await fundCustomer(t, admin, customer.user.id, "1.00");
    await t.database.query(
      `update transactions set created_at = now() - interval '60 days' where user_id = $1`,
      [customer.user.id],
    );
    await fundCustomer(t, admin, customer.user.id, "1600.00");
    const [alert] = await alertsOf(customer, "dormant_reactivated");
    expect(alert!.evidence).toMatchObject({ quietDays: 200, smallEventsIgnored: 1, amountCents: 160_000 });
  });
});

describe("velocity against the customer's own history (graded: $3,000 a week and 6 × usual)", () => {
  it("alerts when a week's money out reaches $3,000 for a customer who usually sends nothing", async () => {
    const customer = await createFundedCustomer(t, admin, "5000.00");
    await backdateAccount(customer, 60);
    const address = randomEth();
    const first = await send(customer, "1500.00", address);
    // Two days ago, and out of today's limit.
    await t.database.query(
      `update transfer_requests set created_at = now() - interval '2 days', limit_day = '2000-01-01' where id = $1`,
      [first.transferRequest.id],
    );
    // $2,800 is under 95% of $3,000 (the minimum score): no alert; $3,000 is.
    await send(customer, "1300.00", address);
    expect(await alertsOf(customer, "velocity")).toEqual([]);
    await send(customer, "200.00", address);
    const [alert] = await alertsOf(customer, "velocity");
    expect(alert!.evidence).toMatchObject({ windowTotalCents: 300_000, expectedCents: 0 });
    expect(alert!.blocking).toBe(false);
  });
});
