// `npm run cli -- sanctions:search`: names from stdin, one JSON object a line, screened against the active list.
import { createInterface } from "node:readline";
import { listSearchInput, SEARCH_MESSAGES } from "@/contract/compliance";
import type { DbOrTx } from "@/server/db/client";
import { activeSanctionsIndex } from "@/server/features/compliance/sanctions-index";
import { searchListIndex } from "@/server/features/compliance/staff-list-search";

/** What a line may hold: the staff search's body without its lower threshold (the CLI uses the screening one). */
const lineInput = listSearchInput.omit({ minScore: true }).strict();

/**
 * Reads `input` a line at a time and writes one JSON line for each non-blank one: the matches at or above
 * `threshold` (the same matcher and threshold as every screening point), or `{line, error}` for a line that is
 * not a valid query. Answers the exit code: 0, or 1 when any line was bad or no list is loaded.
 */
export async function searchLines(
  db: DbOrTx,
  threshold: number,
  input: NodeJS.ReadableStream,
  write: (line: string) => void,
): Promise<number> {
  const index = await activeSanctionsIndex(db);
  if (!index) {
    write(JSON.stringify({ error: SEARCH_MESSAGES.noList }));
    return 1;
  }
  let bad = 0;
  let n = 0;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    n += 1;
    if (text.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      bad += 1;
      write(JSON.stringify({ line: n, error: "Not JSON: write one object a line" }));
      continue;
    }
    const query = lineInput.safeParse(parsed);
    if (!query.success) {
      bad += 1;
      const issue = query.error.issues[0];
      const field = issue?.path.join(".");
      write(JSON.stringify({ line: n, error: field ? `${field}: ${issue!.message}` : issue?.message }));
      continue;
    }
    const answer = searchListIndex(index, query.data, threshold);
    write(
      JSON.stringify({
        line: n,
        name: query.data.name,
        dob: query.data.dob ?? null,
        type: query.data.type ?? null,
        listVersion: answer.listVersion,
        threshold: answer.threshold,
        matches: answer.matches.map((m) => ({
          entNum: m.entNum,
          source: m.source,
          listedName: m.listedName,
          primaryName: m.primaryName,
          type: m.type,
          score: m.score,
        })),
      }),
    );
  }
  return bad > 0 ? 1 : 0;
}
