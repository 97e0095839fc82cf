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
 * Issue 47 §4's goals on the frozen scenarios (scripts/monitoring-scenarios, written apart from the rules): the
 * production rules find at least 90% of every typology and of every evasion variant, and raise fewer than 20
 * alerts per 1,000 normal customers a month. `npm run bench:compliance` prints the same on 10,000 customers.
 */
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

  it("finds at least 90% of every typology", () => {
    const missed = m.typologies.filter((r) => r.recall < 0.9).map((r) => `${r.key} ${r.found}/${r.total}`);
    expect(missed).toEqual([]);
  });

  it("finds at least 90% of every typology's plain form and of each of its evasion variants", () => {
    const missed = m.variants.filter((r) => r.recall < 0.9).map((r) => `${r.key} ${r.found}/${r.total}`);
    expect(missed).toEqual([]);
  });

  it("raises fewer than 20 alerts per 1,000 normal customers a month", () => {
    // On failure, which kinds of customers the alerts fall on.
    const byKind = m.normalKinds.map((k) => `${k.kind} ${k.alertsPer1000.toFixed(0)}`).join(", ");
    expect(m.normal.alertsPer1000, `alerts per 1,000 by kind: ${byKind}`).toBeLessThan(20);
  });
});
