import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { decodeListBytes, parseCsvRecords } from "@/server/features/compliance/parse-ofac";
import { REAL_OFAC_DIR } from "@/tests/support/real-ofac-list";
import { daysInMonth, isoDate } from "./prng";

/**
 * The real extract read for the judge (decision 052): SDN.CSV's remarks read here for the dates of birth as
 * OFAC writes them (circa, ranges, year only) and the weak AKAs (`a.k.a. 'X'`), ALT.CSV for the aliases. Only
 * the CSV reader is shared with the loader; nothing of the matcher.
 */
export type ListedType = "individual" | "entity" | "vessel" | "aircraft";

/** A listed date of birth as the interval it allows, and how OFAC wrote it. */
export interface DobFact {
  kind: "day" | "month" | "year" | "circa" | "range";
  from: string;
  to: string;
  text: string;
}

export interface ListedEntry {
  entNum: number;
  name: string;
  type: ListedType;
  programs: string;
  remarks: string;
  dobs: DobFact[];
  aliases: { kind: string; name: string }[];
  weakAliases: string[];
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const month = (m: string) => MONTHS.indexOf(m.slice(0, 3).toLowerCase()) + 1;

/** One date as written: `01 Jan 1970`, `Jan 1970`, `1970`: its first and last day. */
function dateBounds(text: string): [string, string, DobFact["kind"]] | null {
  let m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4})$/.exec(text);
  if (m && month(m[2]!) > 0) {
    const d = isoDate(Number(m[3]), month(m[2]!), Number(m[1]));
    return [d, d, "day"];
  }
  m = /^([A-Za-z]{3})[a-z]* (\d{4})$/.exec(text);
  if (m && month(m[1]!) > 0) {
    const y = Number(m[2]);
    const mo = month(m[1]!);
    return [isoDate(y, mo, 1), isoDate(y, mo, daysInMonth(y, mo)), "month"];
  }
  m = /^(\d{4})$/.exec(text);
  if (m) return [`${m[1]}-01-01`, `${m[1]}-12-31`, "year"];
  return null;
}

/** `DOB 01 Jan 1970`, `alt. DOB circa 1954`, `DOB 1961 to 1962`, `DOB 01 Jan 1961 to 31 Dec 1962`, `DOB circa 1955-1957`. */
export function dobFacts(remarks: string): DobFact[] {
  const facts: DobFact[] = [];
  for (const raw of remarks.split(";")) {
    const fact = raw
      .trim()
      .replace(/^alt\.\s*/i, "")
      .replace(/\.$/, "");
    const m = /^DOB\s+(.*)$/.exec(fact);
    if (!m) continue;
    let text = m[1]!.trim();
    const circa = /^circa\s+/i.test(text);
    text = text.replace(/^circa\s+/i, "");
    const parts = text.split(/\s+to\s+|-(?=\d{4}$)/);
    if (parts.length === 2) {
      const a = dateBounds(parts[0]!.trim());
      const b = dateBounds(parts[1]!.trim());
      if (a && b) facts.push({ kind: "range", from: a[0], to: b[1], text: m[1]! });
      continue;
    }
    const one = dateBounds(text);
    if (one) facts.push({ kind: circa ? "circa" : one[2], from: one[0], to: one[1], text: m[1]! });
  }
  return facts;
}

/** `a.k.a. 'ABU-'UMAR'`: OFAC's weak AKAs, written only in the remarks. */
export function weakAliasesOf(remarks: string): string[] {
  const found: string[] = [];
  for (const raw of remarks.split(";")) {
    const m = /^\s*a\.k\.a\.\s+'(.*)'\.?\s*$/.exec(raw.trim());
    if (m) found.push(m[1]!);
  }
  return found;
}

function readCsv(file: string) {
  const bytes = new Uint8Array(readFileSync(resolve(REAL_OFAC_DIR, file)));
  return parseCsvRecords(file, decodeListBytes(bytes));
}

export function readListed(): ListedEntry[] {
  const entries = new Map<number, ListedEntry>();
  for (const { fields } of readCsv("SDN.CSV")) {
    const entNum = Number(fields[0]);
    const remarks = fields[11] ?? "";
    entries.set(entNum, {
      entNum,
      name: fields[1]!,
      type: (fields[2] ?? "entity") as ListedType,
      programs: fields[3] ?? "",
      remarks,
      dobs: dobFacts(remarks),
      aliases: [],
      weakAliases: weakAliasesOf(remarks),
    });
  }
  for (const { fields } of readCsv("ALT.CSV")) {
    const entry = entries.get(Number(fields[0]));
    if (entry && fields[3]) entry.aliases.push({ kind: (fields[2] ?? "aka").toLowerCase(), name: fields[3] });
  }
  return [...entries.values()];
}

/** Every name of an entry: primary, ALT.CSV aliases, weak aliases. */
export const allNames = (e: ListedEntry) => [e.name, ...e.aliases.map((a) => a.name), ...e.weakAliases];

/** Years between a date and a listed date's interval (0 inside it). */
export function yearsFrom(dob: string, fact: DobFact): number {
  const t = Date.parse(dob);
  const from = Date.parse(fact.from);
  const to = Date.parse(fact.to);
  const days = t < from ? (from - t) / 864e5 : t > to ? (t - to) / 864e5 : 0;
  return days / 365.25;
}
