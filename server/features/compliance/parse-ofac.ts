import { normaliseName } from "@/server/features/compliance/normalise-name";

/**
 * OFAC's delimited files (data specification of 2023-09-25): no header row, CR/LF records, text fields in
 * double quotes, `-0-` for null. SDN.CSV/CONS_PRIM.CSV hold the entities, ALT.CSV/CONS_ALT.CSV alternate
 * names and ADD.CSV/CONS_ADD.CSV postal addresses; digital currency addresses sit in the entity's remarks.
 */
export const LIST_FILES = {
  "SDN.CSV": { source: "SDN", kind: "primary", columns: 12 },
  "ALT.CSV": { source: "SDN", kind: "alt", columns: 5 },
  "ADD.CSV": { source: "SDN", kind: "add", columns: 6 },
  "CONS_PRIM.CSV": { source: "CONS", kind: "primary", columns: 12 },
  "CONS_ALT.CSV": { source: "CONS", kind: "alt", columns: 5 },
  "CONS_ADD.CSV": { source: "CONS", kind: "add", columns: 6 },
} as const;
export type ListFileName = keyof typeof LIST_FILES;

export function listFileName(name: string): ListFileName | null {
  const upper = name.trim().toUpperCase();
  return upper in LIST_FILES ? (upper as ListFileName) : null;
}

/** A file that cannot be loaded: which file, which line (1-based), and what is wrong there. */
export class ListFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly problem: string,
  ) {
    super(line === null ? `${file}: ${problem}` : `${file} line ${line}: ${problem}`);
  }
}

export interface SanctionsEntry {
  source: "SDN" | "CONS";
  entNum: number;
  name: string;
  sdnType: string;
  programs: string;
  birthDates: string[];
}
export interface SanctionsName {
  source: "SDN" | "CONS";
  entNum: number;
  kind: string;
  name: string;
  normalised: string;
}
export interface SanctionsAddress {
  source: "SDN" | "CONS";
  entNum: number;
  currency: string;
  address: string;
  addressKey: string;
}
export interface ParsedList {
  entries: SanctionsEntry[];
  names: SanctionsName[];
  addresses: SanctionsAddress[];
  files: { name: string; sha256: string; bytes: number; records: number }[];
}

/** UTF-8 when the bytes are; otherwise Windows-1252 (OFAC's older files), so no byte ever stops a load. */
export function decodeListBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** Splits a CSV text into records of fields, with the line each record starts on. Quotes may hold commas and line breaks. */
export function parseCsvRecords(file: string, text: string): { line: number; fields: (string | null)[] }[] {
  const records: { line: number; fields: (string | null)[] }[] = [];
  let fields: (string | null)[] = [];
  let field = "";
  let quoted = false;
  let wasQuoted = false;
  let line = 1;
  let recordLine = 1;
  let started = false;
  const endField = () => {
    const value = field.trim();
    // `-0-` (often written `-0- `) is OFAC's null, quoted or not; an empty unquoted field is null too.
    fields.push(value === "-0-" || (!wasQuoted && value === "") ? null : wasQuoted ? field : value);
    field = "";
    wasQuoted = false;
  };
  const endRecord = () => {
    endField();
    if (fields.length > 1 || fields[0] !== null) records.push({ line: recordLine, fields });
    fields = [];
    started = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!started) {
      recordLine = line;
      started = true;
    }
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field.trim() === "") {
      quoted = true;
      wasQuoted = true;
      field = "";
    } else if (c === ",") endField();
    else if (c === "\r" && text[i + 1] === "\n") {
      // CR/LF ends the record; the LF is consumed next turn.
    } else if (c === "\n") {
      endRecord();
      line++;
    } else if (c === "\x1a") {
      // The end-of-file mark some of OFAC's files carry.
    } else if (wasQuoted) {
      if (c !== " " && c !== "\t") throw new ListFileError(file, line, "text after a closing quote");
    } else field += c;
  }
  if (quoted) throw new ListFileError(file, recordLine, "a quoted field is never closed");
  if (started) endRecord();
  return records;
}

const MONTHS: Record<string, string> = {
  jan: "01",
  feb: "02",
  mar: "03",
  apr: "04",
  may: "05",
  jun: "06",
  jul: "07",
  aug: "08",
  sep: "09",
  oct: "10",
  nov: "11",
  dec: "12",
};

/** Remarks are `;`-separated facts ending with a period: `DOB 01 Jan 1970; alt. DOB 1971; …`. */
function remarkFacts(remarks: string | null): string[] {
  if (!remarks) return [];
  return remarks
    .replace(/\.\s*$/, "")
    .split(";")
    .map((f) => f.trim().replace(/^alt\.\s*/i, ""))
    .filter(Boolean);
}

