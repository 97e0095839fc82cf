import { describe, expect, it } from "vitest";
import type { RuleName } from "@/contract/monitoring";
import {
  defaultMonitoringConfig,
  evaluateRules,
  type MoneyEvent,
  type MonitoringInput,
} from "@/server/features/monitoring/rules";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 26, 12);
const config = defaultMonitoringConfig({ approvalThresholdCents: 100_000, dailyLimitCents: 200_000 });

let seq = 0;
const ev = (
  kind: MoneyEvent["kind"],
  daysAgo: number,
  amountCents: number,
  address: string | null = null,
) => ({
  id: `e${seq++}`,
  kind,
  at: NOW - daysAgo * DAY,
  amountCents,
  address: kind === "transfer" ? (address ?? "0xknown") : null,
});

function input(event: MoneyEvent, over: Partial<MonitoringInput> = {}): MonitoringInput {
  return {
    event,
    history: [],
    activityBeforeLookbackAt: null,
    accountOpenedAt: NOW - 30 * DAY,
    deviceFirstSeen: [NOW - 30 * DAY],
    addressSenders: [],
    recentAlerts: [],
    ...over,
  };
}
const rulesOf = (i: MonitoringInput) => evaluateRules(i, config).map((a) => a.rule);
const fires = (rule: RuleName, i: MonitoringInput) => rulesOf(i).includes(rule);

describe("structuring", () => {
  const credits = (amounts: number[]) => amounts.map((a, n) => ev("credit", n + 1, a));
  it("alerts on the third credit just under the approval threshold within 7 days, not the second", () => {
    expect(fires("structuring", input(ev("credit", 0, 99_999), { history: credits([90_000]) }))).toBe(false);
    const alert = evaluateRules(
      input(ev("credit", 0, 99_999), { history: credits([90_000, 95_000]) }),
      config,
    );
    expect(alert.find((a) => a.rule === "structuring")).toMatchObject({
      score: 0.5,
      blocking: false,
      evidence: { limitCents: 100_000, count: 3 },
    });
  });
  it("does not count amounts at the threshold or below the band, nor events older than the window", () => {
    expect(
      fires("structuring", input(ev("credit", 0, 100_000), { history: credits([95_000, 95_000]) })),
    ).toBe(false);
    expect(fires("structuring", input(ev("credit", 0, 89_999), { history: credits([95_000, 95_000]) }))).toBe(
      false,
    );
    const old = [ev("credit", 1, 95_000), ev("credit", 7, 95_000)];
    expect(fires("structuring", input(ev("credit", 0, 95_000), { history: old }))).toBe(false);
    old[1]!.at += HOUR;
    expect(fires("structuring", input(ev("credit", 0, 95_000), { history: old }))).toBe(true);
  });
  it("counts transfers just under the daily limit apart from credits", () => {
    const history = [ev("transfer", 1, 180_000), ev("credit", 2, 180_000)];
    expect(fires("structuring", input(ev("transfer", 0, 199_999), { history }))).toBe(false);
    history.push(ev("transfer", 3, 190_000));
    expect(fires("structuring", input(ev("transfer", 0, 199_999), { history }))).toBe(true);
  });
});

describe("velocity", () => {
  it("alerts when a week's money out reaches the minimum and four times the customer's usual", () => {
    const opened = NOW - 200 * DAY;
    const usual = Array.from({ length: 12 }, (_, i) => ev("transfer", 10 + i * 7, 10_000));
    const week = [ev("transfer", 1, 150_000), ev("transfer", 2, 149_999)];
    expect(
      fires(
        "velocity",
        input(ev("transfer", 0, 0 + 1), { accountOpenedAt: opened, history: [...usual, ...week] }),
      ),
    ).toBe(true);
    expect(
      fires(
        "velocity",
        input(ev("transfer", 0, 0 + 1), { accountOpenedAt: opened, history: [...usual, week[0]!] }),
      ),
    ).toBe(false);
    // A customer who usually moves more: 4 × (a week's usual) is above the total.
    const big = Array.from({ length: 12 }, (_, i) => ev("transfer", 10 + i * 7, 100_000));
    expect(
      fires("velocity", input(ev("transfer", 0, 1), { accountOpenedAt: opened, history: [...big, ...week] })),
    ).toBe(false);
  });
  it("leaves customers younger than the minimum history and money in alone", () => {
    const week = [ev("transfer", 1, 150_000), ev("transfer", 2, 150_000)];
    expect(
      fires("velocity", input(ev("transfer", 0, 1), { accountOpenedAt: NOW - 44 * DAY, history: week })),
    ).toBe(false);
    expect(
      fires("velocity", input(ev("transfer", 0, 1), { accountOpenedAt: NOW - 46 * DAY, history: week })),
    ).toBe(true);
    expect(fires("velocity", input(ev("credit", 0, 400_000), { accountOpenedAt: NOW - 100 * DAY }))).toBe(
      false,
    );
  });
});

describe("first large transfer to a new address", () => {
  it("alerts at $1,500 to an address never paid, not below, not to a known address", () => {
    expect(fires("first_large_new_address", input(ev("transfer", 0, 149_999, "0xnew")))).toBe(false);
    expect(fires("first_large_new_address", input(ev("transfer", 0, 150_000, "0xnew")))).toBe(true);
    const paid = [ev("transfer", 3, 5_000, "0xnew")];
    expect(
      fires("first_large_new_address", input(ev("transfer", 0, 150_000, "0xnew"), { history: paid })),
    ).toBe(false);
  });
  it("needs three times the customer's largest earlier transfer", () => {
    const history = [ev("transfer", 3, 60_000, "0xold")];
    expect(fires("first_large_new_address", input(ev("transfer", 0, 179_999, "0xnew"), { history }))).toBe(
      false,
    );
    expect(fires("first_large_new_address", input(ev("transfer", 0, 180_000, "0xnew"), { history }))).toBe(
      true,
    );
  });
});

