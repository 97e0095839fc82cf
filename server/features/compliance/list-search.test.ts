import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SANCTIONS_NAME_THRESHOLD as T } from "@/contract/compliance";
import { compareBirthDates } from "@/server/features/compliance/birth-dates";
import { indexOfParsedList, type SanctionsIndex } from "@/server/features/compliance/list-index";
import { canonicalTokensOf, weighTokens } from "@/server/features/compliance/list-name-index";
import { admission, searchIndex } from "@/server/features/compliance/list-search";
import { canonicalWords } from "@/server/features/compliance/name-canon";
import { nameWords } from "@/server/features/compliance/normalise-name";
import { birthDatesOf, weakAliasesOf } from "@/server/features/compliance/parse-ofac";
import { phoneticKey } from "@/server/features/compliance/phonetic";
import { parseRealList } from "@/tests/support/real-ofac-list";

/** Decision 052's matcher on the real OFAC extract of 2024-05-03: every behaviour it records. */
let index: SanctionsIndex;
let parsed: ReturnType<typeof parseRealList>;
beforeAll(() => {
  parsed = parseRealList();
  index = indexOfParsedList(parsed);
}, 120_000);

const canon = (name: string) =>
  canonicalWords(nameWords(name))
    .map((w) => w.text)
    .join(" ");
const hits = (name: string, type: "person" | "entity" | null = null, dob: string | null = null) =>
  searchIndex(index, { name, dob, type }, T);
const hitNames = (name: string, type: "person" | "entity" | null = null, dob: string | null = null) =>
  hits(name, type, dob).map((m) => m.listedName);

describe("canonical words", () => {
  it("bring romanisations of one name to one spelling", () => {
    for (const n of ["Mohammed", "Muhammad", "Mohamed", "Mohammad"]) expect(canon(n)).toBe("muhammad");
    for (const n of ["Yusuf", "Yousef", "Yousif"]) expect(canon(n)).toBe("yusuf");
    expect(canon("Aleksandr")).toBe(canon("Alexander"));
    expect(canon("Zhang")).toBe(canon("Chang"));
    expect(canon("Hsu")).toBe(canon("Xu"));
    expect(canon("Noor")).toBe(canon("Nur"));
  });

  it("read Cyrillic in Latin letters", () => {
    expect(canon("Сергей Иванов")).toBe(canon("Sergey Ivanov"));
    expect(canon("Александр")).toBe(canon("Aleksandr"));
  });

  it("read particles the same way everywhere", () => {
    expect(canon("Abdul-Latif")).toBe(canon("'Abd-al-Latif"));
    expect(canon("Abdullatif")).toBe(canon("Abd al Latif"));
    expect(canon("Abou Bakr")).toBe(canon("Abu Bakr"));
    expect(canon("Osama bin Laden")).toBe(canon("Osama Laden"));
    expect(canon("Mohamed Ould Abdallah")).toBe(canon("Mohamed Abdallah"));
    expect(canon("al-Rashid")).toBe(canon("Rashid"));
    // A first word "Ben" in a two-word name is a given name, not "son of".
    expect(canon("Ben Smith")).toBe("ben smith");
  });

  it("drop legal forms and mark generic words", () => {
    const a = canonicalWords(nameWords("OOO Romashka"));
    const b = canonicalWords(nameWords("Obshchestvo s Ogranichennoi Otvetstvennostyu Romashka"));
    const c = canonicalWords(nameWords("Romashka LLC"));
    expect(a).toEqual(b);
    expect(a).toEqual(c);
    for (const form of [
      "Ltd",
      "Limited",
      "Inc",
      "Corp",
      "GmbH",
      "ZAO",
      "OAO",
      "PAO",
      "SA",
      "SARL",
      "LLP",
      "PJSC",
      "FZE",
    ])
      expect(canon(`Romashka ${form}`), form).toBe("romashka");
    expect(canonicalWords(nameWords("Bank of Commerce")).every((w) => w.generic)).toBe(true);
  });

  it("give words that sound alike one phonetic key", () => {
    expect(phoneticKey("muhammad")).toBe(phoneticKey("muhamad"));
    expect(phoneticKey("petrov")).toBe(phoneticKey("petrof"));
    expect(phoneticKey("muhammad")).not.toBe(phoneticKey("mahmud"));
  });
});

