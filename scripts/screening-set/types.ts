import { resolve } from "node:path";
import { PROJECT_ROOT } from "@/server/lib/project-root";
import type { Origin } from "./names";

/** The variants of the frozen set (tests/fixtures/screening-set/README.md says how each is made). */
export const POSITIVE_VARIANTS = [
  "exact",
  "word-order",
  "missing-middle",
  "one-surname",
  "accents",
  "translit-arabic",
  "translit-persian",
  "translit-russian",
  "cyrillic",
  "translit-chinese",
  "typo",
  "initials",
  "alias",
  "weak-alias",
  "company",
  "dob-approx",
  "dob-year-only",
  "dob-swap",
  "dob-year-off",
] as const;
export const NEGATIVE_VARIANTS = [
  "neg-other-surname",
  "neg-other-given",
  "neg-dob-far",
  "neg-vessel-person",
  "neg-generic-company",
  "neg-common",
] as const;
export type Variant = (typeof POSITIVE_VARIANTS)[number] | (typeof NEGATIVE_VARIANTS)[number];

export interface ScreeningCase {
  id: string;
  variant: Variant;
  /** The query carries a date of birth: precision is reported with DOB and name only. */
  hasDob: boolean;
  query: { name: string; dob: string | null; type: "person" | "entity" | null };
  /**
   * The listed entry (SDN ent_num) the query is; null when it is nobody on the list. `sameNameEntNums`: other
   * entries that list exactly the name the case was made from, with no date of birth ruling the query out: the
   * list itself cannot tell them apart, so a hit on them is reported apart, not as a false positive.
   */
  expected: { entNum: number; sameNameEntNums?: number[] } | null;
  origin: { listedName?: string; op: string; nameOrigin?: Origin | null };
}

export interface CaseFile {
  description: string;
  seed: number;
  generatorVersion: number;
  list: { dir: string; sdnSha256: string; altSha256: string };
  population: { seed: number; size: number; sha256: string };
  counts: {
    total: number;
    positive: number;
    negative: number;
    withDob: number;
    nameOnly: number;
    byVariant: Record<string, number>;
  };
  cases: ScreeningCase[];
}

/** Where the frozen set lives. */
export const CASES_PATH = resolve(PROJECT_ROOT, "tests/fixtures/screening-set/cases.json");
