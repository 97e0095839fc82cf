import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/server/db/client";
import { sanctionsEntries, sanctionsLists, sanctionsNames } from "@/server/db/schema";
import { indexOfRows, type SanctionsIndex } from "@/server/features/compliance/list-index";

// The active list's names in memory, per process: screening compares against every name, and reading them
// per screen would cost more than the comparisons. A new active version is noticed at the next screen.
let cached: SanctionsIndex | null = null;
let loading: Promise<SanctionsIndex> | null = null;

export interface ListVersion {
  id: string;
  version: number;
}

/**
 * The active list as each database last told this process (null: none was active). A transfer screens its payee
 * against it without asking: create_transfer_request compares it with the active one under its call and sends
 * the request back to screen again when a newer list was loaded (learnActiveSanctionsList), so a new list costs
 * each instance one more round trip, once.
 */
const knownActive = new WeakMap<object, ListVersion | null>();

/** Records the active list `db` answered (the app's database; a transaction's answer goes with it). */
export function learnActiveSanctionsList(db: DbOrTx, active: ListVersion | null): void {
  knownActive.set(db, active);
}

/** The index of the list `db` was last known to have active, asked only the first time. */
export async function knownActiveSanctionsIndex(
  db: Db,
): Promise<{ list: ListVersion | null; index: SanctionsIndex | null }> {
  if (!knownActive.has(db)) {
    const index = await activeSanctionsIndex(db);
    return { list: knownActive.get(db) ?? null, index };
  }
  const list = knownActive.get(db) ?? null;
  return { list, index: list ? await sanctionsIndexOf(db, list) : null };
}

/** The active list (null when none was ever loaded). One small query per screen to see whether it changed. */
export async function activeSanctionsIndex(db: DbOrTx): Promise<SanctionsIndex | null> {
  const [active] = await db
    .select({ id: sanctionsLists.id, version: sanctionsLists.version })
    .from(sanctionsLists)
    .where(eq(sanctionsLists.isActive, true));
  learnActiveSanctionsList(db, active ?? null);
  return active ? sanctionsIndexOf(db, active) : null;
}

/**
 * The index of the list a caller just read as the active one (its own query, e.g. a transfer's one pre-read):
 * the one in memory when it is that list, built otherwise.
 */
export async function sanctionsIndexOf(db: DbOrTx, active: ListVersion): Promise<SanctionsIndex> {
  if (cached?.listId === active.id) return cached;
  if (!loading) {
    loading = buildIndex(db, active.id, active.version).finally(() => {
      loading = null;
    });
  }
  const built = await loading;
  // Another version may have been asked for meanwhile: build the one that is active now.
  if (built.listId !== active.id) return buildIndex(db, active.id, active.version);
  cached = built;
  return built;
}

async function buildIndex(db: DbOrTx, listId: string, version: number): Promise<SanctionsIndex> {
  const [names, entries] = await Promise.all([
    db.select().from(sanctionsNames).where(eq(sanctionsNames.listId, listId)),
    db.select().from(sanctionsEntries).where(eq(sanctionsEntries.listId, listId)),
  ]);
  return indexOfRows({ names, entries }, listId, version);
}
