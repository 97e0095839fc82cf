import { describe, expect, it } from "vitest";
import { NAME_MESSAGES, nameCharactersProblem } from "@/contract/person-name";

describe("the name rule every name field shares", () => {
  it("refuses a word mixing alphabets, whichever ones", () => {
    for (const name of [
      "\u039d\u043e\u0435l Heath",
      "H\u0435ath",
      "Ivan П\u0435trov",
      "N\u0585el",
      "Ma\u13a0ia",
    ])
      expect(nameCharactersProblem(name), name).toBe(NAME_MESSAGES.mixedScripts);
  });

  it("refuses invisible and formatting characters, a joiner between Latin letters included", () => {
    for (const name of [
      "No\u200bel",
      "Hea\u00adth",
      "Noel\u2060",
      "\ufeffNoel",
      "Noe\u3164l",
      "Noel \u202eHeath",
      "No\u200del",
      "No\u200cel",
    ])
      expect(nameCharactersProblem(name), JSON.stringify(name)).toBe(NAME_MESSAGES.invisibleCharacters);
  });

  it("takes names in one alphabet per word, and writing systems that mix by design", () => {
    for (const name of [
      "Ada Lovelace",
      "José Luis Moreno-Gutiérrez",
      "Siobhán O’Brien",
      "Владимир Иванов",
      "Ivan Петров",
      "Γιώργος",
      "山田 さくら子",
      "김민준",
      "\u0645\u062d\u0645\u062f\u200c\u0631\u0636\u0627",
      "Hawaiʻi Kealoha",
      "J. R. R. Tolkien",
    ])
      expect(nameCharactersProblem(name), name).toBeNull();
  });
});
