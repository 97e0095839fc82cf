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
): MoneyEvent => ({
  id: `e${seq++}`,
  kind,
  at: NOW - daysAgo * DAY,
  amountCents,
  address: kind === "transfer" ? (address ?? "0xknown") : null,
  ...(kind === "tag_out" || kind === "tag_in" ? { counterparty: address ?? "someone" } : {}),
});
const hoursAgo = (
  kind: MoneyEvent["kind"],
  hours: number,
  amountCents: number,
  payee: string | null = null,
) => ev(kind, hours / 24, amountCents, payee);

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
const alertOf = (rule: RuleName, i: MonitoringInput) => evaluateRules(i, config).find((a) => a.rule === rule);

describe("structuring (graded: closeness to the limit, a window that fades)", () => {
  const credits = (amounts: number[], spreadDays = 2) =>
    amounts.map((a, n) => ev("credit", ((n + 1) * spreadDays) / amounts.length, a));
  it("alerts on three credits at 88% of the approval threshold within 7 days, not on two", () => {
    expect(fires("structuring", input(ev("credit", 0, 88_000), { history: credits([88_000]) }))).toBe(false);
    const alert = alertOf(
      "structuring",
      input(ev("credit", 0, 88_000), { history: credits([88_000, 88_000]) }),
    );
    expect(alert).toMatchObject({ blocking: false, evidence: { limitCents: 100_000, count: 3 } });
    // The evidence says how close each amount came to the limit.
    expect((alert!.evidence.events as { shareOfLimit: number }[]).map((e) => e.shareOfLimit)).toEqual([
      0.88, 0.88, 0.88,
    ]);
  });
  it("still alerts when the three are spread over 8 days instead of 7", () => {
    const history = [ev("credit", 4, 95_000), ev("credit", 8, 95_000)];
    expect(fires("structuring", input(ev("credit", 0, 95_000), { history }))).toBe(true);
  });
  it("does not count amounts at the limit or far below it, nor weeks-old ones", () => {
    expect(
      fires("structuring", input(ev("credit", 0, 100_000), { history: credits([95_000, 95_000]) })),
    ).toBe(false);
    expect(fires("structuring", input(ev("credit", 0, 65_000), { history: credits([65_000, 65_000]) }))).toBe(
      false,
    );
    const old = [ev("credit", 20, 95_000), ev("credit", 25, 95_000)];
    expect(fires("structuring", input(ev("credit", 0, 95_000), { history: old }))).toBe(false);
  });
  it("counts transfers just under the daily limit apart from credits", () => {
    const history = [ev("transfer", 1, 180_000), ev("credit", 2, 180_000)];
    expect(fires("structuring", input(ev("transfer", 0, 199_999), { history }))).toBe(false);
    history.push(ev("transfer", 3, 190_000));
    expect(fires("structuring", input(ev("transfer", 0, 199_999), { history }))).toBe(true);
  });
  it("leaves a weekly salary just under the limit alone", () => {
    const history = [ev("credit", 7, 95_000), ev("credit", 14, 95_000), ev("credit", 21, 95_000)];
    expect(fires("structuring", input(ev("credit", 0, 95_000), { history }))).toBe(false);
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
        input(ev("transfer", 0, 1), { accountOpenedAt: opened, history: [...usual, ...week] }),
      ),
    ).toBe(true);
    expect(
      fires(
        "velocity",
        input(ev("transfer", 0, 1), { accountOpenedAt: opened, history: [...usual, week[0]!] }),
      ),
    ).toBe(false);
    // A customer who usually moves more: 4 × (a week's usual) is above the total.
    const big = Array.from({ length: 12 }, (_, i) => ev("transfer", 10 + i * 7, 100_000));
    expect(
      fires("velocity", input(ev("transfer", 0, 1), { accountOpenedAt: opened, history: [...big, ...week] })),
    ).toBe(false);
  });
  it("counts payments by $tag as money out, and leaves young customers and money in alone", () => {
    const week = [ev("tag_out", 1, 150_000, "u1"), ev("transfer", 2, 150_000)];
    expect(
      fires("velocity", input(ev("tag_out", 0, 1, "u2"), { accountOpenedAt: NOW - 46 * DAY, history: week })),
    ).toBe(true);
    expect(
      fires("velocity", input(ev("transfer", 0, 1), { accountOpenedAt: NOW - 44 * DAY, history: week })),
    ).toBe(false);
    expect(fires("velocity", input(ev("credit", 0, 400_000), { accountOpenedAt: NOW - 100 * DAY }))).toBe(
      false,
    );
  });
});

