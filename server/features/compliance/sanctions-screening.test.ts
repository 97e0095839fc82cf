import { describe, expect, it } from "vitest";
import { DEFAULT_SANCTIONS_NAME_THRESHOLD } from "@/contract/compliance";
import { jaroWinkler } from "@/server/features/compliance/jaro-winkler";
import { birthDateCompatible, nameScore } from "@/server/features/compliance/name-match";
import { nameTokens, surnameTokens } from "@/server/features/compliance/normalise-name";
import {
  currencyAddressesOf,
  decodeListBytes,
  ListFileError,
  parseCsvRecords,
  parseListFiles,
} from "@/server/features/compliance/parse-ofac";
import { measureScreening } from "@/server/features/compliance/screening-labelled-set";
import {
  altRow,
  csv,
  LISTED_ETH,
  LISTED_USDT,
  LISTED_XBT,
  listFiles,
  sdnRow,
} from "@/tests/support/ofac-files";

const parse = (overrides: Partial<Record<string, string>> = {}) =>
  parseListFiles(
    listFiles(overrides).map((f) => ({
      name: f.name as never,
      text: f.text,
      sha256: "x",
      bytes: f.text.length,
    })),
  );
const score = (a: string, b: string) => nameScore(nameTokens(a), nameTokens(b), surnameTokens(b));

describe("Jaro–Winkler", () => {
  it("gives the published reference values", () => {
    expect(jaroWinkler("MARTHA", "MARHTA")).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler("DWAYNE", "DUANE")).toBeCloseTo(0.84, 4);
    expect(jaroWinkler("DIXON", "DICKSONX")).toBeCloseTo(0.8133, 4);
    expect(jaroWinkler("CRATE", "TRACE")).toBeCloseTo(0.7333, 4);
  });

  it("caps the common prefix at 4 characters (0.1 each), as Winkler defines it", () => {
    // Jaro 0.7778 (4 of 6 characters match in order) + 4 × 0.1 × (1 − 0.7778).
    expect(jaroWinkler("ABCDXY", "ABCDZW")).toBeCloseTo(0.8667, 4);
  });

  it("is 1 for equal strings, 0 with nothing in common or an empty side, and symmetric", () => {
    expect(jaroWinkler("petrov", "petrov")).toBe(1);
    expect(jaroWinkler("abc", "xyz")).toBe(0);
    expect(jaroWinkler("", "abc")).toBe(0);
    expect(jaroWinkler("jellyfish", "smellyfish")).toBeCloseTo(jaroWinkler("smellyfish", "jellyfish"), 10);
  });
});

describe("name normalisation", () => {
  it("folds case, accents, punctuation and word order", () => {
    expect(nameTokens("PETROV, Ivan Sergeyevich")).toEqual(nameTokens("ivan sergeyevich petrov"));
    expect(nameTokens("José Luis MORENO-GUTIÉRREZ")).toEqual(nameTokens("moreno gutierrez, jose luis"));
    expect(nameTokens("Łukasz Øster-Straße")).toEqual(["lukasz", "oster", "strasse"]);
  });

  it("joins Arabic and Dutch particles to the next word", () => {
    expect(nameTokens("AL-RASHID TRADING COMPANY")).toEqual(nameTokens("Al Rashid Trading Company"));
    expect(nameTokens("al rashid")).toEqual(["alrashid"]);
  });

  it("keeps names in other scripts as letters instead of dropping them", () => {
    expect(nameTokens("Иван Петров")).toEqual(["иван", "петров"]);
    expect(nameTokens("!!! ---")).toEqual([]);
  });
});

describe("name matching at the default threshold", () => {
  const listed = "PETROV, Ivan Sergeyevich";
  it("matches word order, typos and transliterations", () => {
    expect(score("Ivan Sergeyevich Petrov", listed)).toBe(1);
    expect(score("Ivan Sergeevich Petrov", listed)).toBeGreaterThanOrEqual(DEFAULT_SANCTIONS_NAME_THRESHOLD);
    expect(score("Iwan Petroff", "PETROFF, Iwan")).toBe(1);
    expect(score("Ivan Petrof", "PETROV, Ivan")).toBeGreaterThanOrEqual(DEFAULT_SANCTIONS_NAME_THRESHOLD);
    // A middle name or patronymic left out still matches.
    expect(score("Ivan Petrov", listed)).toBeGreaterThanOrEqual(DEFAULT_SANCTIONS_NAME_THRESHOLD);
  });

  it("does not match a shared first name or a different family", () => {
    expect(score("Ivan Smirnov", "PETROV, Ivan")).toBeLessThan(DEFAULT_SANCTIONS_NAME_THRESHOLD);
    expect(score("Ivan", listed)).toBeLessThan(DEFAULT_SANCTIONS_NAME_THRESHOLD);
    // The listed family name must be there: a shared first and middle name is not enough.
    expect(score("Mohammed Ali", "HASSAN, Mohammed Ali")).toBeLessThan(DEFAULT_SANCTIONS_NAME_THRESHOLD);
    expect(score("Omar Khan", "KHALIL, Omar Farouk")).toBeLessThan(DEFAULT_SANCTIONS_NAME_THRESHOLD);
  });

  it("lets a listed date of birth rule a person out, never a missing one", () => {
    expect(birthDateCompatible("1971-03-14", ["1971-03-14"])).toBe(true);
    expect(birthDateCompatible("1990-01-01", ["1971-03-14"])).toBe(false);
    expect(birthDateCompatible("1965-07-30", ["1965"])).toBe(true);
    expect(birthDateCompatible(null, ["1965"])).toBe(true);
    expect(birthDateCompatible("1990-01-01", [])).toBe(true);
  });
});

