import { createHash } from "node:crypto";

/**
 * Small OFAC files in the published delimited layout (no header, CR/LF, quoted text, `-0- ` nulls), with
 * invented people, companies and addresses: nothing here is on any real list.
 */
const NULL = "-0- ";
const q = (v: string) => `"${v.replace(/"/g, '""')}"`;
const row = (fields: (string | number | null)[]) =>
  fields.map((f) => (f === null ? NULL : typeof f === "number" ? String(f) : q(f))).join(",");

/** An SDN.CSV record: ent_num, name, type, program, title, call sign, vessel fields (5), remarks. */
export const sdnRow = (
  entNum: number,
  name: string,
  type: string | null,
  program: string,
  remarks: string | null,
) => row([entNum, name, type, program, null, null, null, null, null, null, null, remarks]);
export const altRow = (entNum: number, altNum: number, kind: string, name: string) =>
  row([entNum, altNum, kind, name, null]);
export const addRow = (
  entNum: number,
  addNum: number,
  address: string | null,
  city: string,
  country: string,
) => row([entNum, addNum, address, city, country, null]);

export const LISTED_ETH = "0xAbC0000000000000000000000000000000000A11";
export const LISTED_USDT = "0x00000000000000000000000000000000DeaDBeef";
export const LISTED_XBT = "bc1qinventedexampleaddress0000000000000000";

export const SDN_ROWS = [
  sdnRow(
    9001,
    "PETROV, Ivan Sergeyevich",
    "individual",
    "RUSSIA-EO14024",
    `DOB 14 Mar 1971; POB Novgorod, Russia; nationality Russia; Gender Male; Digital Currency Address - ETH ${LISTED_ETH}; alt. Digital Currency Address - USDT ${LISTED_USDT}; Secondary sanctions risk: see Section 11 of Executive Order 14024.`,
  ),
  sdnRow(
    9002,
    "AL-RASHID TRADING COMPANY",
    null,
    "SDGT] [IRAN",
    `Harbour Road, Dubai, United Arab Emirates; Digital Currency Address - XBT ${LISTED_XBT}; Website www.example.invalid.`,
  ),
  sdnRow(9003, "MORENO GUTIERREZ, Jose Luis", "individual", "SDNTK", "DOB 1965; nationality Mexico."),
  sdnRow(9004, "OCEAN STAR", "vessel", "IRAN", "Vessel Registration Identification IMO 0000001."),
];
export const ALT_ROWS = [altRow(9001, 101, "aka", "PETROFF, Iwan"), altRow(9003, 102, "aka", "MORENO, Pepe")];
export const ADD_ROWS = [
  addRow(9002, 201, "PO Box 1234", "Dubai", "United Arab Emirates"),
  addRow(9001, 202, null, "Novgorod", "Russia"),
];
export const CONS_PRIM_ROWS = [
  sdnRow(9501, "KHALIL, Omar Farouk", "individual", "NS-ISA", "DOB 02 Feb 1980."),
];

/** Records joined with CR/LF, as OFAC publishes them (with the trailing CR/LF). */
export const csv = (rows: string[]) => `${rows.join("\r\n")}\r\n`;

export function listFiles(overrides: Partial<Record<string, string>> = {}): { name: string; text: string }[] {
  const files: Record<string, string> = {
    "SDN.CSV": csv(SDN_ROWS),
    "ALT.CSV": csv(ALT_ROWS),
    "ADD.CSV": csv(ADD_ROWS),
    "CONS_PRIM.CSV": csv(CONS_PRIM_ROWS),
    ...overrides,
  };
  return Object.entries(files)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, text]) => ({ name, text }));
}

/** The upload route's body for these files. */
export const uploadBody = (files: { name: string; text: string | Buffer }[]) => ({
  files: files.map((f) => ({ name: f.name, contentBase64: Buffer.from(f.text).toString("base64") })),
});

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
