import { describe, expect, it } from "vitest";
import type { Scenarios } from "@/scripts/monitoring-scenarios/generate";
import { judgedEvents, type ScenarioInput } from "@/scripts/monitoring-scenarios/measure";
import { DAY, LIMITS, type ScenarioCustomer, type ScenarioEvent } from "@/scripts/monitoring-scenarios/world";
import { defaultMonitoringConfig } from "@/server/features/monitoring/rules";

/** The bench gives the rules what the live path would (load-monitoring-input.ts), each event only its past. */
const config = defaultMonitoringConfig(LIMITS);
const T = Date.UTC(2026, 9, 1);
const lookback = config.lookbackDays * DAY;
const X = `0x${"a".repeat(40)}`;

const ev = (
  id: string,
  kind: ScenarioEvent["kind"],
  at: number,
  extra: Partial<ScenarioEvent> = {},
): ScenarioEvent => ({
  id,
  kind,
  at,
  amountCents: 10_000,
  address: null,
  ...extra,
});
const customer = (id: string, events: ScenarioEvent[], devices = [T - 900 * DAY]): ScenarioCustomer => ({
  id,
  label: { type: "normal", kind: "salaried" },
  accountOpenedAt: T - 900 * DAY,
  devices,
  events,
});

const scenarios: Scenarios = {
  seed: 0,
  historyFrom: T - 365 * DAY,
  measuredFrom: T,
  measuredTo: T + 30 * DAY,
  customers: [
    customer(
      "a",
      [
        ev("a1", "deposit", T - lookback - 5 * DAY),
        ev("a2", "credit", T + 0.1 * DAY),
        ev("a3", "transfer", T + DAY, { address: X, channel: "direct" }),
        ev("a4", "tag_in", T + 2 * DAY, { counterparty: "b", channel: "request" }),
        ev("a5", "tag_out", T + 3 * DAY, { counterparty: "out-1", channel: "direct" }),
        ev("a6", "transfer", T + 4 * DAY, { address: X, channel: "schedule" }),
      ],
      [T - 900 * DAY, T + 2.5 * DAY],
    ),
    customer("b", [
      ev("b1", "transfer", T - lookback - 10 * DAY, { address: X }),
      ev("b2", "transfer", T + 0.2 * DAY, { address: X }),
      ev("b3", "transfer", T + 0.5 * DAY, { address: X }),
      ev("b4", "transfer", T + 3.5 * DAY, { address: X }),
      ev("b5", "tag_out", T + 2 * DAY, { counterparty: "a", channel: "request" }),
    ]),
  ],
};

function inputsOf(feed: "all" | "today", raise?: (input: ScenarioInput) => string | null) {
  const out: { customer: string; input: ScenarioInput; month: boolean }[] = [];
  for (const j of judgedEvents(scenarios, config, feed)) {
    out.push({ customer: j.customer, input: j.input, month: j.month });
    const rule = raise?.(j.input);
    if (rule) j.raised.push({ rule, at: j.input.event.at });
  }
  return out;
}

describe("the inputs the bench gives the rules", () => {
  it("judges every event of the month, with the customer's earlier events within the lookback as history", () => {
    const a = inputsOf("all").filter((j) => j.customer === "a");
    expect(a.map((j) => j.input.event.id)).toEqual(["a2", "a3", "a4", "a5", "a6"]);
    const a3 = a.find((j) => j.input.event.id === "a3")!.input;
    expect(a3.history.map((e) => e.id)).toEqual(["a2"]);
    expect(a3.activityBeforeLookbackAt).toBe(T - lookback - 5 * DAY);
    expect(a3.accountOpenedAt).toBe(T - 900 * DAY);
    const a6 = a.find((j) => j.input.event.id === "a6")!.input;
    expect(a6.history.map((e) => e.id)).toEqual(["a2", "a3", "a4", "a5"]);
    expect(a6.event.channel).toBe("schedule");
  });

  it("shows the devices first seen by then, not those seen later", () => {
    const a = inputsOf("all").filter((j) => j.customer === "a");
    expect(a.find((j) => j.input.event.id === "a3")!.input.deviceFirstSeen).toEqual([T - 900 * DAY]);
    expect(a.find((j) => j.input.event.id === "a6")!.input.deviceFirstSeen).toEqual([
      T - 900 * DAY,
      T + 2.5 * DAY,
    ]);
  });

  it("lists the other customers who paid the address before, each once with their latest payment", () => {
    const a = inputsOf("all").filter((j) => j.customer === "a");
    const a3 = a.find((j) => j.input.event.id === "a3")!.input;
    expect(a3.addressSenders).toEqual([{ customerId: "b", at: T + 0.5 * DAY }]);
    expect(a3.addressSenderCount).toBe(1);
    const a6 = a.find((j) => j.input.event.id === "a6")!.input;
    expect(a6.addressSenders).toEqual([{ customerId: "b", at: T + 3.5 * DAY }]);
    // b's first payment there was before a paid it: b sees no one; b's later ones see a.
    const b = inputsOf("all").filter((j) => j.customer === "b");
    expect(b.find((j) => j.input.event.id === "b2")!.input.addressSenders).toEqual([]);
    expect(b.find((j) => j.input.event.id === "b4")!.input.addressSenders).toEqual([
      { customerId: "a", at: T + DAY },
    ]);
  });

  it("gives the customer's own alerts raised earlier in the run as recent alerts", () => {
    const a = inputsOf("all", (input) => (input.event.id === "a3" ? "velocity" : null)).filter(
      (j) => j.customer === "a",
    );
    expect(a.find((j) => j.input.event.id === "a3")!.input.recentAlerts).toEqual([]);
    expect(a.find((j) => j.input.event.id === "a4")!.input.recentAlerts).toEqual([
      { rule: "velocity", at: T + DAY },
    ]);
    expect(inputsOf("all").find((j) => j.input.event.id === "b4")!.input.recentAlerts).toEqual([]);
  });

  it("feeds $tag payments as today's live path does when asked: none judged, one received a credit in the history", () => {
    const a = inputsOf("today").filter((j) => j.customer === "a");
    expect(a.map((j) => j.input.event.id)).not.toContain("a4");
    expect(a.map((j) => j.input.event.id)).not.toContain("a5");
    const a6 = a.find((j) => j.input.event.id === "a6")!.input;
    expect(a6.history.map((e) => [e.id, e.kind])).toEqual([
      ["a2", "credit"],
      ["a3", "transfer"],
      ["a4", "credit"],
    ]);
  });
});
