import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { applySqlFunctions } from "@/server/db/sql-functions";
import { PROJECT_ROOT } from "@/server/lib/project-root";

export interface SqlClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

interface Journal {
  entries: { idx: number; tag: string }[];
}

// The compiled server (dist/server) reads the committed SQL from the source tree, so there is one copy.
const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "server/db/migrations/");
// Any fixed number: every instance takes the same lock, so only one applies migrations at a time.
const MIGRATION_LOCK_KEY = 7_310_202;

interface Migration {
  tag: string;
  file: string;
  checksum: string;
  statements: string[];
  /** Each statement commits on its own (the file starts with NO_TRANSACTION); see runMigrations. */
  ownTransactions: boolean;
}

/**
 * A migration whose first line is this runs each statement as its own transaction: a long scan (VALIDATE
 * CONSTRAINT, CREATE INDEX CONCURRENTLY) then holds no lock that blocks writers, where inside one transaction the
 * brief exclusive lock of an earlier statement would be held until the end. Its statements must be safe to run
 * again: a crash part-way leaves the migration unrecorded, and the next start runs it from the top.
 */
export const NO_TRANSACTION = "-- pillar:no-transaction";

/** An applied migration's file no longer matches what was applied: starting would run on an unknown schema. */
export class MigrationChangedError extends Error {
  override name = "MigrationChangedError";
}

/** SHA-256 of the file's text; line endings count as \n, so a Windows checkout of the same file agrees. */
export const migrationChecksum = (text: string) =>
  createHash("sha256").update(text.replace(/\r\n/g, "\n")).digest("hex");

function readMigrations(dir: string): Migration[] {
  const journal = JSON.parse(fs.readFileSync(path.join(dir, "meta/_journal.json"), "utf8")) as Journal;
  return [...journal.entries]
    .sort((a, b) => a.idx - b.idx)
    .map(({ tag }) => {
      const file = path.join(dir, `${tag}.sql`);
      const text = fs.readFileSync(file, "utf8");
      return {
        tag,
        file,
        checksum: migrationChecksum(text),
        ownTransactions: text.startsWith(NO_TRANSACTION),
        statements: text
          .split("--> statement-breakpoint")
          .map((s) => s.trim())
          .filter(Boolean),
      };
    });
}

/**
 * Refuses when an applied migration's file changed since it was applied (its change would never run, and the
 * schema would silently differ from the source), then records the checksum of any migration applied before
 * checksums were kept: the file as it is on that first start is taken as the one that was applied.
 */
async function checkApplied(client: SqlClient, migrations: Migration[]): Promise<Set<string>> {
  const rows = (await client.query("select tag, checksum from pillar_migrations")).rows;
  const recorded = new Map(rows.map((r) => [String(r.tag), r.checksum == null ? null : String(r.checksum)]));
  const changed = migrations.filter((m) => {
    const checksum = recorded.get(m.tag);
    return checksum != null && checksum !== m.checksum;
  });
  if (changed.length > 0) {
    const names = changed.map((m) => `${m.tag} (${path.relative(PROJECT_ROOT, m.file)})`).join(", ");
    throw new MigrationChangedError(
      `Refusing to start: migration ${names} was changed after it was applied to this database, so the change ` +
        "would never run. Restore the file as it was applied and put the change in a new migration.",
    );
  }
  for (const m of migrations) {
    if (recorded.has(m.tag) && recorded.get(m.tag) == null) {
      await client.query("update pillar_migrations set checksum = $2 where tag = $1 and checksum is null", [
        m.tag,
        m.checksum,
      ]);
    }
  }
  return new Set(recorded.keys());
}

/**
 * Applies the committed drizzle-kit migrations not yet applied, each in its own transaction, after checking
 * that none already applied has changed. Safe on every start.
 */
export async function runMigrations(
  client: SqlClient,
  { lock, dir = MIGRATIONS_DIR }: { lock: boolean; dir?: string },
): Promise<string[]> {
  const applied: string[] = [];
  if (lock) await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await client.query(
      "create table if not exists pillar_migrations (tag text primary key, applied_at timestamptz not null default now())",
    );
    // Databases migrated before checksums were kept get the column here; checkApplied fills it once.
    await client.query("alter table pillar_migrations add column if not exists checksum text");
    const migrations = readMigrations(dir);
    const done = await checkApplied(client, migrations);
    for (const migration of migrations) {
      if (done.has(migration.tag)) continue;
      if (migration.ownTransactions) {
        try {
          for (const statement of migration.statements) await client.query(statement);
        } catch (err) {
          throw new Error(`Migration ${migration.tag} failed: ${(err as Error).message}`, { cause: err });
        }
        await client.query("insert into pillar_migrations (tag, checksum) values ($1, $2)", [
          migration.tag,
          migration.checksum,
        ]);
        applied.push(migration.tag);
        continue;
      }
      await client.query("begin");
      try {
        for (const statement of migration.statements) await client.query(statement);
        await client.query("insert into pillar_migrations (tag, checksum) values ($1, $2)", [
          migration.tag,
          migration.checksum,
        ]);
        await client.query("commit");
      } catch (err) {
        await client.query("rollback");
        throw new Error(`Migration ${migration.tag} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(migration.tag);
    }
    // The SQL functions are source files of their own (decision 019), applied after the schema they use.
    await applySqlFunctions(client, { all: applied.length > 0 });
  } finally {
    if (lock) await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
  return applied;
}
