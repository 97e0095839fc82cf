import { readFileSync } from "node:fs";
import type { SanctionsIndex } from "@/server/features/compliance/list-index";
import { indexOfParsedList } from "@/server/features/compliance/list-index";
import { type ListMatch, type NameQuery, searchIndex } from "@/server/features/compliance/list-search";
import type { ParsedList } from "@/server/features/compliance/parse-ofac";
import { parseRealList } from "@/tests/support/real-ofac-list";
import { ORIGINS, type Origin } from "./names";
import { type Customer, generatePopulation, populationDigest } from "./population";
import { jaroWinkler, plain } from "./text";
import {
  CASES_PATH,
  type CaseFile,
  NEGATIVE_VARIANTS,
  POSITIVE_VARIANTS,
  type ScreeningCase,
  type Variant,
} from "./types";

/**
 * The figures of decision 052 on the frozen set, computed once for the bench (`npm run bench:screening`) and
 * the goal test (server/features/compliance/screening-frozen-set.test.ts). The matcher is reached only
 * through `searchIndex` over `indexOfParsedList(parseRealList())`.
 */

export function loadCaseFile(): CaseFile {
  return JSON.parse(readFileSync(CASES_PATH, "utf8")) as CaseFile;
}

/** The real extract, parsed and indexed as a list load does. */
export function realListIndex(): { parsed: ParsedList; index: SanctionsIndex } {
  const parsed = parseRealList();
  return { parsed, index: indexOfParsedList(parsed) };
}

/** The frozen synthetic population; throws if the seed or the name lists no longer give the frozen one. */
export function frozenPopulation(file: CaseFile): Customer[] {
  const customers = generatePopulation(file.population.seed);
  const digest = populationDigest(customers);
  if (customers.length !== file.population.size || digest !== file.population.sha256) {
    throw new Error(
      `the synthetic population changed (${customers.length} customers, sha256 ${digest}); cases.json froze ${file.population.size}, ${file.population.sha256}`,
    );
  }
  return customers;
}

/** Who a case hit: the expected entry, another entry listing the same name, or somebody else. */
export interface CaseOutcome {
  case: ScreeningCase;
  found: boolean;
  /** The expected entry's score when hit. */
  score: number | null;
  sameNameHits: number;
  wrongHits: { entNum: number; name: string; sdnType: string; score: number }[];
}

const isPositive = (c: ScreeningCase) => c.expected !== null;

/** Judges a case's hits, whichever matcher produced them. */
export function judge(
  c: ScreeningCase,
  hits: readonly { entNum: number; name: string; sdnType: string; score: number }[],
): CaseOutcome {
  const expected = c.expected;
  const same = new Set(expected?.sameNameEntNums ?? []);
  const mine = expected ? hits.find((h) => h.entNum === expected.entNum) : undefined;
  return {
    case: c,
    found: mine !== undefined,
    score: mine?.score ?? null,
    sameNameHits: hits.filter((h) => same.has(h.entNum)).length,
    wrongHits: hits.filter((h) => h.entNum !== expected?.entNum && !same.has(h.entNum)),
  };
}

const matchHits = (matches: ListMatch[]) =>
  matches
    .filter((m) => m.source === "SDN")
    .map((m) => ({ entNum: m.entNum, name: m.listedName, sdnType: m.sdnType, score: m.score }));

export function screenCases(
  index: SanctionsIndex,
  cases: readonly ScreeningCase[],
  threshold: number,
): CaseOutcome[] {
  return cases.map((c) => judge(c, matchHits(searchIndex(index, c.query as NameQuery, threshold))));
}

export interface Ratio {
  hit: number;
  of: number;
  rate: number;
}
const ratio = (hit: number, of: number): Ratio => ({ hit, of, rate: of === 0 ? 0 : hit / of });

export interface CaseFigures {
  recall: Ratio;
  recallByVariant: Partial<Record<Variant, Ratio>>;
  /** Hit level: true positives / (true positives + hits on anyone else), split by whether the query had a DOB. */
  precisionWithDob: Ratio;
  precisionNameOnly: Ratio;
  precision: Ratio;
  /** Negative cases with at least one hit, by variant. */
  alertedByNegativeVariant: Partial<Record<Variant, Ratio>>;
  /** Hits on anyone else, by variant: where precision is lost. */
  wrongHitsByVariant: Partial<Record<Variant, number>>;
  sameNameHits: number;
  /** Hits of a person query on a vessel, aircraft or company (decision 052: zero). */
  personOnNonPerson: number;
  /** DOB tolerance: near misses kept (swap, ±1 year), listed circa/range and year-only kept, far DOB alerts. */
  dob: {
    swapKept: Ratio;
    yearOffKept: Ratio;
    nearKept: Ratio;
    approxKept: Ratio;
    yearOnlyKept: Ratio;
    farAlerts: Ratio;
  };
  misses: CaseOutcome[];
  falsePositives: CaseOutcome[];
}