describe("money in, then quickly out", () => {
  it("alerts when 80% of $1,000+ received in 48 hours goes out", () => {
    const credit = [ev("credit", 1, 100_000)];
    expect(fires("rapid_in_out", input(ev("transfer", 0, 79_999), { history: credit }))).toBe(false);
    expect(fires("rapid_in_out", input(ev("transfer", 0, 80_000), { history: credit }))).toBe(true);
    expect(
      fires("rapid_in_out", input(ev("transfer", 0, 80_000), { history: [ev("credit", 1, 99_999)] })),
    ).toBe(false);
    expect(
      fires("rapid_in_out", input(ev("transfer", 0, 80_000), { history: [ev("credit", 2, 100_000)] })),
    ).toBe(false);
  });
});

describe("new device, then a transfer to a new address", () => {
  const devices = (hoursAgo: number) => [NOW - 60 * DAY, NOW - hoursAgo * HOUR];
  it("alerts (blocking) within 48 hours of an established account's new device, from $200", () => {
    const alert = evaluateRules(
      input(ev("transfer", 0, 20_000, "0xnew"), { deviceFirstSeen: devices(47) }),
      config,
    );
    expect(alert.find((a) => a.rule === "new_device_new_address")?.blocking).toBe(true);
    expect(
      fires(
        "new_device_new_address",
        input(ev("transfer", 0, 19_999, "0xnew"), { deviceFirstSeen: devices(1) }),
      ),
    ).toBe(false);
    expect(
      fires(
        "new_device_new_address",
        input(ev("transfer", 0, 20_000, "0xnew"), { deviceFirstSeen: devices(48) }),
      ),
    ).toBe(false);
    expect(
      fires(
        "new_device_new_address",
        input(ev("transfer", 0, 20_000, "0xknown"), {
          deviceFirstSeen: devices(1),
          history: [ev("transfer", 5, 100)],
        }),
      ),
    ).toBe(false);
  });
  it("ignores a second device in the account's first week", () => {
    const young = [NOW - 6 * DAY, NOW - HOUR];
    expect(
      fires("new_device_new_address", input(ev("transfer", 0, 20_000, "0xnew"), { deviceFirstSeen: young })),
    ).toBe(false);
  });
});

describe("dormant account suddenly active", () => {
  it("alerts on $500+ after 180 quiet days, counting activity before the lookback", () => {
    const quiet = (days: number) => ({
      activityBeforeLookbackAt: NOW - days * DAY,
      accountOpenedAt: NOW - 900 * DAY,
    });
    expect(fires("dormant_reactivated", input(ev("credit", 0, 50_000), quiet(180)))).toBe(true);
    expect(fires("dormant_reactivated", input(ev("credit", 0, 50_000), quiet(179)))).toBe(false);
    expect(fires("dormant_reactivated", input(ev("credit", 0, 49_999), quiet(400)))).toBe(false);
    expect(
      fires("dormant_reactivated", input(ev("credit", 0, 50_000), { accountOpenedAt: NOW - 181 * DAY })),
    ).toBe(true);
  });
});

describe("many customers paying one address", () => {
  const senders = (n: number, daysAgo = 1) =>
    Array.from({ length: n }, (_, i) => ({ customerId: `u${i}`, at: NOW - daysAgo * DAY }));
  it("alerts on the fifth customer within 14 days (not blocking unless configured)", () => {
    expect(
      fires("many_to_one_address", input(ev("transfer", 0, 5_000, "0xpool"), { addressSenders: senders(3) })),
    ).toBe(false);
    const alert = evaluateRules(
      input(ev("transfer", 0, 5_000, "0xpool"), { addressSenders: senders(4) }),
      config,
    );
    expect(alert.find((a) => a.rule === "many_to_one_address")).toMatchObject({
      blocking: false,
      evidence: { customers: 5 },
    });
    expect(
      fires(
        "many_to_one_address",
        input(ev("transfer", 0, 5_000, "0xpool"), { addressSenders: senders(4, 14) }),
      ),
    ).toBe(false);
    const holding = { ...config, manyToOneAddress: { ...config.manyToOneAddress, blocking: true } };
    const held = evaluateRules(
      input(ev("transfer", 0, 5_000, "0xpool"), { addressSenders: senders(4) }),
      holding,
    );
    expect(held.find((a) => a.rule === "many_to_one_address")?.blocking).toBe(true);
  });
});

describe("every rule", () => {
  it("stays quiet for its cooldown after alerting, and is off when disabled", () => {
    const i = input(ev("transfer", 0, 150_000, "0xnew"));
    expect(
      fires("first_large_new_address", {
        ...i,
        recentAlerts: [{ rule: "first_large_new_address", at: NOW - 13 * DAY }],
      }),
    ).toBe(false);
    expect(
      fires("first_large_new_address", {
        ...i,
        recentAlerts: [{ rule: "first_large_new_address", at: NOW - 14 * DAY }],
      }),
    ).toBe(true);
    const off = { ...config, firstLargeNewAddress: { ...config.firstLargeNewAddress, enabled: false } };
    expect(evaluateRules(i, off).map((a) => a.rule)).not.toContain("first_large_new_address");
  });
  it("scores 0.5 at the threshold up to 1 at twice it", () => {
    const at = evaluateRules(input(ev("transfer", 0, 150_000, "0xnew")), config)[0]!;
    const twice = evaluateRules(input(ev("transfer", 0, 300_000, "0xnew")), config)[0]!;
    expect([at.score, twice.score]).toEqual([0.5, 1]);
  });
});