describe("names on the real list", () => {
  it("finds one surname against two (Edgardo Leyva is LEYVA ESCANDON, Edgardo)", () => {
    expect(hitNames("Edgardo Leyva", "person")).toContain("LEYVA ESCANDON, Edgardo");
  });

  it("does not match a given name with a different surname", () => {
    expect(hitNames("Edgardo Smith", "person")).not.toContain("LEYVA ESCANDON, Edgardo");
    expect(hitNames("Ivan Smithson", "person")).toEqual([]);
  });

  it("finds a name spelled and sounded another way (Muhammad Noor is NUR, Mohammed)", () => {
    expect(hitNames("Muhammad Noor", "person")).toContain("NUR, Mohammed");
    expect(hitNames("Usama bin Ladin", "person")).toContain("BIN LADIN, Usama");
  });

  it("finds a name written in Cyrillic", () => {
    const listed = parsed.names.find((n) => n.name === "SOKOLOV, Aleksandr Valentinovich");
    expect(listed).toBeDefined();
    expect(hitNames("Александр Валентинович Соколов", "person")).toContain(
      "SOKOLOV, Aleksandr Valentinovich",
    );
  });

  it("weighs everyday words less than rare ones", () => {
    const common = weighTokens(canonicalTokensOf(nameWords("Muhammad Ali")), index.weights);
    const rare = weighTokens(canonicalTokensOf(nameWords("Edgardo Leyva")), index.weights);
    expect(Math.max(...common.map((t) => t.weight))).toBeLessThan(Math.min(...rare.map((t) => t.weight)));
    // Two everyday words that the listed name holds beside a third do not make a hit.
    expect(hitNames("Mohammed Ali", "person")).not.toContain("HASSAN, Mohammed Ali");
  });

  it("screens a person against individuals only, an entity against the rest", () => {
    expect(hits("Alexander Sokolov", "person").every((m) => m.sdnType === "individual")).toBe(true);
    expect(hits("Commercial Bank of Syria", "person")).toEqual([]);
    expect(hitNames("Commercial Bank of Syria", "entity")).toContain("COMMERCIAL BANK OF SYRIA");
    expect(hits("Commercial Bank of Syria", "entity").every((m) => m.sdnType !== "individual")).toBe(true);
    expect(admission("person", "vessel")).toBe("no");
    expect(admission("entity", "individual")).toBe("no");
  });

  it("matches a vessel or aircraft for an unknown party only as a whole name", () => {
    expect(parsed.entries.some((e) => e.name === "MARIA E" && e.sdnType === "vessel")).toBe(true);
    expect(hitNames("Maria Elena Torres")).not.toContain("MARIA E");
    expect(hits("Alexander Sokolov").filter((m) => m.sdnType === "vessel")).toEqual([]);
    const vessel = hits("Maria E").find((m) => m.listedName === "MARIA E");
    expect(vessel?.parts.wholeNameOnly).toBe(true);
  });

  it("gives generic words of company names little weight", () => {
    expect(hitNames("Bank of Commerce")).not.toContain("COMMERCIAL BANK OF SYRIA");
    expect(hitNames("Bank of Commerce", "entity")).toEqual([]);
  });

  it("reads legal forms as one (Romashka LLC is OOO ROMASHKA's kind of name)", () => {
    const listed = parsed.entries.find(
      (e) => /LIMITED LIABILITY COMPANY/.test(e.name) && e.sdnType !== "individual",
    );
    expect(listed).toBeDefined();
    const core = listed!.name.replace(/LIMITED LIABILITY COMPANY/, "").trim();
    expect(hitNames(`OOO ${core}`, "entity")).toContain(listed!.name);
  });
});