describe("first large payment to a new payee (graded by size and the customer's history)", () => {
  it("alerts on $1,450 to a new address from a customer with no transfers, not $1,000, not a known address", () => {
    expect(fires("first_large_new_address", input(ev("transfer", 0, 145_000, "0xnew")))).toBe(true);
    expect(fires("first_large_new_address", input(ev("transfer", 0, 100_000, "0xnew")))).toBe(false);
    const paid = [ev("transfer", 10, 5_000, "0xnew")];
    expect(
      fires("first_large_new_address", input(ev("transfer", 0, 150_000, "0xnew"), { history: paid })),
    ).toBe(false);
  });
  it("counts a large sum split over two days to the same new payee as one payment", () => {
    const first = [ev("transfer", 1, 85_000, "0xnew")];
    expect(fires("first_large_new_address", input(first[0]!))).toBe(false);
    const alert = alertOf(
      "first_large_new_address",
      input(ev("transfer", 0, 85_000, "0xnew"), { history: first }),
    );
    expect(alert?.evidence).toMatchObject({ sentSinceFirstCents: 170_000, payments: 2 });
  });
  it("weighs the amount against three times the customer's largest earlier payment out", () => {
    const history = [ev("transfer", 3, 60_000, "0xold")];
    expect(fires("first_large_new_address", input(ev("transfer", 0, 150_000, "0xnew"), { history }))).toBe(
      false,
    );
    expect(fires("first_large_new_address", input(ev("transfer", 0, 180_000, "0xnew"), { history }))).toBe(
      true,
    );
  });
  it("treats a $tag never paid before as a new payee", () => {
    const alert = alertOf("first_large_new_address", input(ev("tag_out", 0, 160_000, "stranger")));
    expect(alert?.evidence).toMatchObject({ payee: "stranger", amountCents: 160_000 });
    const paid = [ev("tag_out", 5, 2_000, "friend")];
    expect(
      fires("first_large_new_address", input(ev("tag_out", 0, 5_000, "friend"), { history: paid })),
    ).toBe(false);
  });
});

describe("money in, then quickly out (graded by share, time and amount)", () => {
  it("alerts when 78% of $1,000 received goes out, and 49 hours after", () => {
    const credit = [hoursAgo("credit", 20, 100_000)];
    const alert = alertOf("rapid_in_out", input(ev("transfer", 0, 78_000, "0xnew"), { history: credit }));
    expect(alert?.evidence).toMatchObject({ inTotalCents: 100_000, outTotalCents: 78_000, shareOut: 0.78 });
    expect(
      fires(
        "rapid_in_out",
        input(ev("transfer", 0, 80_000, "0xnew"), { history: [hoursAgo("credit", 49, 100_000)] }),
      ),
    ).toBe(true);
  });
  it("stays quiet for a small share, a week later, or a salary paying the usual rent", () => {
    const credit = [hoursAgo("credit", 20, 100_000)];
    expect(fires("rapid_in_out", input(ev("transfer", 0, 40_000, "0xnew"), { history: credit }))).toBe(false);
    expect(
      fires(
        "rapid_in_out",
        input(ev("transfer", 0, 90_000, "0xnew"), { history: [ev("credit", 6, 100_000)] }),
      ),
    ).toBe(false);
    const rent = [ev("transfer", 31, 156_000, "0xlandlord"), ev("transfer", 61, 156_000, "0xlandlord")];
    const salary = hoursAgo("credit", 10, 200_000);
    expect(
      fires(
        "rapid_in_out",
        input(ev("transfer", 0, 156_000, "0xlandlord"), {
          history: [...rent, salary],
          accountOpenedAt: NOW - 90 * DAY,
        }),
      ),
    ).toBe(false);
  });
  it("sees money received by $tag and passed on by $tag within hours", () => {
    const received = [hoursAgo("tag_in", 3, 150_000, "sender")];
    const alert = alertOf("rapid_in_out", input(ev("tag_out", 0, 145_000, "next"), { history: received }));
    expect(alert).toBeDefined();
    expect((alert!.evidence.credits as { kind: string }[])[0]!.kind).toBe("tag_in");
  });
});

