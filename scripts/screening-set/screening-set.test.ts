import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { ParsedList } from "@/server/features/compliance/parse-ofac";
import { REAL_OFAC_DIR } from "@/tests/support/real-ofac-list";
import { dobFacts, weakAliasesOf, yearsFrom } from "./listed";
import { caseFigures, judge, loadCaseFile, populationFigures, WholeNameBaseline } from "./measure";
import { ORIGINS } from "./names";
import { generatePopulation, PER_ORIGIN, populationDigest } from "./population";
import { Prng } from "./prng";
import { jaroWinkler, plain, titleCase } from "./text";
import { chineseRewrite, companyRewrite, toCyrillic, typo } from "./transforms";
import type { ScreeningCase } from "./types";

/** The judge's own parts (decision 052): what the frozen set and its figures rest on. */

describe("the judge's text helpers", () => {
  it("computes Jaro–Winkler's published reference values", () => {
    expect(jaroWinkler("martha", "marhta")).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler("dwayne", "duane")).toBeCloseTo(0.84, 4);
    expect(jaroWinkler("dixon", "dicksonx")).toBeCloseTo(0.8133, 4);
    expect(jaroWinkler("abc", "xyz")).toBe(0);
    expect(jaroWinkler("petrov", "petrov")).toBe(1);
  });

  it("folds accents and punctuation, and writes names as customers do", () => {
    expect(plain("José MARÍA Núñez-Ibáñez")).toBe("jose maria nunez ibanez");
    expect(plain("AL-SA'IDI")).toBe("al saidi");
    expect(titleCase("AL-TIKRITI, Abid")).toBe("Al-Tikriti, Abid");
    expect(titleCase("VOLGA GROUP LLC")).toBe("Volga Group LLC");
  });
});

describe("reading the list's remarks", () => {
  it("reads exact, month, year, circa and range dates of birth as intervals", () => {
    const facts = dobFacts(
      "DOB 01 Jan 1970; alt. DOB circa 1954; DOB 1961 to 1962; DOB 01 Jan 1961 to 31 Dec 1963; DOB Mar 1965 to Mar 1966; DOB circa 1955-1957; DOB Nov 1951; POB Tikrit, Iraq.",
    );
    expect(facts.map((f) => [f.kind, f.from, f.to])).toEqual([
      ["day", "1970-01-01", "1970-01-01"],
      ["circa", "1954-01-01", "1954-12-31"],
      ["range", "1961-01-01", "1962-12-31"],
      ["range", "1961-01-01", "1963-12-31"],
      ["range", "1965-03-01", "1966-03-31"],
      ["range", "1955-01-01", "1957-12-31"],
      ["month", "1951-11-01", "1951-11-30"],
    ]);
    expect(yearsFrom("1962-06-01", facts[2]!)).toBe(0);
    expect(yearsFrom("1968-01-01", facts[2]!)).toBeGreaterThan(5);
  });

  it("reads weak AKAs from the remarks", () => {
    expect(weakAliasesOf("DOB 09 Feb 1951; a.k.a. 'ABU-'UMAR'; a.k.a. 'EL SENOR'.")).toEqual([
      "ABU-'UMAR",
      "EL SENOR",
    ]);
  });
});

describe("the rewrites", () => {
  it("writes pinyin in Wade–Giles, in Cyrillic, with another legal form, with one typo", () => {
    const rng = new Prng(1);
    const chinese = chineseRewrite("Zhang", ["Xiaoming"], rng);
    expect(chinese?.name.toLowerCase()).toMatch(/chang/);
    expect(chinese?.name.toLowerCase()).toMatch(/hsiao/);
    expect(toCyrillic("Aleksandr Sokolov")?.name).toBe("Александр Соколов");
    expect(toCyrillic("Dmitriy Yuryevich Khokhlov")?.name).toBe("Дмитрий Юрьевич Хохлов");
    const company = companyRewrite("OOO VOLGA GROUP", new Prng(3));
    expect(company?.name).toMatch(/Volga Group/);
    expect(company?.name).not.toMatch(/^OOO Volga Group$/);
    const changed = typo("Aleksandr Sokolov", new Prng(5))!;
    expect(changed.name).not.toBe("Aleksandr Sokolov");
    expect(Math.abs(changed.name.length - "Aleksandr Sokolov".length)).toBeLessThanOrEqual(1);
  });
});

