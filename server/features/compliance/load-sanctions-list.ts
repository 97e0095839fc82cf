import { createHash } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { COMPLIANCE_MESSAGES, type SanctionsListVersion } from "@/contract/compliance";
import type { StaffRole } from "@/contract/staff";
import type { Db, DbOrTx } from "@/server/db/client";
import {
  rescreenRuns,
  sanctionsAddresses,
  sanctionsEntries,
  sanctionsLists,
  sanctionsNames,
} from "@/server/db/schema";
import {
  decodeListBytes,
  ListFileError,
  type ListFileName,
  listFileName,
  parseListFiles,
} from "@/server/features/compliance/parse-ofac";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";

/** Any fixed number: two loads at once queue, so versions never collide and one of them ends up active. */
const LOAD_LOCK_KEY = 7_310_330;
const CHUNK = 500;

export interface ListFileInput {
  name: string;
  bytes: Uint8Array;
}

export function toListVersion(row: typeof sanctionsLists.$inferSelect): SanctionsListVersion {
  return {
    id: row.id,
    version: row.version,
    source: row.source,
    files: row.files,
    entryCount: row.entryCount,
    nameCount: row.nameCount,
    addressCount: row.addressCount,
    isActive: row.isActive,
    loadedAt: row.loadedAt.toISOString(),
    rescreenedAt: row.rescreenedAt?.toISOString() ?? null,
  };
}

function badFile(err: ListFileError): AppError {
  return new AppError("list_file_rejected", `${COMPLIANCE_MESSAGES.listRejected} ${err.message}`, {
    file: err.file,
    ...(err.line === null ? {} : { line: err.line }),
  });
}

/**
 * Loads one set of OFAC files as a new list version: every file parses first (a bad line names its file and
 * line, nothing is written), then the whole snapshot is written and made active in one transaction, with
 * its audit row. Anything failing rolls all of it back, so the previous version stays active.
 */
export async function loadSanctionsList(
  db: Db,
  files: ListFileInput[],
  by: { actorId: string | null; actorRole: StaffRole | null; source: "cli" | "upload" },
): Promise<SanctionsListVersion> {
  const named: { name: ListFileName; text: string; sha256: string; bytes: number }[] = [];
  for (const file of files) {
    const name = listFileName(file.name);
    if (!name) throw new AppError("list_file_invalid", COMPLIANCE_MESSAGES.unknownFile(file.name));
    if (named.some((f) => f.name === name)) {
      throw new AppError("list_file_invalid", COMPLIANCE_MESSAGES.duplicateFile(name));
    }
    named.push({
      name,
      text: decodeListBytes(file.bytes),
      sha256: createHash("sha256").update(file.bytes).digest("hex"),
      bytes: file.bytes.byteLength,
    });
  }
  let parsed: ReturnType<typeof parseListFiles>;
  try {
    parsed = parseListFiles(named);
  } catch (err) {
    if (err instanceof ListFileError) throw badFile(err);
    throw err;
  }
  if (parsed.entries.length === 0)
    throw badFile(new ListFileError("(load)", null, "no entries in the files"));

  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOAD_LOCK_KEY})`);
    const [last] = await tx
      .select({ version: sanctionsLists.version })
      .from(sanctionsLists)
      .orderBy(desc(sanctionsLists.version))
      .limit(1);
    const [previous] = await tx.select().from(sanctionsLists).where(eq(sanctionsLists.isActive, true));
    const [list] = await tx
      .insert(sanctionsLists)
      .values({
        version: (last?.version ?? 0) + 1,
        source: by.source,
        files: parsed.files,
        entryCount: parsed.entries.length,
        nameCount: parsed.names.length,
        addressCount: parsed.addresses.length,
        loadedBy: by.actorId,
      })
      .returning();
    const listId = list!.id;
    for (let i = 0; i < parsed.entries.length; i += CHUNK) {
      await tx
        .insert(sanctionsEntries)
        .values(parsed.entries.slice(i, i + CHUNK).map((e) => ({ listId, ...e })));
    }
    for (let i = 0; i < parsed.names.length; i += CHUNK) {
      await tx.insert(sanctionsNames).values(parsed.names.slice(i, i + CHUNK).map((n) => ({ listId, ...n })));
    }
    for (let i = 0; i < parsed.addresses.length; i += CHUNK) {
      await tx
        .insert(sanctionsAddresses)
        .values(parsed.addresses.slice(i, i + CHUNK).map((a) => ({ listId, ...a })));
    }
    // Deactivate first: the partial unique index allows one active version at any instant.
    await tx.update(sanctionsLists).set({ isActive: false }).where(eq(sanctionsLists.isActive, true));
    const [active] = await tx
      .update(sanctionsLists)
      .set({ isActive: true })
      .where(eq(sanctionsLists.id, listId))
      .returning();
    // Every customer is screened again against the new version: queued with it, run by the jobs room in
    // batches (rescreen.ts, decision 053), so the load never waits for it and a crash never loses it.
    await tx.insert(rescreenRuns).values({ listId }).onConflictDoNothing();
    await writeAudit(tx, {
      actorId: by.actorId,
      actorRole: by.actorRole,
      action: "sanctions.load",
      targetType: "sanctions_list",
      targetId: listId,
      before: previous ? { version: previous.version, files: previous.files } : null,
      after: {
        version: active!.version,
        source: by.source,
        files: parsed.files,
        entries: parsed.entries.length,
        names: parsed.names.length,
        addresses: parsed.addresses.length,
      },
    });
    return active!;
  });
  return toListVersion(row);
}

export async function findListVersions(db: DbOrTx, limit = 50): Promise<SanctionsListVersion[]> {
  const rows = await db.select().from(sanctionsLists).orderBy(desc(sanctionsLists.version)).limit(limit);
  return rows.map(toListVersion);
}