describe("OFAC's delimited files", () => {
  it("reads entries, alternate names, dates of birth and digital currency addresses", () => {
    const list = parse();
    expect(list.entries.map((e) => e.entNum)).toEqual([9001, 9002, 9003, 9004, 9501]);
    const petrov = list.entries.find((e) => e.entNum === 9001)!;
    expect(petrov).toMatchObject({
      sdnType: "individual",
      programs: "RUSSIA-EO14024",
      birthDates: ["1971-03-14"],
    });
    expect(list.entries.find((e) => e.entNum === 9003)!.birthDates).toEqual(["1965"]);
    // An entity's type is OFAC's null: it is an entity.
    expect(list.entries.find((e) => e.entNum === 9002)!.sdnType).toBe("entity");
    expect(list.names.filter((n) => n.entNum === 9001).map((n) => n.kind)).toEqual(["primary", "aka"]);
    expect(list.addresses.map((a) => [a.currency, a.address, a.addressKey])).toEqual([
      ["ETH", LISTED_ETH, LISTED_ETH.toLowerCase()],
      ["USDT", LISTED_USDT, LISTED_USDT.toLowerCase()],
      ["XBT", LISTED_XBT, LISTED_XBT.toLowerCase()],
    ]);
    expect(list.files.map((f) => [f.name, f.records])).toEqual([
      ["SDN.CSV", 4],
      ["CONS_PRIM.CSV", 1],
      ["ALT.CSV", 2],
      ["ADD.CSV", 2],
    ]);
  });

  it("keeps commas and doubled quotes inside quoted fields, and reads -0- as null", () => {
    const records = parseCsvRecords("SDN.CSV", '1,"A, ""B""",-0- ,"-0- "\r\n\x1a');
    expect(records).toEqual([{ line: 1, fields: ["1", 'A, "B"', null, null] }]);
  });

  it("names the file and line of a bad record", () => {
    const bad = csv([altRow(9001, 101, "aka", "PETROFF, Iwan"), '9003,102,"aka"']);
    expect(() => parse({ "ALT.CSV": bad })).toThrow(
      new ListFileError("ALT.CSV", 2, "expected 5 columns, found 3"),
    );
    const orphan = csv([altRow(7777, 1, "aka", "NOBODY")]);
    expect(() => parse({ "ALT.CSV": orphan })).toThrow(
      /ALT\.CSV line 1: ent_num 7777 is not in the SDN\.CSV/,
    );
    const notNumber = csv([sdnRow(1, "A", null, "X", null).replace(/^1/, '"x1"')]);
    expect(() => parse({ "SDN.CSV": notNumber })).toThrow(/SDN\.CSV line 1: ent_num "x1" is not a number/);
    expect(() => parse({ "SDN.CSV": '1,"never closed\r\n' })).toThrow(
      /SDN\.CSV line 1: a quoted field is never closed/,
    );
  });

  it("decodes Windows-1252 bytes instead of stopping on them", () => {
    expect(decodeListBytes(Buffer.from([0x4a, 0x6f, 0x73, 0xe9]))).toBe("José");
    expect(decodeListBytes(Buffer.from("José", "utf8"))).toBe("José");
  });

  it("reads an address from the alt. form and drops the closing period", () => {
    expect(currencyAddressesOf("alt. Digital Currency Address - TRX TXinvented123.")).toEqual([
      { currency: "TRX", address: "TXinvented123" },
    ]);
  });
});

describe("accuracy on the labelled set (bench/SCREENING.md)", () => {
  it("keeps precision and recall at or above 0.95 at the default threshold", () => {
    const m = measureScreening(DEFAULT_SANCTIONS_NAME_THRESHOLD);
    expect(m.precision).toBeGreaterThanOrEqual(0.95);
    expect(m.recall).toBeGreaterThanOrEqual(0.95);
  });
});
