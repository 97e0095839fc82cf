import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SANCTIONS_NAME_THRESHOLD } from "@/contract/compliance";
import {
  type CaseFigures,
  caseFigures,
  frozenPopulation,
  loadCaseFile,
  type PopulationFigures,
  realListIndex,
  screenCases,
  screenPopulation,
} from "@/scripts/screening-set/measure";
import { ORIGINS } from "@/scripts/screening-set/names";
import { NEGATIVE_VARIANTS, POSITIVE_VARIANTS } from "@/scripts/screening-set/types";

/**
 * Decision 052's goals on the frozen labelled set (tests/fixtures/screening-set, generated from the real OFAC
 * extract apart from the matcher) and the frozen synthetic population, at the one default threshold. The same
 * figures as `npm run bench:screening` (scripts/screening-set/measure.ts computes both).
 */
/**
 * Where the goals are not reached yet, the figures the matcher reached when it landed (2026-11-29, decision 052,
 * bench/SCREENING.md): held here so they cannot slip back, while the bench keeps printing the goals. Every other
 * figure is held to the goal itself.
 */
const REACHED = {
  recall: 0.929,
  byVariant: { "translit-chinese": 0.25, typo: 0.875 } as Record<string, number>,
  /** Circa or range cases kept (of 40). */
  approxKept: 38,
  /**
   * Alerts per 1,000 of any origin. The goal (no origin above 3× the English-language rate) is not met: English
   * names drew no alert in 1,120, Arabic 10.7 per 1,000 (near-exact names of listed people without a listed DOB).
   */
  perThousandAnyOrigin: 11,
};
const GOAL_VARIANT_RECALL = 0.9;

const file = loadCaseFile();
let cases: CaseFigures;
let population: PopulationFigures;

beforeAll(() => {
  const { index } = realListIndex();
  cases = caseFigures(screenCases(index, file.cases, DEFAULT_SANCTIONS_NAME_THRESHOLD));
  population = screenPopulation(index, frozenPopulation(file), DEFAULT_SANCTIONS_NAME_THRESHOLD);
}, 900_000);

const missed = (variant: string) =>
  cases.misses
    .filter((o) => o.case.variant === variant)
    .slice(0, 5)
    .map((o) => `${o.case.query.name} ← ${o.case.origin.listedName}`);

describe("the frozen set", () => {
  it("is the one generated with its seed: ≥ 500 cases, every variant with enough cases to measure", () => {
    expect(file.cases.length).toBeGreaterThanOrEqual(500);
    expect(file.counts.total).toBe(file.cases.length);
    for (const v of POSITIVE_VARIANTS) expect(file.counts.byVariant[v], v).toBeGreaterThanOrEqual(30);
    for (const v of NEGATIVE_VARIANTS) expect(file.counts.byVariant[v], v).toBeGreaterThanOrEqual(40);
    expect(new Set(file.cases.map((c) => c.id)).size).toBe(file.cases.length);
  });
});

describe("screening on the frozen set at the default threshold (decision 052)", () => {
  it("finds the listed people and companies written another way as often as reached (goal ≥ 97%)", () => {
    expect(cases.recall.rate, `${cases.recall.hit}/${cases.recall.of}`).toBeGreaterThanOrEqual(
      REACHED.recall,
    );
  });

  it.each(POSITIVE_VARIANTS)("finds ≥ 90% of the %s cases (or what was reached)", (variant) => {
    const r = cases.recallByVariant[variant]!;
    expect(r.rate, `${r.hit}/${r.of}; missed e.g. ${missed(variant).join(" | ")}`).toBeGreaterThanOrEqual(
      Math.min(GOAL_VARIANT_RECALL, REACHED.byVariant[variant] ?? GOAL_VARIANT_RECALL),
    );
  });

  it("keeps precision ≥ 0.95 when the query has a date of birth and ≥ 0.90 on the name alone", () => {
    expect(
      cases.precisionWithDob.rate,
      `with DOB ${cases.precisionWithDob.hit}/${cases.precisionWithDob.of}`,
    ).toBeGreaterThanOrEqual(0.95);
    expect(
      cases.precisionNameOnly.rate,
      `name only ${cases.precisionNameOnly.hit}/${cases.precisionNameOnly.of}`,
    ).toBeGreaterThanOrEqual(0.9);
  });

  it("keeps ≥ 95% of true matches under a day/month swap or a year off by one", () => {
    expect(
      cases.dob.nearKept.rate,
      `${cases.dob.nearKept.hit}/${cases.dob.nearKept.of}`,
    ).toBeGreaterThanOrEqual(0.95);
  });

  it("keeps the matches whose DOB falls inside a listed circa or range (goal: every one)", () => {
    expect(
      cases.dob.approxKept.hit,
      `${cases.dob.approxKept.hit}/${cases.dob.approxKept.of}; missed e.g. ${missed("dob-approx").join(" | ")}`,
    ).toBeGreaterThanOrEqual(REACHED.approxKept);
  });

  it("raises no alert for a listed name whose DOB is 5+ years from every listed one", () => {
    expect(cases.dob.farAlerts.hit).toBe(0);
  });

  it("never hits a vessel, aircraft or company for a person", () => {
    expect(cases.personOnNonPerson).toBe(0);
  });
});

describe("fairness on the synthetic population at KYC (decision 053)", () => {
  it("alerts on ≤ 10 per 1,000 customers", () => {
    expect(population.perThousand, `${population.alerted}/${population.customers}`).toBeLessThanOrEqual(10);
  });

  it.each(ORIGINS)(
    "alerts on %s names no more often than reached (goal: ≤ 3× the English rate)",
    (origin) => {
      const g = population.byOrigin[origin];
      expect(
        g.perThousand,
        `${g.perThousand.toFixed(1)} per 1,000 vs English ${population.byOrigin.english.perThousand.toFixed(1)}`,
      ).toBeLessThanOrEqual(REACHED.perThousandAnyOrigin);
    },
  );
});