const aCase = (over: Partial<ScreeningCase>): ScreeningCase => ({
  id: "x",
  variant: "exact",
  hasDob: false,
  query: { name: "x", dob: null, type: "person" },
  expected: { entNum: 1 },
  origin: { op: "test" },
  ...over,
});
const hit = (entNum: number, sdnType = "individual") => ({
  entNum,
  name: String(entNum),
  sdnType,
  score: 0.95,
});

describe("the figures", () => {
  it("counts the expected entry as found, a same-name entry apart, and every other hit as a false positive", () => {
    const positive = judge(aCase({ expected: { entNum: 1, sameNameEntNums: [2] } }), [
      hit(1),
      hit(2),
      hit(3),
    ]);
    expect(positive).toMatchObject({ found: true, sameNameHits: 1 });
    expect(positive.wrongHits.map((h) => h.entNum)).toEqual([3]);
    const negative = judge(aCase({ variant: "neg-common", expected: null, hasDob: true }), [
      hit(4, "vessel"),
    ]);
    const missed = judge(aCase({ variant: "typo" }), []);
    const f = caseFigures([positive, negative, missed]);
    expect(f.recall).toEqual({ hit: 1, of: 2, rate: 0.5 });
    expect(f.recallByVariant.typo?.rate).toBe(0);
    expect(f.precisionNameOnly).toEqual({ hit: 1, of: 2, rate: 0.5 });
    expect(f.precisionWithDob).toEqual({ hit: 0, of: 1, rate: 0 });
    expect(f.sameNameHits).toBe(1);
    expect(f.personOnNonPerson).toBe(1);
    expect(f.alertedByNegativeVariant["neg-common"]).toEqual({ hit: 1, of: 1, rate: 1 });
  });

  it("rates alerts per 1,000 by origin against the English-language rate, with at least one English alert", () => {
    const customers = generatePopulation(7, 100);
    const p = populationFigures(customers, (c) => (c.origin === "arabic" && c.id % 2 === 0 ? [hit(1)] : []));
    expect(p.customers).toBe(900);
    expect(p.byOrigin.english.perThousand).toBe(0);
    expect(p.byOrigin.arabic.perThousand).toBeGreaterThan(300);
    // No English alert: the ratio is taken over one alert in the English group (10 per 1,000 here).
    expect(p.byOrigin.arabic.ratioToEnglish).toBeCloseTo(p.byOrigin.arabic.perThousand / 10, 6);
  });

  it("has a baseline that at 1.00 is an exact whole-name match and below it scores whole names", () => {
    const parsed = {
      entries: [
        {
          source: "SDN",
          entNum: 1,
          name: "PETROV, Ivan",
          sdnType: "individual",
          programs: "",
          birthDates: [],
        },
      ],
      names: [{ source: "SDN", entNum: 1, kind: "primary", name: "PETROV, Ivan", normalised: "" }],
      addresses: [],
      files: [],
    } satisfies ParsedList;
    const baseline = new WholeNameBaseline(parsed);
    expect(baseline.screen("Ivan Petrov", 1).map((h) => h.entNum)).toEqual([1]);
    expect(baseline.screen("Iwan Petrov", 1)).toEqual([]);
    expect(baseline.screen("Iwan Petrov", 0.9).map((h) => h.entNum)).toEqual([1]);
    expect(baseline.screen("Maria Lopez", 0.9)).toEqual([]);
  });
});

describe("the frozen set and population", () => {
  const file = loadCaseFile();
  it("was made from the extract in the repository", () => {
    const sha = (f: string) =>
      createHash("sha256")
        .update(readFileSync(resolve(REAL_OFAC_DIR, f)))
        .digest("hex");
    expect(file.list.sdnSha256).toBe(sha("SDN.CSV"));
    expect(file.list.altSha256).toBe(sha("ALT.CSV"));
  });

  it("regenerates the frozen population: the same customers, evenly over nine origins", () => {
    const customers = generatePopulation(file.population.seed);
    expect(customers.length).toBe(file.population.size);
    expect(populationDigest(customers)).toBe(file.population.sha256);
    for (const o of ORIGINS) expect(customers.filter((c) => c.origin === o).length).toBe(PER_ORIGIN);
    expect(
      customers.every((c) => c.dob >= "1940-01-01" && c.dob <= "2005-12-31" && c.type === "person"),
    ).toBe(true);
  });
});
