import { beforeAll, describe, expect, it } from "vitest";
import { fingerprintScenarios } from "@/scripts/monitoring-scenarios/fingerprint";
import {
  generateScenarios,
  type Scenarios,
  TEST_CUSTOMERS,
  TEST_TYPOLOGY_SHARE,
} from "@/scripts/monitoring-scenarios/generate";
import { type Measurement, measureScenarios } from "@/scripts/monitoring-scenarios/measure";
import { LIMITS } from "@/scripts/monitoring-scenarios/world";
import { defaultMonitoringConfig } from "@/server/features/monitoring/rules";
import frozen from "@/tests/fixtures/monitoring-scenarios/FROZEN.json";

/**
 * Decision 054's goals on the frozen scenarios (scripts/monitoring-scenarios, written apart from the rules):
 * the production rules find at least 90% of every typology and of every evasion variant, and raise fewer than
 * 20 alerts per 1,000 normal customers a month. `npm run bench:compliance` prints the same on 10,000
 * customers.
 */
/**
 * Where the goals are not reached yet, the figures the rules reached when they landed (2026-11-29, decision 054,
 * bench/COMPLIANCE.md): held here so they cannot slip back, while the bench keeps printing the goals. Every other
 * typology and variant is held to the goal itself.
 */
const REACHED: Record<string, number> = {
  velocity: 0.78,
  new_device_new_address: 0.53,
  "velocity/evasion-amount": 0.64,
  "velocity/evasion-spread": 0.69,
  "rapid_in_out/evasion-delay": 0.7,
  "new_device_new_address/evasion-delay": 0.5,
  "new_device_new_address/evasion-amount": 0.07,
};
const GOAL_RECALL = 0.9;
const floorOf = (key: string) => Math.min(GOAL_RECALL, REACHED[key] ?? GOAL_RECALL);
/** Normal customers' alerts a month per 1,000: the goal is under 20; 28.6 reached. */
const NORMAL_ALERTS_REACHED = 29;

describe("transaction monitoring on the frozen scenarios", () => {
  let scenarios: Scenarios;
  let m: Measurement;
  beforeAll(() => {
    scenarios = generateScenarios({ customers: TEST_CUSTOMERS, typologyShare: TEST_TYPOLOGY_SHARE });
    m = measureScenarios(scenarios, defaultMonitoringConfig(LIMITS));
  }, 600_000);

  it("judges the population frozen in FROZEN.json (a change of the generator is noticed)", () => {
    expect(fingerprintScenarios(scenarios)).toEqual(frozen.test);
  });

  it("judges every event of the month measured", () => {
    expect(m.measuredEvents).toBe(frozen.test.measuredEvents);
  });

  it("finds at least 90% of every typology (or, where not reached yet, what was reached)", () => {
    const missed = m.typologies
      .filter((r) => r.recall < floorOf(r.key))
      .map((r) => `${r.key} ${r.found}/${r.total}`);
    expect(missed).toEqual([]);
  });

  it("finds at least 90% of every typology's plain form and of each of its evasion variants (or what was reached)", () => {
    const missed = m.variants
      .filter((r) => r.recall < floorOf(r.key))
      .map((r) => `${r.key} ${r.found}/${r.total}`);
    expect(missed).toEqual([]);
  });

  it("raises no more alerts per 1,000 normal customers a month than reached (goal: fewer than 20)", () => {
    // On failure, which kinds of customers the alerts fall on.
    const byKind = m.normalKinds.map((k) => `${k.kind} ${k.alertsPer1000.toFixed(0)}`).join(", ");
    expect(m.normal.alertsPer1000, `alerts per 1,000 by kind: ${byKind}`).toBeLessThanOrEqual(
      NORMAL_ALERTS_REACHED,
    );
  });
});
