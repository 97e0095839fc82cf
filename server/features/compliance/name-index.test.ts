import { describe, expect, it } from "vitest";
import { NameIndex } from "@/server/features/compliance/name-index";
import { nameScore } from "@/server/features/compliance/name-match";
import { nameTokens, surnameTokens } from "@/server/features/compliance/normalise-name";
import {
  LISTED_NAMES,
  TRUE_MATCHES,
  TRUE_NON_MATCHES,
} from "@/server/features/compliance/screening-labelled-set";

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const prepare = (name: string) => ({ name, tokens: nameTokens(name), surname: surnameTokens(name) });

/** Decision 025's screen: every listed name sharing a token's first letter, scored by nameScore. */
function reference(listed: ReturnType<typeof prepare>[], query: string, threshold: number): string[] {
  const tokens = nameTokens(query);
  const initials = new Set(tokens.map((t) => t[0]!));
  return listed
    .filter((l) => l.tokens.some((t) => initials.has(t[0]!)))
    .filter((l) => nameScore(tokens, l.tokens, l.surname) >= threshold)
    .map((l) => l.name);
}

/** A name with one typo: a letter dropped, doubled, swapped with the next or replaced, first letters too. */
function typo(name: string, next: () => number): string {
  const at = Math.floor(next() * name.length);
  const kind = Math.floor(next() * 4);
  if (kind === 0) return name.slice(0, at) + name.slice(at + 1);
  if (kind === 1) return name.slice(0, at) + name[at] + name.slice(at);
  if (kind === 2 && at + 1 < name.length)
    return name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
  return `${name.slice(0, at)}${"aeiouxyk"[Math.floor(next() * 8)]}${name.slice(at + 1)}`;
}

describe("the name index", () => {
  it("finds exactly what scoring every listed name sharing a first letter finds, at every threshold", () => {
    const next = rng(20261127);
    const syllables = ["ka", "ri", "mo", "sa", "le", "na", "va", "do", "ev", "ан", "ов", "ми", "يد", "سع"];
    const word = () =>
      Array.from(
        { length: 2 + Math.floor(next() * 3) },
        () => syllables[Math.floor(next() * syllables.length)],
      )
        .join("")
        .concat("abcdefghijklmnopqrstuvwxyz"[Math.floor(next() * 26)]!);
    const listedNames = [...LISTED_NAMES];
    while (listedNames.length < 600) listedNames.push(`${word().toUpperCase()}, ${word()} ${word()}`);
    const listed = listedNames.map(prepare);
    const index = new NameIndex(listed);
    const queries = [
      ...TRUE_MATCHES.map(([q]) => q),
      ...TRUE_NON_MATCHES,
      ...Array.from({ length: 150 }, () => typo(listedNames[Math.floor(next() * listedNames.length)]!, next)),
      ...Array.from({ length: 50 }, () => `${word()} ${word()}`),
      "",
      "!!!",
      "x".repeat(300),
    ];
    let hits = 0;
    for (const threshold of [0, 0.8, 0.9, 0.95, 1]) {
      for (const query of queries) {
        const found = index
          .matches(nameTokens(query), threshold)
          .map((m) => m.name.name)
          .sort();
        expect(found, `${query} at ${threshold}`).toEqual(reference(listed, query, threshold).sort());
        hits += found.length;
      }
    }
    // The comparison means something: many queries hit at the usual thresholds.
    expect(hits).toBeGreaterThan(500);
  }, 60_000);

  it("answers each listed name once with its score, in list order", () => {
    const listed = ["PETROV, Ivan Sergeyevich", "PETROV, Ivan", "SMIRNOV, Oleg"].map(prepare);
    const found = new NameIndex(listed).matches(nameTokens("Ivan Petrov"), 0.9);
    expect(found.map((m) => m.name.name)).toEqual(["PETROV, Ivan Sergeyevich", "PETROV, Ivan"]);
    expect(found[1]!.score).toBe(1);
  });
});
