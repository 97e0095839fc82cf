import { beforeAll, describe, expect, it } from "vitest";
import {
  generateScenarios,
  type Scenarios,
  TEST_CUSTOMERS,
  TEST_TYPOLOGY_SHARE,
} from "@/scripts/monitoring-scenarios/generate";
import {
  DAY,
  HOUR,
  LIMITS,
  type ScenarioCustomer,
  type ScenarioEvent,
  startOfDay,
} from "@/scripts/monitoring-scenarios/world";

/**
 * The judge judged: the scenarios are what bench/COMPLIANCE.md says they are, checked on the events themselves
 * (never through the rules). Each typology's act is there in its variant's form, an evasion stays on its side of
 * the plain form's edge, and every customer keeps to the product's limits.
 */
const A = LIMITS.approvalThresholdCents;
const D = LIMITS.dailyLimitCents;
const isIn = (e: ScenarioEvent) => e.kind === "credit" || e.kind === "deposit" || e.kind === "tag_in";
const isOut = (e: ScenarioEvent) => e.kind === "transfer" || e.kind === "tag_out";
const payee = (e: ScenarioEvent) => e.address ?? e.counterparty ?? "";

/** The most events of `events` (in time order) inside any window of `span` ms. */
function most(events: ScenarioEvent[], span: number): number {
  let best = 0;
  for (let i = 0, j = 0; j < events.length; j++) {
    while (events[j]!.at - events[i]!.at > span) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

/** Money out in the month to someone the customer never paid before. */
function newPayeeOuts(c: ScenarioCustomer, from: number): ScenarioEvent[] {
  const paid = new Set<string>();
  const out: ScenarioEvent[] = [];
  for (const e of c.events) {
    if (!isOut(e)) continue;
    if (e.at >= from && !paid.has(payee(e))) out.push(e);
    paid.add(payee(e));
  }
  return out;
}

describe("the monitoring scenarios", () => {
  let s: Scenarios;
  const of = (typology: string, variant: string) =>
    s.customers.filter(
      (c) => c.label.type === "typology" && c.label.typology === typology && c.label.variant === variant,
    );
  const month = (c: ScenarioCustomer) => c.events.filter((e) => e.at >= s.measuredFrom);
  beforeAll(() => {
    s = generateScenarios({ customers: TEST_CUSTOMERS, typologyShare: TEST_TYPOLOGY_SHARE });
  }, 600_000);

  it("is the same population for the same seed and another for another seed", () => {
    const again = generateScenarios({ customers: 200 });
    expect(generateScenarios({ customers: 200 })).toEqual(again);
    expect(generateScenarios({ customers: 200, seed: 1 })).not.toEqual(again);
  });

  it("keeps every customer's money out within the daily limit and every event well formed", () => {
    const faults: string[] = [];
    for (const c of s.customers) {
      const byDay = new Map<number, number>();
      c.events.forEach((e, i) => {
        if (i > 0 && e.at < c.events[i - 1]!.at) faults.push(`${c.id} out of order`);
        if (!Number.isInteger(e.amountCents) || e.amountCents <= 0) faults.push(`${e.id} amount`);
        if (e.at < Math.max(s.historyFrom, c.accountOpenedAt) || e.at >= s.measuredTo)
          faults.push(`${e.id} time`);
        if ((e.kind === "transfer") !== (e.address !== null)) faults.push(`${e.id} address`);
        if (e.address && !/^0x[0-9a-f]{40}$/.test(e.address)) faults.push(`${e.id} address form`);
        if ((e.kind === "tag_in" || e.kind === "tag_out") !== Boolean(e.counterparty))
          faults.push(`${e.id} counterparty`);
        if (isOut(e)) byDay.set(startOfDay(e.at), (byDay.get(startOfDay(e.at)) ?? 0) + e.amountCents);
      });
      for (const [day, sum] of byDay)
        if (sum > D) faults.push(`${c.id} ${new Date(day).toISOString()} ${sum}`);
    }
    expect(faults).toEqual([]);
  });

  it("pays both sides of a $tag payment between two customers of the sample", () => {
    const ids = new Set(s.customers.map((c) => c.id));
    const sides = new Map<string, number>();
    for (const c of s.customers)
      for (const e of c.events)
        if (e.kind === "tag_out" && ids.has(e.counterparty!)) {
          const key = `${c.id}>${e.counterparty}@${e.at}:${e.amountCents}`;
          sides.set(key, (sides.get(key) ?? 0) + 1);
        } else if (e.kind === "tag_in" && ids.has(e.counterparty!)) {
          const key = `${e.counterparty}>${c.id}@${e.at}:${e.amountCents}`;
          sides.set(key, (sides.get(key) ?? 0) - 1);
        }
    expect(sides.size).toBeGreaterThan(1000);
    expect([...sides.values()].filter((v) => v !== 0)).toEqual([]);
  });

  it("structures money in at 90–99.5% of the approval threshold within 7 days, at 80–89% or 8+ days apart when evading", () => {
    const near = (c: ScenarioCustomer, lo: number, hi: number) =>
      month(c).filter((e) => isIn(e) && e.amountCents >= lo * A && e.amountCents < hi * A);
    expect(of("structuring_in", "plain").filter((c) => most(near(c, 0.9, 1), 7 * DAY) < 3)).toEqual([]);
    expect(
      of("structuring_in", "evasion-amount").filter((c) => most(near(c, 0.8, 0.9), 7 * DAY) < 3),
    ).toEqual([]);
    const spread = of("structuring_in", "evasion-spread");
    expect(spread.filter((c) => most(near(c, 0.9, 1), 14 * DAY) < 3)).toEqual([]);
    expect(spread.filter((c) => most(near(c, 0.9, 1), 7 * DAY) >= 3).length).toBeLessThanOrEqual(
      spread.length / 10,
    );
  });

  it("structures money out at 90–99.5% of the daily limit, at 80–89% or 8+ days apart when evading", () => {
    const near = (c: ScenarioCustomer, lo: number, hi: number) =>
      month(c).filter((e) => isOut(e) && e.amountCents >= lo * D && e.amountCents < hi * D);
    expect(of("structuring_out", "plain").filter((c) => most(near(c, 0.9, 1), 7 * DAY) < 3)).toEqual([]);
    expect(
      of("structuring_out", "evasion-amount").filter((c) => most(near(c, 0.8, 0.9), 7 * DAY) < 3),
    ).toEqual([]);
    const spread = of("structuring_out", "evasion-spread");
    expect(spread.filter((c) => most(near(c, 0.9, 1), 14 * DAY) < 3)).toEqual([]);
    expect(spread.filter((c) => most(near(c, 0.9, 1), 7 * DAY) >= 3)).toEqual([]);
  });

  it("sends a first large payment to someone new: $1,500+ at once, $1,200–$1,450, or split in two", () => {
    const largest = (c: ScenarioCustomer) =>
      Math.max(0, ...newPayeeOuts(c, s.measuredFrom).map((e) => e.amountCents));
    expect(of("first_large_new_address", "plain").filter((c) => largest(c) < 150_000)).toEqual([]);
    const amount = of("first_large_new_address", "evasion-amount");
    expect(amount.filter((c) => largest(c) < 120_000 || largest(c) >= 150_000)).toEqual([]);
    expect(of("first_large_new_address", "evasion-split").filter((c) => largest(c) >= 150_000)).toEqual([]);
  });

  it("pays someone new after a new device: within 40 h, or 49–60 h later, or in amounts under $200", () => {
    /** Hours from a device first seen in the month to the first payment of at least `min` to someone new. */
    const lagOf = (c: ScenarioCustomer, min: number) =>
      Math.min(
        ...c.devices
          .filter((d) => d >= s.measuredFrom)
          .map((device) => {
            const first = newPayeeOuts(c, device).find((e) => e.amountCents >= min);
            return first ? (first.at - device) / HOUR : Number.POSITIVE_INFINITY;
          }),
      );
    expect(of("new_device_new_address", "plain").filter((c) => lagOf(c, 40_000) > 40)).toEqual([]);
    const delay = of("new_device_new_address", "evasion-delay");
    expect(delay.filter((c) => lagOf(c, 20_000) < 49 || lagOf(c, 20_000) > 61).length).toBeLessThanOrEqual(2);
    expect(of("new_device_new_address", "evasion-amount").filter((c) => lagOf(c, 15_000) > 40)).toEqual([]);
  });

  it("wakes dormant accounts after 200+ days, 150–170 days, or past $1 keep-alives", () => {
    /** The longest silence before an event of the month (since opening for the first), in days, ignoring events
     * of at most `ignore` cents. */
    const silence = (c: ScenarioCustomer, ignore: number) => {
      const moving = c.events.filter((e) => e.amountCents > ignore);
      let longest = 0;
      moving.forEach((e, i) => {
        const before = i > 0 ? moving[i - 1]!.at : c.accountOpenedAt;
        if (e.at >= s.measuredFrom) longest = Math.max(longest, (e.at - before) / DAY);
      });
      return longest;
    };
    expect(of("dormant_reactivated", "plain").filter((c) => silence(c, 0) < 200)).toEqual([]);
    expect(
      of("dormant_reactivated", "evasion-gap").filter((c) => silence(c, 0) < 150 || silence(c, 0) > 171),
    ).toEqual([]);
    const keepAlive = of("dormant_reactivated", "evasion-keepalive");
    expect(keepAlive.filter((c) => silence(c, 0) > 100 || silence(c, 300) < 200)).toEqual([]);
  });

  it("fans out to 6+ new payees within 3 days, 5 when evading by count, 6+ with no 3 days holding 6 when spread", () => {
    const fan = (c: ScenarioCustomer, span: number) => most(newPayeeOuts(c, s.measuredFrom), span);
    expect(of("fan_out", "plain").filter((c) => fan(c, 3 * DAY) < 6)).toEqual([]);
    expect(of("fan_out", "evasion-count").filter((c) => fan(c, 3 * DAY) < 5)).toEqual([]);
    const spread = of("fan_out", "evasion-spread");
    expect(spread.filter((c) => fan(c, 6 * DAY) < 6)).toEqual([]);
    expect(spread.filter((c) => fan(c, 3 * DAY) >= 6).length).toBeLessThanOrEqual(spread.length / 10);
  });

  it("bursts 8+ payments in within 48 h, 6–7 when evading by count, 8+ with no 48 h holding 8 when spread", () => {
    const burst = (c: ScenarioCustomer, span: number) => most(month(c).filter(isIn), span);
    expect(of("incoming_burst", "plain").filter((c) => burst(c, 48 * HOUR) < 8)).toEqual([]);
    expect(of("incoming_burst", "evasion-count").filter((c) => burst(c, 48 * HOUR) < 6)).toEqual([]);
    expect(of("incoming_burst", "evasion-spread").filter((c) => burst(c, 4 * DAY) < 8)).toEqual([]);
  });

  it("gathers collection groups of 6–9 customers within 14 days, 4 when evading by count, 5–6 with no 14 days holding 5", () => {
    const groups = new Map<string, { variant: string; firsts: number[] }>();
    for (const c of s.customers) {
      if (c.label.type !== "typology" || c.label.typology !== "collection") continue;
      const address = c.label.group!;
      const first = c.events.find((e) => e.address === address)!.at;
      const g = groups.get(address) ?? { variant: c.label.variant, firsts: [] };
      g.firsts.push(first);
      groups.set(address, g);
    }
    const inWindow = (firsts: number[]) =>
      most(
        [...firsts].sort((a, b) => a - b).map((at) => ({ at }) as ScenarioEvent),
        14 * DAY,
      );
    const wrong = [...groups.values()].filter(({ variant, firsts }) =>
      variant === "plain"
        ? inWindow(firsts) < 5
        : variant === "evasion-count"
          ? firsts.length !== 4
          : inWindow(firsts) >= 5 || firsts.length < 5,
    );
    expect(groups.size).toBeGreaterThan(5);
    expect(wrong).toEqual([]);
  });
});
