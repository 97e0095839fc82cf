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

function readMigrations(): { tag: string; statements: string[] }[] {
  const journal = JSON.parse(fs.readFileSync(`${MIGRATIONS_DIR}meta/_journal.json`, "utf8")) as Journal;
  return [...journal.entries]
    .sort((a, b) => a.idx - b.idx)
    .map(({ tag }) => ({
      tag,
      statements: fs
        .readFileSync(`${MIGRATIONS_DIR}${tag}.sql`, "utf8")
        .split("--> statement-breakpoint")
        .map((s) => s.trim())
        .filter(Boolean),
    }));
}

/** Applies the committed drizzle-kit migrations not yet applied, each in its own transaction. Safe on every start. */
export async function runMigrations(client: SqlClient, { lock }: { lock: boolean }): Promise<string[]> {
  const applied: string[] = [];
  if (lock) await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await client.query(
      "create table if not exists pillar_migrations (tag text primary key, applied_at timestamptz not null default now())",
    );
    const done = new Set(
      (await client.query("select tag from pillar_migrations")).rows.map((r) => String(r.tag)),
    );
    for (const migration of readMigrations()) {
      if (done.has(migration.tag)) continue;
      await client.query("begin");
      try {
        for (const statement of migration.statements) await client.query(statement);
        await client.query("insert into pillar_migrations (tag) values ($1)", [migration.tag]);
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
