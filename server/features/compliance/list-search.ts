import { compareBirthDates, DOB_ADJUSTMENT, type DobVerdict } from "@/server/features/compliance/birth-dates";
import { jaroWinkler } from "@/server/features/compliance/jaro-winkler";
import { entryKey, type IndexedName, type SanctionsIndex } from "@/server/features/compliance/list-index";
import { type Admission, canonicalTokensOf, weighTokens } from "@/server/features/compliance/list-name-index";
import { rarityFactor } from "@/server/features/compliance/name-match";
import { nameWordReadings } from "@/server/features/compliance/normalise-name";

/** Who a screened name belongs to: a person (customer, payee by name) or an entity (a company, a payee business). */
export type PartyType = "person" | "entity";

/** One name to screen against the list, with what else is known about its holder. */
export interface NameQuery {
  name: string;
  /** `YYYY-MM-DD` when known. */
  dob?: string | null;
  /** Null or absent: unknown, screened against every listed entry (a vessel or aircraft only as a whole name). */
  type?: PartyType | null;
}

/** Why a listed name scored what it did: what a reviewer reads on a hit card. */
export interface ScoreParts {
  /** How alike the names are, 0 to 1: paired words weighted by rarity (decision 052), before the DOB. */
  name: number;
  /** The share of the name score that phonetic keys agree on (words that sound the same), 0 to 1. */
  phonetic: number;
  /** What the dates of birth say: equal, near (swap, a year off, within a listed range), far, or unknown. */
  dob: "exact" | "near" | "far" | "unknown";
  /** What the dates of birth added to (or took from) the score. */
  dobAdjustment: number;
  /** The listed entry's type as OFAC writes it: individual, entity, vessel, aircraft. */
  listedType: string;
  /** The listed name is a weak alias (from the SDN remarks), scored lower. */
  weakAlias: boolean;
  /** The dates of birth 2 to 4 years apart ("far" is 5 or more): lowered, less than far. */
  dobOff?: boolean;
  /** A vessel or aircraft screened for a party of unknown type: matched only as a whole name. */
  wholeNameOnly?: boolean;
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
 * A vessel or aircraft screened for a party of unknown type matches only when the names are written alike as
 * wholes: their letters in written order at least this alike (Jaro–Winkler). "Alexander Sokolov" (0.91) is not the
 * vessel ALEKSANDR SOKOLOV; a payee "Aleksandr Sokolov" is.
 */
export const WHOLE_NAME_SPELLING = 0.95;

/** A weak alias (OFAC's low-quality a.k.a.) keeps this share of its name score. */
export const WEAK_ALIAS_FACTOR = 0.9;

/** Which listed names a party of `type` may match: people individuals, entities the rest, unknown all. */
export function admission(type: PartyType | null | undefined, listedType: string): Admission {
  const individual = listedType === "individual";
  if (type === "person") return individual ? "yes" : "no";
  if (type === "entity") return individual ? "no" : "yes";
  return listedType === "vessel" || listedType === "aircraft" ? "whole" : "yes";
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The entries of the list a name matches at or above `threshold`, best first: the one matcher every screening
 * point, the staff list search and the CLI use (decision 052).
 */
export function searchIndex(index: SanctionsIndex, query: NameQuery, threshold: number): ListMatch[] {
  return scoreCandidates(index, nameCandidates(index, query, threshold), query.dob ?? null, threshold);
}

/**
 * A listed name a query's name reaches before its date of birth is weighed: the costly part of a search, which
 * depends only on the name, the party's type and whether a date of birth is known, so a batch of customers
 * sharing a full name (the re-screen, decision 062) finds them once and scores each customer's date on them.
 */
export interface NameCandidate {
  listed: IndexedName;
  nameScore: number;
  phonetic: number;
  weak: boolean;
  individual: boolean;
  whole: boolean;
}

/** The first half of searchIndex: the listed names `query.name` reaches, in the order searchIndex weighs them. */
export function nameCandidates(
  index: SanctionsIndex,
  query: Pick<NameQuery, "name" | "type"> & { dob?: unknown },
  threshold: number,
): NameCandidate[] {
  const candidates: NameCandidate[] = [];
  // A date of birth can raise a name below the threshold to it.
  const nameThreshold = query.dob ? threshold - DOB_ADJUSTMENT.exact : threshold;
  const admit = (name: IndexedName) => admission(query.type, name.sdnType);
  for (const words of nameWordReadings(query.name)) {
    const tokens = weighTokens(canonicalTokensOf(words), index.weights);
    const letters = words.join("");
    for (const { name: listed, comparison } of index.names.matches(tokens, nameThreshold, admit)) {
      const whole = admission(query.type, listed.sdnType) === "whole";
      if (whole && jaroWinkler(letters, listed.letters) < WHOLE_NAME_SPELLING) continue;
      const weak = listed.kind === "weak";
      // A person matched through everyday words weighs less (rarityFactor); a weak alias is lowered instead.
      const individual = listed.sdnType === "individual";
      const factor = weak
        ? WEAK_ALIAS_FACTOR
        : individual
          ? rarityFactor(comparison.evidence, index.names.evidenceFull)
          : 1;
      candidates.push({
        listed,
        nameScore: comparison.score * factor,
        phonetic: comparison.phonetic * factor,
        weak,
        individual,
        whole,
      });
    }
  }
  return candidates;
}

/** The second half of searchIndex: each candidate's date of birth weighed, the best name per entry kept. */
export function scoreCandidates(
  index: SanctionsIndex,
  candidates: NameCandidate[],
  dob: string | null,
  threshold: number,
): ListMatch[] {
  const best = new Map<string, ListMatch>();
  for (const { listed, nameScore, phonetic, weak, individual, whole } of candidates) {
    const key = entryKey(listed.source, listed.entNum);
    const entry = index.entries.get(key);
    const verdict: DobVerdict = individual ? compareBirthDates(dob, entry?.birthDates ?? []) : "unknown";
    const adjustment = DOB_ADJUSTMENT[verdict];
    const score = Math.max(0, Math.min(1, nameScore + adjustment));
    if (score < threshold) continue;
    if ((best.get(key)?.score ?? 0) >= round(score)) continue;
    best.set(key, {
      source: listed.source,
      entNum: listed.entNum,
      listedName: listed.name,
      primaryName: entry?.name ?? listed.name,
      sdnType: entry?.sdnType ?? "entity",
      programs: entry?.programs ?? "",
      score: round(score),
      parts: {
        name: round(nameScore),
        phonetic: round(phonetic),
        dob: verdict === "off" ? "far" : verdict,
        dobAdjustment: adjustment,
        listedType: entry?.sdnType ?? "entity",
        weakAlias: weak,
        ...(verdict === "off" ? { dobOff: true } : {}),
        ...(whole ? { wholeNameOnly: true } : {}),
      },
    });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.entNum - b.entNum);
}
