import {
  DEFAULT_SANCTIONS_NAME_THRESHOLD,
  type ListSearchInput,
  type ListSearchResponse,
  MAX_SEARCH_MATCHES,
  SEARCH_MESSAGES,
} from "@/contract/compliance";
import type { StaffRole } from "@/contract/staff";
import type { DbOrTx } from "@/server/db/client";
import { entryKey, type SanctionsIndex } from "@/server/features/compliance/list-index";
import { searchIndex } from "@/server/features/compliance/list-search";
import { activeSanctionsIndex } from "@/server/features/compliance/sanctions-index";
import { scorePartsOf } from "@/server/features/compliance/screen";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";

/**
 * One name against a list's index, as every screening point matches it (the same searchIndex and, unless the
 * caller lowers it, the same threshold): what the staff list search and `cli sanctions:search` answer.
 */
export function searchListIndex(
  index: SanctionsIndex,
  input: ListSearchInput,
  threshold: number,
): ListSearchResponse {
  const minScore = input.minScore ?? threshold;
  const found = searchIndex(
    index,
    { name: input.name, dob: input.dob ?? null, type: input.type ?? null },
    minScore,
  );
  return {
    listVersion: index.version,
    threshold: minScore,
    truncated: found.length > MAX_SEARCH_MATCHES,
    matches: found.slice(0, MAX_SEARCH_MATCHES).map((m) => ({
      source: m.source,
      entNum: m.entNum,
      listedName: m.listedName,
      primaryName: m.primaryName,
      type: m.sdnType,
      programs: m.programs,
      birthDates: index.entries.get(entryKey(m.source, m.entNum))?.birthDates ?? [],
      score: m.score,
      parts: scorePartsOf(m),
    })),
  };
}

/**
 * POST /api/admin/compliance/search: the active list searched by a compliance member, audited (who searched
 * which name and date of birth, and which entries it found): a search names a person as a screen does.
 */
export async function searchActiveList(
  db: DbOrTx,
  actor: { id: string; role: StaffRole },
  input: ListSearchInput,
  threshold = DEFAULT_SANCTIONS_NAME_THRESHOLD,
): Promise<ListSearchResponse> {
  const index = await activeSanctionsIndex(db);
  if (!index) throw new AppError("CONFLICT", SEARCH_MESSAGES.noList);
  const answer = searchListIndex(index, input, threshold);
  await writeAudit(db, {
    actorId: actor.id,
    actorRole: actor.role,
    action: "sanctions.search",
    targetType: "sanctions_list",
    targetId: index.listId,
    after: {
      name: input.name,
      dob: input.dob ?? null,
      type: input.type ?? null,
      minScore: answer.threshold,
      matches: answer.matches.map((m) => `${m.source}:${m.entNum}`),
    },
  });
  return answer;
}
