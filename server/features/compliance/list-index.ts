import { NameIndex } from "@/server/features/compliance/name-index";
import { nameTokens, surnameTokens } from "@/server/features/compliance/normalise-name";
import type { ParsedList } from "@/server/features/compliance/parse-ofac";

export interface IndexedName {
  source: string;
  entNum: number;
  name: string;
  tokens: string[];
  surname: string[];
}
export interface SanctionsIndex {
  listId: string;
  version: number;
  /** The names, prepared at load so that a screen scores only those that can match (decision 043). */
  names: NameIndex<IndexedName>;
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

/** The in-memory index of a list's rows: what a screen compares against (decision 043). */
export function indexOfRows(rows: ListRows, listId: string, version: number): SanctionsIndex {
  const indexed: IndexedName[] = [];
  for (const row of rows.names) {
    // Normalised again rather than read from a stored column: a list loaded before the normaliser last
    // changed must read its names as screened names are read now.
    const tokens = nameTokens(row.name);
    if (tokens.length === 0) continue;
    indexed.push({
      source: row.source,
      entNum: row.entNum,
      name: row.name,
      tokens,
      surname: surnameTokens(row.name),
    });
  }
  const index: SanctionsIndex = { listId, version, names: new NameIndex(indexed), entries: new Map() };
  for (const row of rows.entries) {
    index.entries.set(entryKey(row.source, row.entNum), {
      programs: row.programs,
      birthDates: row.birthDates,
      name: row.name,
      sdnType: row.sdnType,
    });
  }
  return index;
}

/** A parsed list's index without a database: the benches and the tests screen the real extract this way. */
export function indexOfParsedList(parsed: ParsedList, listId = "in-memory", version = 0): SanctionsIndex {
  return indexOfRows(parsed, listId, version);
}
