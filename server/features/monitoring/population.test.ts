import { describe, expect, it } from "vitest";
import { RULE_NAMES } from "@/contract/monitoring";
import { generatePopulation, measureMonitoring } from "@/server/features/monitoring/population";
import { defaultMonitoringConfig } from "@/server/features/monitoring/rules";

const limits = { approvalThresholdCents: 100_000, dailyLimitCents: 200_000 };

/** The benchmark's goals (issue 30 §5, bench/COMPLIANCE.md) on a small fixed-seed population. */
describe("transaction monitoring on a synthetic labelled population", () => {
  const population = generatePopulation(7, 1_500, limits);
  const measured = measureMonitoring(population, defaultMonitoringConfig(limits));

  it("is the same population for the same seed", () => {
    const again = generatePopulation(7, 1_500, limits);
    expect(again.customers.map((c) => c.events.length)).toEqual(
      population.customers.map((c) => c.events.length),
    );
    expect(again.customers[123]!.events).toEqual(population.customers[123]!.events);
  });

  it("finds at least 90% of every typology", () => {
    for (const rule of RULE_NAMES) {
      const figures = measured.rules.find((r) => r.rule === rule)!;
      expect(figures.recall, rule).toBeGreaterThanOrEqual(0.9);
    }
  });

  it("raises fewer than 20 alerts per 1,000 normal customers a month", () => {
    expect(measured.normalAlertsPer1000PerMonth).toBeLessThan(20);
  });
});
