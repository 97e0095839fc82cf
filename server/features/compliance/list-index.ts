import {
  canonicalTokensOf,
  ListNameIndex,
  TokenWeights,
  type WeighedName,
  weighTokens,
} from "@/server/features/compliance/list-name-index";
import type { WeighedToken } from "@/server/features/compliance/name-match";
import { nameWords } from "@/server/features/compliance/normalise-name";
import type { ParsedList } from "@/server/features/compliance/parse-ofac";

export interface IndexedName extends WeighedName {
  source: string;
  entNum: number;
  name: string;
  /** primary, aka, fka, nka, or weak (a low-quality a.k.a. from the remarks). */
  kind: string;
  /** The entry's type as OFAC writes it: individual, entity, vessel, aircraft. */
  sdnType: string;
  tokens: readonly WeighedToken[];
  /** A vessel's or aircraft's name as its letters in written order (whole-name matching); empty otherwise. */
  letters: string;
}
export interface SanctionsIndex {
  listId: string;
  version: number;
  /** The names, prepared at load so that a screen scores only those that can match (decisions 043, 052). */
  names: ListNameIndex<IndexedName>;
  /** How much each canonical word weighs on this list (decision 052): screened names are weighed with it. */
  weights: TokenWeights;
  entries: Map<string, { programs: string; birthDates: string[]; name: string; sdnType: string }>;
}

export const entryKey = (source: string, entNum: number) => `${source}:${entNum}`;

/** Rows as the database holds a list (sanctions_names, sanctions_entries). */
export interface ListRows {
  names: readonly { source: string; entNum: number; kind: string; name: string }[];
  entries: readonly {
    source: string;
    entNum: number;
    name: string;
    sdnType: string;
    programs: string;
    birthDates: string[];
  }[];
}

/** The in-memory index of a list's rows: what a screen compares against (decisions 043, 052). */
export function indexOfRows(rows: ListRows, listId: string, version: number): SanctionsIndex {
  const entries = new Map<
    string,
    { programs: string; birthDates: string[]; name: string; sdnType: string }
  >();
  for (const row of rows.entries) {
    entries.set(entryKey(row.source, row.entNum), {
      programs: row.programs,
      birthDates: row.birthDates,
      name: row.name,
      sdnType: row.sdnType,
    });
  }
  // Normalised again rather than read from a stored column: a list loaded before the normaliser last changed
  // must read its names as screened names are read now.
  const canonical = rows.names.map((row) => canonicalTokensOf(nameWords(row.name)));
  const wordsOfEntry = new Map<string, string[]>();
  rows.names.forEach((row, k) => {
    const key = entryKey(row.source, row.entNum);
    const words = wordsOfEntry.get(key) ?? [];
    for (const t of canonical[k]!) words.push(t.text);
    wordsOfEntry.set(key, words);
  });
  const weights = new TokenWeights(wordsOfEntry.values());
  const indexed: IndexedName[] = [];
  rows.names.forEach((row, k) => {
    const tokens = canonical[k]!;
    if (tokens.length === 0) return;
    const sdnType = entries.get(entryKey(row.source, row.entNum))?.sdnType ?? "entity";
    indexed.push({
      source: row.source,
      entNum: row.entNum,
      name: row.name,
      kind: row.kind,
      sdnType,
      tokens: weighTokens(tokens, weights),
      letters: sdnType === "vessel" || sdnType === "aircraft" ? nameWords(row.name).join("") : "",
    });
  });
  return { listId, version, names: new ListNameIndex(indexed, weights.evidenceFull), weights, entries };
}

/** A parsed list's index without a database: the benches and the tests screen the real extract this way. */
export function indexOfParsedList(parsed: ParsedList, listId = "in-memory", version = 0): SanctionsIndex {
  return indexOfRows(parsed, listId, version);
}