describe("dates of birth as evidence", () => {
  it("parses circa, ranges, month-years and years from the remarks", () => {
    expect(birthDatesOf("DOB circa 1954.")).toEqual(["~1954"]);
    expect(birthDatesOf("DOB 01 Jan 1961 to 31 Dec 1962; alt. DOB 1965.")).toEqual([
      "1961-01-01..1962-12-31",
      "1965",
    ]);
    expect(birthDatesOf("DOB 1961 to 1962")).toEqual(["1961..1962"]);
    expect(birthDatesOf("DOB Mar 1970; DOB 14 Mar 1971")).toEqual(["1970-03", "1971-03-14"]);
  });

  it("says exact, near, off, far or unknown", () => {
    expect(compareBirthDates("1971-03-14", ["1971-03-14"])).toBe("exact");
    expect(compareBirthDates("1971-04-03", ["1971-03-04"])).toBe("near");
    expect(compareBirthDates("1972-03-14", ["1971-03-14"])).toBe("near");
    expect(compareBirthDates("1956-06-01", ["~1954"])).toBe("near");
    expect(compareBirthDates("1962-06-01", ["1961-01-01..1962-12-31"])).toBe("near");
    expect(compareBirthDates("1974-03-14", ["1971-03-14"])).toBe("off");
    expect(compareBirthDates("1990-03-14", ["1971-03-14", "1972"])).toBe("far");
    expect(compareBirthDates(null, ["1971-03-14"])).toBe("unknown");
    expect(compareBirthDates("1971-03-14", [])).toBe("unknown");
    // Lists loaded before kept years only (a range as its years): they still read.
    expect(compareBirthDates("1965-07-30", ["1965"])).toBe("exact");
  });

  it("raises an exact DOB, keeps a near one, and lowers a far one below the threshold", () => {
    const one = parsed.entries.find(
      (e) =>
        e.sdnType === "individual" &&
        e.birthDates.length === 1 &&
        /^\d{4}-\d{2}-\d{2}$/.test(e.birthDates[0]!),
    )!;
    const listed = one.birthDates[0]!;
    const at = (dob: string | null) => hits(one.name, "person", dob).find((m) => m.entNum === one.entNum);
    expect(at(listed)?.parts).toMatchObject({ dob: "exact", dobAdjustment: 0.05 });
    const year = Number(listed.slice(0, 4));
    expect(at(`${year + 1}${listed.slice(4)}`)?.parts).toMatchObject({ dob: "near", dobAdjustment: 0 });
    expect(at(`${year + 20}${listed.slice(4)}`)).toBeUndefined();
    expect(at(null)?.parts).toMatchObject({ dob: "unknown", dobAdjustment: 0 });
  });

  it("keeps a match inside a listed circa or range", () => {
    const circa = parsed.entries.find(
      (e) => e.sdnType === "individual" && e.birthDates.some((d) => d.startsWith("~")),
    )!;
    const y = Number(circa.birthDates.find((d) => d.startsWith("~"))!.slice(1, 5));
    expect(hits(circa.name, "person", `${y + 2}-06-15`).map((m) => m.entNum)).toContain(circa.entNum);
    const range = parsed.entries.find(
      (e) => e.sdnType === "individual" && e.birthDates.some((d) => d.includes("..")),
    )!;
    const from = Number(range.birthDates.find((d) => d.includes(".."))!.slice(0, 4));
    expect(hits(range.name, "person", `${from}-06-15`).map((m) => m.entNum)).toContain(range.entNum);
  });
});

describe("weak aliases", () => {
  it("are read from the remarks as names of kind weak, scored lower", () => {
    expect(weakAliasesOf("a.k.a. 'ABU MUSAB'; a.k.a. 'IG'.")).toEqual(["ABU MUSAB"]);
    const weak = parsed.names.filter((n) => n.kind === "weak");
    expect(weak.length).toBeGreaterThan(1000);
    const sample = weak.find(
      (n) => n.name.split(" ").length >= 2 && !parsed.names.some((o) => o !== n && o.name === n.name),
    )!;
    const found = hits(sample.name).find((m) => m.listedName === sample.name);
    expect(found?.parts.weakAlias).toBe(true);
    expect(found!.score).toBeLessThan(1);
  });
});

describe("the index", () => {
  it("finds exactly what scoring every listed name finds, for every party type", () => {
    const people = parsed.entries.filter((e) => e.sdnType === "individual");
    const queries = [
      ...people.filter((_, k) => k % 1500 === 0).map((e) => e.name),
      ...people.filter((_, k) => k % 1700 === 0).map((e) => `${e.name.split(",")[0]} Smith`),
      ...parsed.entries.filter((e, k) => e.sdnType !== "individual" && k % 1900 === 0).map((e) => e.name),
      "Muhammad Ali Hassan",
      "J. Smith",
      "Maria E",
    ];
    let found = 0;
    for (const q of queries) {
      const tokens = weighTokens(canonicalTokensOf(nameWords(q)), index.weights);
      for (const type of ["person", "entity", null] as const) {
        const admit = (n: { sdnType: string }) => admission(type, n.sdnType);
        const full = index.names.scan(tokens, 0.8, admit);
        for (const threshold of [0.8, T, 0.95]) {
          const fast = index.names.matches(tokens, threshold, admit).map((m) => m.name);
          const expected = full.filter((m) => m.comparison.score >= threshold).map((m) => m.name);
          expect(fast, `${q} ${type} at ${threshold}`).toEqual(expected);
          found += fast.length;
        }
      }
    }
    expect(found).toBeGreaterThan(20);
  }, 600_000);
});