/** `01 Jan 1970` → 1970-01-01, `Jan 1970` → 1970-01, `1970` → 1970; anything else null. */
function listedDate(text: string): string | null {
  const t = text.trim().replace(/\.$/, "");
  const day = /^(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(t);
  if (day && MONTHS[day[2]!.toLowerCase()])
    return `${day[3]}-${MONTHS[day[2]!.toLowerCase()]}-${day[1]!.padStart(2, "0")}`;
  const month = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(t);
  if (month && MONTHS[month[1]!.toLowerCase()]) return `${month[2]}-${MONTHS[month[1]!.toLowerCase()]}`;
  const year = /^(\d{4})$/.exec(t);
  return year ? year[1]! : null;
}

/**
 * `DOB 01 Jan 1970`, `DOB Jan 1970`, `DOB 1970`, `DOB circa 1970`, `DOB 1968 to 1970`, `DOB 01 Jan 1961 to 31 Dec
 * 1962` (and their `alt. DOB` forms): days, months, years, circa `~YYYY` and ranges `FROM..TO`, as birth-dates.ts
 * reads them. A form not understood keeps its last four-digit year rather than nothing.
 */
export function birthDatesOf(remarks: string | null): string[] {
  const dates = new Set<string>();
  for (const fact of remarkFacts(remarks)) {
    const m = /^DOB\s+(.*)$/i.exec(fact);
    if (!m) continue;
    let text = m[1]!.trim();
    const circa = /^circa\s+/i.test(text);
    text = text.replace(/^circa\s+/i, "");
    const range = /^(.+?)\s+to\s+(.+)$/i.exec(text);
    if (range) {
      const from = listedDate(range[1]!);
      const to = listedDate(range[2]!);
      if (from && to) {
        dates.add(`${from}..${to}`);
        continue;
      }
    }
    const date = listedDate(text);
    if (date) {
      dates.add(circa ? `~${date}` : date);
      continue;
    }
    const year = /(\d{4})\D*$/.exec(text);
    if (year) dates.add(circa ? `~${year[1]}` : year[1]!);
  }
  return [...dates];
}

/**
 * Weak aliases OFAC gives only in an entry's remarks, `a.k.a. 'ABU MUSAB'` (quoted: OFAC's "low-quality
 * a.k.a."), which ALT.CSV does not hold as records. Names of fewer than three letters are left out: they
 * would match any initial.
 */
export function weakAliasesOf(remarks: string | null): string[] {
  if (!remarks) return [];
  const found = new Set<string>();
  for (const m of remarks.matchAll(/a\.k\.a\.\s+'([^']+)'/gi)) {
    const name = m[1]!.trim();
    if (name.replace(/[^\p{L}]/gu, "").length >= 3) found.add(name);
  }
  return [...found];
}

/** `Digital Currency Address - ETH 0x…` (and its `alt.` form): the code names the chain or token. */
export function currencyAddressesOf(remarks: string | null): { currency: string; address: string }[] {
  const found: { currency: string; address: string }[] = [];
  for (const fact of remarkFacts(remarks)) {
    const m = /^Digital Currency Address\s*-\s*([A-Za-z0-9]+)\s+(\S+)/i.exec(fact);
    if (m) found.push({ currency: m[1]!.toUpperCase(), address: m[2]!.replace(/[.,]+$/, "") });
  }
  return found;
}

function parseEntNum(file: string, line: number, value: string | null): number {
  if (!value || !/^\d{1,9}$/.test(value))
    throw new ListFileError(file, line, `ent_num "${value ?? ""}" is not a number`);
  return Number(value);
}

/**
 * Parses the files of one load. Every problem names its file and line; nothing is written before every
 * file has parsed, so a bad file never leaves a half-loaded list.
 */
export function parseListFiles(
  files: { name: ListFileName; text: string; sha256: string; bytes: number }[],
): ParsedList {
  const result: ParsedList = { entries: [], names: [], addresses: [], files: [] };
  const known = { SDN: new Set<number>(), CONS: new Set<number>() };
  const order = (f: { name: ListFileName }) => (LIST_FILES[f.name].kind === "primary" ? 0 : 1);
  if (!files.some((f) => LIST_FILES[f.name].kind === "primary")) {
    throw new ListFileError("(load)", null, "needs SDN.CSV or CONS_PRIM.CSV");
  }
  for (const file of [...files].sort((a, b) => order(a) - order(b))) {
    const spec = LIST_FILES[file.name];
    const records = parseCsvRecords(file.name, file.text);
    for (const { line, fields } of records) {
      if (fields.length !== spec.columns) {
        throw new ListFileError(file.name, line, `expected ${spec.columns} columns, found ${fields.length}`);
      }
      const entNum = parseEntNum(file.name, line, fields[0] ?? null);
      const source = spec.source;
      if (spec.kind === "primary") {
        const name = fields[1];
        if (!name) throw new ListFileError(file.name, line, "the name is empty");
        if (known[source].has(entNum))
          throw new ListFileError(file.name, line, `ent_num ${entNum} appears twice`);
        known[source].add(entNum);
        const remarks = fields[11] ?? null;
        result.entries.push({
          source,
          entNum,
          name,
          sdnType: fields[2] ?? "entity",
          programs: fields[3] ?? "",
          birthDates: birthDatesOf(remarks),
        });
        result.names.push({ source, entNum, kind: "primary", name, normalised: normaliseName(name) });
        for (const weak of weakAliasesOf(remarks)) {
          result.names.push({ source, entNum, kind: "weak", name: weak, normalised: normaliseName(weak) });
        }
        for (const { currency, address } of currencyAddressesOf(remarks)) {
          result.addresses.push({ source, entNum, currency, address, addressKey: address.toLowerCase() });
        }
      } else {
        if (!known[source].has(entNum)) {
          throw new ListFileError(
            file.name,
            line,
            `ent_num ${entNum} is not in the ${source === "SDN" ? "SDN.CSV" : "CONS_PRIM.CSV"} loaded with it`,
          );
        }
        if (spec.kind === "alt") {
          const altName = fields[3];
          if (!altName) throw new ListFileError(file.name, line, "the alternate name is empty");
          const kind = (fields[2] ?? "aka").toLowerCase().replace(/\./g, "");
          result.names.push({ source, entNum, kind, name: altName, normalised: normaliseName(altName) });
        }
        // ADD.CSV rows are postal addresses: checked and counted, not screened (customers' postal addresses are not yet).
        // ALT.CSV holds the strong aliases only: the weak ones (`a.k.a. '…'` in SDN.CSV's remarks) are read
        // with the entry above, as names of kind "weak".
      }
    }
    result.files.push({ name: file.name, sha256: file.sha256, bytes: file.bytes, records: records.length });
  }
  return result;
}
