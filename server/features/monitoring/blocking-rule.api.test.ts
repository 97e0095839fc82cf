import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { loadMonitoringInput } from "@/server/features/monitoring/load-monitoring-input";
import { monitoringConfig } from "@/server/features/monitoring/monitoring-config";
import { evaluateRules } from "@/server/features/monitoring/rules";
import { createFundedCustomer, expectLedgerCleanAfterEach, requestTransfer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Decision 049: the monitoring rule that holds money at request time (a new device, then a transfer to a new
// address) is decided by create_transfer_request in SQL; rules.ts keeps the same rule for the frozen scenarios
// the accuracy bench judges. Each case asks both and expects both to give the case's answer.
const t = setUpTestApp(
  { RATE_LIMIT_SCALE: "100" },
  { jobs: { consumerEveryMs: 3_600_000, consumerWakeDelayMs: 3_600_000 } },
);
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

const randomEth = () => `0x${randomBytes(20).toString("hex")}`;

interface Case {
  name: string;
  /** Each device's first sign-in, hours before the transfer. */
  deviceHoursAgo: number[];
  amount: string;
  /** An earlier transfer to the same address, this many days before. */
  paidDaysAgo?: number;
  /** An earlier alert of the same rule, this many days before (it does not hold: its case holds nothing). */
  alertDaysAgo?: number;
  holds: boolean;
}

const DAY = 24;
const CASES: Case[] = [
  {
    name: "a device 47 hours old, then $400.00 to a new address",
    deviceHoursAgo: [30 * DAY, 47],
    amount: "400.00",
    holds: true,
  },
  { name: "the new device 49 hours old", deviceHoursAgo: [30 * DAY, 49], amount: "400.00", holds: false },
  { name: "$399.99", deviceHoursAgo: [30 * DAY, 47], amount: "399.99", holds: false },
  { name: "the customer's only device", deviceHoursAgo: [47], amount: "800.00", holds: false },
  {
    name: "a second device within 7 days of the first",
    deviceHoursAgo: [6 * DAY, 47],
    amount: "400.00",
    holds: false,
  },
  {
    name: "an address paid 10 days ago",
    deviceHoursAgo: [30 * DAY, 47],
    amount: "400.00",
    paidDaysAgo: 10,
    holds: false,
  },
  {
    name: "an address paid 130 days ago (before the lookback)",
    deviceHoursAgo: [200 * DAY, 47],
    amount: "400.00",
    paidDaysAgo: 130,
    holds: true,
  },
  {
    name: "the rule's alert 10 days ago (its cooldown)",
    deviceHoursAgo: [30 * DAY, 47],
    amount: "400.00",
    alertDaysAgo: 10,
    holds: false,
  },
  {
    name: "the rule's alert 15 days ago",
    deviceHoursAgo: [30 * DAY, 47],
    amount: "400.00",
    alertDaysAgo: 15,
    holds: true,
  },
];

async function prepare(c: Case): Promise<{ customer: SignedInUser; address: string }> {
  const customer = await createFundedCustomer(t, admin, "1000.00");
  const address = randomEth();
  if (c.paidDaysAgo !== undefined) {
    // Made before the devices exist, then dated back (out of today's limits too).
    const paid = await requestTransfer(t.app, customer, { amount: "1.00", cryptoAddress: address });
    expect(paid.statusCode, paid.body).toBe(201);
    await t.database.query(
      `update transfer_requests set created_at = now() - make_interval(days => $2), limit_day = '2000-01-01'
        where id = $1`,
      [paid.json().transferRequest.id, c.paidDaysAgo],
    );
  }
  for (const hours of c.deviceHoursAgo) {
    await t.database.query(
      "insert into known_devices (user_id, token_hash, created_at) values ($1, $2, now() - make_interval(hours => $3))",
      [customer.user.id, randomUUID(), hours],
    );
  }
  if (c.alertDaysAgo !== undefined) {
    const [opened] = await t.database.query<{ id: string }>(
      "insert into compliance_cases (user_id) values ($1) returning id",
      [customer.user.id],
    );
    await t.database.query(
      `insert into monitoring_alerts (case_id, user_id, rule, score, blocking, event_kind, event_id, evidence,
          dedupe_key, created_at)
        values ($1, $2, 'new_device_new_address', 0.5, false, 'transfer', $3,
          jsonb_build_object('event', jsonb_build_object('at', now() - make_interval(days => $4))), $5,
          now() - make_interval(days => $4))`,
      [opened!.id, customer.user.id, randomUUID(), c.alertDaysAgo, randomUUID()],
    );
  }
  return { customer, address };
}

describe("the new-device rule, in SQL under the wallet lock and in rules.ts", () => {
  it.each(CASES)("$name: holds is $holds in both", async (c) => {
    const { customer, address } = await prepare(c);
    const config = monitoringConfig();
    const input = await loadMonitoringInput(
      t.database.db,
      customer.user.id,
      {
        id: randomUUID(),
        kind: "transfer",
        at: Date.now(),
        amountCents: Math.round(Number(c.amount) * 100),
        address,
      },
      config,
    );
    const inRules = evaluateRules(input, config).some((a) => a.rule === "new_device_new_address");

    const res = await requestTransfer(t.app, customer, { amount: c.amount, cryptoAddress: address });
    expect(res.statusCode, res.body).toBe(201);
    const [event] = await t.database.query<{ payload: { review: string[] } }>(
      "select payload from events where kind = 'transfer.requested' and payload->>'transfer_id' = $1",
      [res.json().transferRequest.id],
    );
    const inSql = event!.payload.review.includes("new_device_new_address");

    expect({ inSql, inRules }).toEqual({ inSql: c.holds, inRules: c.holds });
    expect(res.json().message === TRANSFER_MESSAGES.underReview).toBe(c.holds);
  });
});
