import { entryKey, type SanctionsIndex } from "@/server/features/compliance/list-index";
import { birthDateCompatible } from "@/server/features/compliance/name-match";
import { nameTokenReadings } from "@/server/features/compliance/normalise-name";

/** Who a screened name belongs to: a person (customer, payee by name) or an entity (a company, a payee business). */
export type PartyType = "person" | "entity";

/** One name to screen against the list, with what else is known about its holder. */
export interface NameQuery {
  name: string;
  /** `YYYY-MM-DD` when known. */
  dob?: string | null;
  /** Null or absent: unknown, screened against every listed entry. */
  type?: PartyType | null;
}

/** Why a listed name scored what it did: what a reviewer reads on a hit card. */
export interface ScoreParts {
  /** How alike the names are spelled, 0 to 1. */
  name: number;
  /** How alike they sound (phonetic keys per token), 0 to 1; 0 when not computed. */
  phonetic: number;
  /** What the dates of birth say: equal, near (swap, a year off, within a listed range), far, or unknown. */
  dob: "exact" | "near" | "far" | "unknown";
  /** What the dates of birth added to (or took from) the score. */
  dobAdjustment: number;
  /** The listed entry's type as OFAC writes it: individual, entity, vessel, aircraft. */
  listedType: string;
  /** The listed name is a weak alias (from the SDN remarks), scored lower. */
  weakAlias: boolean;
}

/** A listed entry a query matches, at its best-scoring name. */
export interface ListMatch {
  source: string;
  entNum: number;
  /** The listed name that scored best (primary or alias). */
  listedName: string;
  /** The entry's primary name. */
  primaryName: string;
  sdnType: string;
  programs: string;
  score: number;
  parts: ScoreParts;
}

/**
 * The entries of the list a name matches at or above `threshold`, best first: the one matcher every screening
 * point, the staff list search and the CLI use.
 */
export function searchIndex(index: SanctionsIndex, query: NameQuery, threshold: number): ListMatch[] {
  const best = new Map<string, ListMatch>();
  const matches = nameTokenReadings(query.name).flatMap((tokens) => index.names.matches(tokens, threshold));
  for (const { name: listed, score } of matches) {
    const key = entryKey(listed.source, listed.entNum);
    const entry = index.entries.get(key);
    if (!birthDateCompatible(query.dob, entry?.birthDates ?? [])) continue;
    if ((best.get(key)?.score ?? 0) >= score) continue;
    best.set(key, {
      source: listed.source,
      entNum: listed.entNum,
      listedName: listed.name,
      primaryName: entry?.name ?? listed.name,
      sdnType: entry?.sdnType ?? "entity",
      programs: entry?.programs ?? "",
      score: Math.round(score * 1000) / 1000,
      parts: {
        name: Math.round(score * 1000) / 1000,
        phonetic: 0,
        dob: "unknown",
        dobAdjustment: 0,
        listedType: entry?.sdnType ?? "entity",
        weakAlias: false,
      },
    });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.entNum - b.entNum);
}
