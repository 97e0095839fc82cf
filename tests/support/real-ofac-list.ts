import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ListFileInput } from "@/server/features/compliance/load-sanctions-list";
import { decodeListBytes, parseListFiles } from "@/server/features/compliance/parse-ofac";
import { PROJECT_ROOT } from "@/server/lib/project-root";

/**
 * The real OFAC extract of 2024-05-03 (SDN.CSV and its ALT.CSV, public domain): screening is judged on real names,
 * not on invented fixtures (see its README). A copy of the one shared beside the repository, kept in it so a clone
 * anywhere runs the same tests.
 */
export const REAL_OFAC_DIR = resolve(PROJECT_ROOT, "tests/fixtures/ofac-2024-05-03");

/** SDN.CSV and ALT.CSV as a load takes them. */
export function realListFiles(): ListFileInput[] {
  return ["SDN.CSV", "ALT.CSV"].map((name) => ({
    name,
    bytes: new Uint8Array(readFileSync(resolve(REAL_OFAC_DIR, name))),
  }));
}

/** The real extract parsed, as a list load reads it. */
export function parseRealList() {
  return parseListFiles(
    realListFiles().map((file) => ({
      name: file.name as "SDN.CSV" | "ALT.CSV",
      text: decodeListBytes(file.bytes),
      sha256: "x",
      bytes: file.bytes.length,
    })),
  );
}