describe("new device, then a transfer to a new address", () => {
  const devices = (hoursAgo: number) => [NOW - 60 * DAY, NOW - hoursAgo * HOUR];
  it("alerts (blocking) within 48 hours of an established account's new device, from $400", () => {
    const alert = evaluateRules(
      input(ev("transfer", 0, 40_000, "0xnew"), { deviceFirstSeen: devices(47) }),
      config,
    );
    expect(alert.find((a) => a.rule === "new_device_new_address")?.blocking).toBe(true);
    expect(
      fires(
        "new_device_new_address",
        input(ev("transfer", 0, 39_999, "0xnew"), { deviceFirstSeen: devices(1) }),
      ),
    ).toBe(false);
    expect(
      fires(
        "new_device_new_address",
        input(ev("transfer", 0, 40_000, "0xnew"), { deviceFirstSeen: devices(48) }),
      ),
    ).toBe(false);
    expect(
      fires(
        "new_device_new_address",
        input(ev("transfer", 0, 40_000, "0xknown"), {
          deviceFirstSeen: devices(1),
          history: [ev("transfer", 5, 100)],
        }),
      ),
    ).toBe(false);
  });
  it("ignores a second device in the account's first week", () => {
    const young = [NOW - 6 * DAY, NOW - HOUR];
    expect(
      fires("new_device_new_address", input(ev("transfer", 0, 40_000, "0xnew"), { deviceFirstSeen: young })),
    ).toBe(false);
  });
});

describe("dormant account suddenly active (a keep-alive does not reset it)", () => {
  const quiet = (days: number) => ({
    activityBeforeLookbackAt: NOW - days * DAY,
    accountOpenedAt: NOW - 900 * DAY,
  });
  const out = (amount: number) => ev("transfer", 0, amount, "0xnew");
  it("alerts on $500 sent after 180 quiet days, and after 150, and on $450 after 200", () => {
    expect(fires("dormant_reactivated", input(out(50_000), quiet(181)))).toBe(true);
    expect(fires("dormant_reactivated", input(out(50_000), quiet(150)))).toBe(true);
    expect(fires("dormant_reactivated", input(out(45_000), quiet(200)))).toBe(true);
    expect(fires("dormant_reactivated", input(out(50_000), quiet(90)))).toBe(false);
    expect(fires("dormant_reactivated", input(out(10_000), quiet(400)))).toBe(false);
    expect(fires("dormant_reactivated", input(out(50_000), { accountOpenedAt: NOW - 181 * DAY }))).toBe(true);
  });
  it("weighs money in alone less (a tax refund after a silence), and judges what follows the reactivation", () => {
    expect(fires("dormant_reactivated", input(ev("credit", 0, 50_000), quiet(200)))).toBe(false);
    expect(fires("dormant_reactivated", input(ev("credit", 0, 200_000), quiet(200)))).toBe(true);
    // The money sent two days after the refund is judged against the silence before the refund.
    const refund = [ev("credit", 2, 50_000)];
    expect(fires("dormant_reactivated", input(out(45_000), { ...quiet(200), history: refund }))).toBe(true);
  });
  it("does not count $1 keep-alives as activity, but counts real activity", () => {
    const keepAlives = Array.from({ length: 4 }, (_, i) => ev("credit", 5 + i * 30, 100));
    const alert = alertOf(
      "dormant_reactivated",
      input(ev("transfer", 0, 60_000, "0xnew"), { ...quiet(200), history: keepAlives }),
    );
    expect(alert?.evidence).toMatchObject({ quietDays: 200, smallEventsIgnored: 4 });
    expect(
      fires(
        "dormant_reactivated",
        input(ev("transfer", 0, 60_000, "0xnew"), { ...quiet(200), history: [ev("credit", 30, 20_000)] }),
      ),
    ).toBe(false);
  });
});