export function caseFigures(outcomes: readonly CaseOutcome[]): CaseFigures {
  const positives = outcomes.filter((o) => isPositive(o.case));
  const byVariant = (variants: readonly Variant[], f: (os: CaseOutcome[]) => Ratio) =>
    Object.fromEntries(variants.map((v) => [v, f(outcomes.filter((o) => o.case.variant === v))]));
  const precisionOf = (os: readonly CaseOutcome[]) => {
    const tp = os.filter((o) => o.found).length;
    const fp = os.reduce((n, o) => n + o.wrongHits.length, 0);
    return ratio(tp, tp + fp);
  };
  const variant = (v: Variant) => outcomes.filter((o) => o.case.variant === v);
  const kept = (os: CaseOutcome[]) => ratio(os.filter((o) => o.found).length, os.length);
  const alerted = (os: CaseOutcome[]) => ratio(os.filter((o) => o.wrongHits.length > 0).length, os.length);
  return {
    recall: kept(positives),
    recallByVariant: byVariant(POSITIVE_VARIANTS, kept),
    precisionWithDob: precisionOf(outcomes.filter((o) => o.case.hasDob)),
    precisionNameOnly: precisionOf(outcomes.filter((o) => !o.case.hasDob)),
    precision: precisionOf(outcomes),
    alertedByNegativeVariant: byVariant(NEGATIVE_VARIANTS, alerted),
    wrongHitsByVariant: Object.fromEntries(
      [...POSITIVE_VARIANTS, ...NEGATIVE_VARIANTS].map((v) => [
        v,
        variant(v).reduce((n, o) => n + o.wrongHits.length, 0),
      ]),
    ),
    sameNameHits: outcomes.reduce((n, o) => n + o.sameNameHits, 0),
    personOnNonPerson: outcomes
      .filter((o) => o.case.query.type === "person")
      .reduce((n, o) => n + o.wrongHits.filter((h) => h.sdnType !== "individual").length, 0),
    dob: {
      swapKept: kept(variant("dob-swap")),
      yearOffKept: kept(variant("dob-year-off")),
      nearKept: kept([...variant("dob-swap"), ...variant("dob-year-off")]),
      approxKept: kept(variant("dob-approx")),
      yearOnlyKept: kept(variant("dob-year-only")),
      farAlerts: alerted(variant("neg-dob-far")),
    },
    misses: positives.filter((o) => !o.found),
    falsePositives: outcomes.filter((o) => o.wrongHits.length > 0),
  };
}

export interface PopulationFigures {
  customers: number;
  alerted: number;
  perThousand: number;
  byOrigin: Record<
    Origin,
    { customers: number; alerted: number; perThousand: number; ratioToEnglish: number }
  >;
  /** The first alerted customers with what they hit, for reading. */
  examples: { customer: Customer; hits: { entNum: number; name: string; score: number }[] }[];
}

/** Alerts at KYC (name + DOB + type person) over the population. */
export function populationFigures(
  customers: readonly Customer[],
  screen: (c: Customer) => { entNum: number; name: string; score: number }[],
): PopulationFigures {
  const alertedByOrigin = new Map<Origin, number>();
  const countByOrigin = new Map<Origin, number>();
  const examples: PopulationFigures["examples"] = [];
  let alerted = 0;
  for (const c of customers) {
    countByOrigin.set(c.origin, (countByOrigin.get(c.origin) ?? 0) + 1);
    const hits = screen(c);
    if (hits.length === 0) continue;
    alerted++;
    alertedByOrigin.set(c.origin, (alertedByOrigin.get(c.origin) ?? 0) + 1);
    if (examples.length < 30) examples.push({ customer: c, hits: hits.slice(0, 3) });
  }
  const per = (o: Origin) => (1000 * (alertedByOrigin.get(o) ?? 0)) / (countByOrigin.get(o) ?? 1);
  const english = per("english");
  const byOrigin = Object.fromEntries(
    ORIGINS.map((o) => [
      o,
      {
        customers: countByOrigin.get(o) ?? 0,
        alerted: alertedByOrigin.get(o) ?? 0,
        perThousand: per(o),
        // With no English-language alert at all, a group's ratio is its own rate over one alert per group.
        ratioToEnglish: per(o) / Math.max(english, 1000 / (countByOrigin.get("english") ?? 1)),
      },
    ]),
  ) as PopulationFigures["byOrigin"];
  return {
    customers: customers.length,
    alerted,
    perThousand: (1000 * alerted) / customers.length,
    byOrigin,
    examples,
  };
}

export function screenPopulation(index: SanctionsIndex, customers: readonly Customer[], threshold: number) {
  return populationFigures(customers, (c) =>
    matchHits(searchIndex(index, { name: c.name, dob: c.dob, type: c.type }, threshold)),
  );
}