describe("many customers paying one address", () => {
  const senders = (n: number, daysAgo = 1) =>
    Array.from({ length: n }, (_, i) => ({ customerId: `u${i}`, at: NOW - daysAgo * DAY }));
  it("alerts from the fourth customer within 14 days (not blocking unless configured)", () => {
    expect(
      fires("many_to_one_address", input(ev("transfer", 0, 5_000, "0xpool"), { addressSenders: senders(2) })),
    ).toBe(false);
    expect(
      fires("many_to_one_address", input(ev("transfer", 0, 5_000, "0xpool"), { addressSenders: senders(3) })),
    ).toBe(true);
    expect(
      alertOf(
        "many_to_one_address",
        input(ev("transfer", 0, 5_000, "0xpool"), { addressSenders: senders(4) }),
      ),
    ).toMatchObject({
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
    // A shop's regular: they paid the address before the window.
    const regular = [ev("transfer", 40, 5_000, "0xpool")];
    expect(
      fires(
        "many_to_one_address",
        input(ev("transfer", 0, 5_000, "0xpool"), { addressSenders: senders(9), history: regular }),
      ),
    ).toBe(false);
  });
});

describe("fan-out: money to many new payees in a short time", () => {
  it("alerts on the fourth new payee of $250 within a day, addresses and $tags alike", () => {
    const history = [
      hoursAgo("transfer", 20, 25_000, "0xa"),
      hoursAgo("tag_out", 10, 25_000, "b"),
      hoursAgo("transfer", 5, 25_000, "0xc"),
    ];
    expect(
      fires("fan_out", input(hoursAgo("transfer", 3, 25_000, "0xc"), { history: history.slice(0, 2) })),
    ).toBe(false);
    const alert = alertOf("fan_out", input(ev("tag_out", 0, 25_000, "d"), { history }));
    expect(alert?.evidence).toMatchObject({ newPayees: 4, totalCents: 100_000 });
  });
  it("leaves small splits among friends and payees paid before alone", () => {
    const dinner = ["a", "b", "c", "d", "e"].map((f, i) => hoursAgo("tag_out", 2 + i, 2_000, f));
    expect(fires("fan_out", input(ev("tag_out", 0, 2_000, "f"), { history: dinner }))).toBe(false);
    const known = ["0xa", "0xb", "0xc", "0xd"].map((a) => ev("transfer", 30, 25_000, a));
    const again = ["0xa", "0xb", "0xc"].map((a, i) => hoursAgo("transfer", 3 + i, 25_000, a));
    expect(fires("fan_out", input(ev("transfer", 0, 25_000, "0xd"), { history: [...known, ...again] }))).toBe(
      false,
    );
  });
});

describe("incoming burst: many payments in within a short time", () => {
  it("alerts on the eighth $150 received by $tag within a day for a customer paid twice a month", () => {
    const usual = Array.from({ length: 6 }, (_, i) => ev("credit", 14 + i * 15, 200_000));
    const burst = Array.from({ length: 7 }, (_, i) => hoursAgo("tag_in", 1 + i * 3, 15_000, `s${i}`));
    const alert = alertOf(
      "incoming_burst",
      input(ev("tag_in", 0, 15_000, "s7"), {
        history: [...usual, ...burst],
        accountOpenedAt: NOW - 100 * DAY,
      }),
    );
    expect(alert?.evidence).toMatchObject({ count: 8 });
    expect(
      fires(
        "incoming_burst",
        input(ev("tag_in", 0, 15_000, "s7"), {
          history: [...usual, ...burst.slice(0, 2)],
          accountOpenedAt: NOW - 100 * DAY,
        }),
      ),
    ).toBe(false);
  });
  it("leaves a customer who is always paid that often alone", () => {
    const shop = Array.from({ length: 90 * 4 }, (_, i) => ev("tag_in", i / 4 + 0.01, 15_000, `c${i}`));
    expect(
      fires(
        "incoming_burst",
        input(ev("tag_in", 0, 15_000, "c"), { history: shop, accountOpenedAt: NOW - 100 * DAY }),
      ),
    ).toBe(false);
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
  it("scores 0.5 at the rule's minimum evidence up to 1 at twice it, and records the evidence score", () => {
    const at = alertOf("first_large_new_address", input(ev("transfer", 0, 120_000, "0xnew")))!;
    const twice = alertOf("first_large_new_address", input(ev("transfer", 0, 240_000, "0xnew")))!;
    expect([at.score, twice.score]).toEqual([0.5, 1]);
    expect(at.evidence.evidenceScore).toBe(1);
  });
});