/** Decision 052's goals, as checks over the figures. */
export interface Goal {
  goal: string;
  value: string;
  met: boolean;
}
export function goals(f: CaseFigures, p: PopulationFigures): Goal[] {
  const pct = (r: Ratio) => `${r.rate.toFixed(3)} (${r.hit}/${r.of})`;
  const out: Goal[] = [
    { goal: "recall overall ≥ 0.97", value: pct(f.recall), met: f.recall.rate >= 0.97 },
    ...POSITIVE_VARIANTS.map((v) => {
      const r = f.recallByVariant[v]!;
      return { goal: `recall ${v} ≥ 0.90`, value: pct(r), met: r.rate >= 0.9 };
    }),
    {
      goal: "precision with DOB ≥ 0.95",
      value: pct(f.precisionWithDob),
      met: f.precisionWithDob.rate >= 0.95,
    },
    {
      goal: "precision name only ≥ 0.90",
      value: pct(f.precisionNameOnly),
      met: f.precisionNameOnly.rate >= 0.9,
    },
    { goal: "DOB swap / ±1 year kept ≥ 95%", value: pct(f.dob.nearKept), met: f.dob.nearKept.rate >= 0.95 },
    {
      goal: "every circa/range DOB kept",
      value: pct(f.dob.approxKept),
      met: f.dob.approxKept.hit === f.dob.approxKept.of,
    },
    { goal: "no alert on a DOB 5+ years away", value: pct(f.dob.farAlerts), met: f.dob.farAlerts.hit === 0 },
    {
      goal: "no person hit on a vessel/aircraft/company",
      value: String(f.personOnNonPerson),
      met: f.personOnNonPerson === 0,
    },
    {
      goal: "alerts ≤ 10 per 1,000 customers at KYC",
      value: p.perThousand.toFixed(1),
      met: p.perThousand <= 10,
    },
    ...ORIGINS.map((o) => {
      const g = p.byOrigin[o];
      return {
        goal: `${o} ≤ 3× the English-language rate`,
        value: `${g.perThousand.toFixed(1)}/1,000 (${g.ratioToEnglish.toFixed(2)}×)`,
        met: g.ratioToEnglish <= 3,
      };
    }),
  ];
  return out;
}

// ——— Baseline: plain whole-name Jaro–Winkler, as OFAC's Sanctions List Search's first technique ————————————
interface BaselineName {
  entNum: number;
  sdnType: string;
  /** The name as listed and, for `SURNAME, Given`, as written `Given Surname`. */
  texts: string[];
  bags: Uint8Array[];
}
const bagOf = (s: string) => {
  const bag = new Uint8Array(37);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    bag[c >= 97 && c <= 122 ? c - 97 : c >= 48 && c <= 57 ? c - 22 : 36]! += 1;
  }
  return bag;
};

/**
 * Whole name against whole name (lowercase, accents stripped, punctuation to spaces), no tokens, no phonetics, no
 * type or DOB. A listed `SURNAME, Given` is also compared as `Given Surname`, the order customers write.
 */
export class WholeNameBaseline {
  private readonly names: BaselineName[] = [];
  /** Whole names as written → the entries listing them: at 1.00 Jaro–Winkler is string equality. */
  private readonly exact = new Map<string, { entNum: number; name: string; sdnType: string }[]>();
  constructor(parsed: ParsedList) {
    const types = new Map(parsed.entries.filter((e) => e.source === "SDN").map((e) => [e.entNum, e.sdnType]));
    for (const n of parsed.names) {
      if (n.source !== "SDN") continue;
      const texts = [plain(n.name)];
      const comma = n.name.indexOf(",");
      if (comma > 0) texts.push(plain(`${n.name.slice(comma + 1)} ${n.name.slice(0, comma)}`));
      const unique = [...new Set(texts)].filter(Boolean);
      const sdnType = types.get(n.entNum) ?? "entity";
      this.names.push({ entNum: n.entNum, sdnType, texts: unique, bags: unique.map(bagOf) });
      for (const text of unique) {
        this.exact.set(text, [...(this.exact.get(text) ?? []), { entNum: n.entNum, name: text, sdnType }]);
      }
    }
  }

  /** Entries scoring at least `threshold`, each at its best name. */
  screen(
    name: string,
    threshold: number,
  ): { entNum: number; name: string; sdnType: string; score: number }[] {
    const q = plain(name);
    if (!q) return [];
    if (threshold >= 1) {
      const found = new Map((this.exact.get(q) ?? []).map((h) => [h.entNum, { ...h, score: 1 }]));
      return [...found.values()];
    }
    const qBag = bagOf(q);
    // Jaro–Winkler ≥ t needs Jaro ≥ (t − 0.4) / 0.6; Jaro ≤ (m/|a| + m/|b| + 1) / 3 with m ≤ the letters shared.
    const minJaro = (threshold - 0.4) / 0.6;
    const best = new Map<number, { entNum: number; name: string; sdnType: string; score: number }>();
    for (const n of this.names) {
      for (let i = 0; i < n.texts.length; i++) {
        const t = n.texts[i]!;
        const bag = n.bags[i]!;
        let shared = 0;
        for (let k = 0; k < 37; k++) shared += Math.min(qBag[k]!, bag[k]!);
        if ((shared / q.length + shared / t.length + 1) / 3 < minJaro) continue;
        const score = jaroWinkler(q, t);
        if (score < threshold) continue;
        const prev = best.get(n.entNum);
        if (!prev || prev.score < score)
          best.set(n.entNum, { entNum: n.entNum, name: t, sdnType: n.sdnType, score });
      }
    }
    return [...best.values()].sort((a, b) => b.score - a.score);
  }
}
