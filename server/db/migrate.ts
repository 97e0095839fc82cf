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

/**
 * The marker a migration writes on the line above a CREATE INDEX or DROP INDEX of a table that already holds rows:
 * on PostgreSQL the statement runs CONCURRENTLY, outside the migration's transaction (a plain build holds a SHARE
 * lock that stops every write to the table for as long as the build takes); PGlite runs it as written.
 */
export const CONCURRENTLY_MARKER = "-- pillar:concurrently";

/**
 * The marker on the line above a statement that must run alone, outside any transaction, on PostgreSQL and PGlite:
 * a CALL of a procedure that commits between batches (a backfill of a big table, whose rows would otherwise stay
 * locked until the whole backfill commits). It must be safe to run again: a kill may stop it between two batches.
 */
export const OUTSIDE_TRANSACTION_MARKER = "-- pillar:outside-transaction";

export interface MigrationStatement {
  text: string;
  /** Marked with CONCURRENTLY_MARKER: an index built or dropped outside the transaction on PostgreSQL. */
  concurrently: boolean;
  /** Marked with OUTSIDE_TRANSACTION_MARKER. */
  alone: boolean;
}

/**
 * A migration whose first line is this runs every statement as its own transaction, from the top again after a
 * crash (its statements look at the catalog before they act, so a second run is safe): a long scan (VALIDATE
 * CONSTRAINT) then holds no lock that blocks writers, where inside one transaction the brief exclusive lock of an
 * earlier statement would be held until the end. Its statements may share session state (pg_temp functions), which
 * is why it does not resume half-way as marked statements do.
 */
export const NO_TRANSACTION = "-- pillar:no-transaction";

interface Migration {
  tag: string;
  file: string;
  checksum: string;
  statements: MigrationStatement[];
  /** The file starts with NO_TRANSACTION. */
  ownTransactions: boolean;
}

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
        statements: splitStatements(text, file),
        ownTransactions: text.startsWith(NO_TRANSACTION),
      };
    });
}

const INDEX_STATEMENT =
  /^(create\s+(?:unique\s+)?index|drop\s+index)\s+(if\s+(?:not\s+)?exists\s+)?("[^"]+"|[\w.]+)/i;

/** The body of a statement: its text after the comment lines above it. */
function bodyOf(text: string): string {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => !/^\s*(--.*)?$/.test(line));
  return first < 0 ? "" : lines.slice(first).join("\n");
}

/** A migration file's statements (split on drizzle's breakpoints), each with whether it carries the marker. */
export function splitStatements(text: string, file = "migration"): MigrationStatement[] {
  return text
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((statement) => {
      const body = bodyOf(statement);
      const comments = statement.slice(0, statement.length - body.length).split("\n");
      const concurrently = comments.some((line) => line.trim() === CONCURRENTLY_MARKER);
      const alone = comments.some((line) => line.trim() === OUTSIDE_TRANSACTION_MARKER);
      // A marker on anything else would be read as "safe to run online" and is not.
      if (concurrently && !INDEX_STATEMENT.test(body))
        throw new Error(
          `${file}: ${CONCURRENTLY_MARKER} marks a statement that is not CREATE INDEX or DROP INDEX`,
        );
      return { text: statement, concurrently, alone };
    });
}

/** The index a marked statement builds or drops, as written (quoted or not), and the statement with CONCURRENTLY. */
export function concurrentForm(text: string): { index: string; drop: boolean; statement: string } {
  const body = bodyOf(text);
  const match = INDEX_STATEMENT.exec(body)!;
  const [, verb, ifClause = "", index] = match;
  const rest = body.slice(match[0].length);
  const drop = /^drop/i.test(verb!);
  return {
    index: index!,
    drop,
    // IF [NOT] EXISTS always: a re-run after a kill finds the index already there (or already gone).
    statement: `${verb} CONCURRENTLY ${ifClause || (drop ? "IF EXISTS " : "IF NOT EXISTS ")}${index}${rest}`,
  };
}

/** A build killed half-way leaves an INVALID index of that name (IF NOT EXISTS would then skip it): drop it. */
async function dropIfInvalid(client: SqlClient, index: string): Promise<void> {
  const [found] = (
    await client.query("select i.indisvalid as valid from pg_index i where i.indexrelid = to_regclass($1)", [
      index,
    ])
  ).rows;
  if (found && found.valid === false) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
}

const ON_TABLE = /^\s+ON\s+(?:ONLY\s+)?("[^"]+"|[\w.]+)/i;
const unquoted = (name: string) => name.replace(/^"|"$/g, "");

/**
 * Builds or drops one marked index outside any transaction. A partitioned table (decision 063) cannot build an
 * index CONCURRENTLY: the parent's index is made ON ONLY the parent (invalid, no scan), each partition's is built
 * CONCURRENTLY and attached, and the parent's becomes valid with the last attach. Dropping a partitioned index is
 * a catalog change under a brief lock.
 */
async function runConcurrently(client: SqlClient, text: string): Promise<void> {
  const { index, drop, statement } = concurrentForm(text);
  const body = bodyOf(text);
  const rest = body.slice(INDEX_STATEMENT.exec(body)![0].length);
  const table = drop ? undefined : ON_TABLE.exec(rest)?.[1];
  const [kind] = table
    ? (await client.query("select relkind::text as kind from pg_class where oid = to_regclass($1)", [table]))
        .rows
    : (
        await client.query(
          `select t.relkind::text as kind from pg_index i join pg_class t on t.oid = i.indrelid
           where i.indexrelid = to_regclass($1)`,
          [index],
        )
      ).rows;
  if (kind?.kind !== "p") {
    if (!drop) await dropIfInvalid(client, index);
    await client.query(statement);
    return;
  }
  if (drop) {
    await client.query(`DROP INDEX IF EXISTS ${index}`);
    return;
  }
  const verb = /^create\s+unique/i.test(body) ? "CREATE UNIQUE INDEX" : "CREATE INDEX";
  const definition = rest.slice(ON_TABLE.exec(rest)![0].length);
  await client.query(`${verb} IF NOT EXISTS ${index} ON ONLY ${table}${definition}`);
  const partitions = (
    await client.query(
      `select c.relname as name,
              exists (select 1 from pg_inherits ii join pg_index x on x.indexrelid = ii.inhrelid
                      where ii.inhparent = to_regclass($2) and x.indrelid = c.oid) as attached
       from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass($1) order by c.relname`,
      [table, index],
    )
  ).rows;
  for (const partition of partitions) {
    if (partition.attached === true) continue;
    const name = String(partition.name);
    const child = `"${unquoted(index).slice(0, 62 - name.length)}_${name}"`;
    await dropIfInvalid(client, child);
    await client.query(`${verb} CONCURRENTLY IF NOT EXISTS ${child} ON "${name}"${definition}`);
    await client.query(`ALTER INDEX ${index} ATTACH PARTITION ${child}`);
  }
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
 * Applies one migration. Without a statement to run outside a transaction (a marked index on PGlite runs as
 * written), one transaction that also records the tag. Otherwise, the statements between them run in transactions of their own, each
 * committing how far the migration got in pillar_migration_steps (with the file's checksum), and the marked ones
 * between those transactions: a migration killed half-way resumes where it stopped on the next start, and refuses
 * if its file changed meanwhile. The tag is recorded with the last step.
 */
async function applyMigration(client: SqlClient, migration: Migration, concurrently: boolean): Promise<void> {
  const { tag, checksum, statements, ownTransactions } = migration;
  const outside = (s: MigrationStatement) => ownTransactions || s.alone || (concurrently && s.concurrently);
  const online = !ownTransactions && statements.some(outside);
  let done = 0;
  if (online) {
    const [step] = (
      await client.query("select checksum, done from pillar_migration_steps where tag = $1", [tag])
    ).rows;
    if (step && step.checksum !== checksum)
      throw new MigrationChangedError(
        `Refusing to start: migration ${tag} (${path.relative(PROJECT_ROOT, migration.file)}) was changed after ` +
          `its first ${step.done} statements were applied. Restore the file as it was and start again to finish it.`,
      );
    done = Number(step?.done ?? 0);
  }
  const record = async (next: number) => {
    if (next === statements.length) {
      await client.query("insert into pillar_migrations (tag, checksum) values ($1, $2)", [tag, checksum]);
      if (online) await client.query("delete from pillar_migration_steps where tag = $1", [tag]);
    } else {
      await client.query(
        `insert into pillar_migration_steps (tag, checksum, done) values ($1, $2, $3)
         on conflict (tag) do update set done = excluded.done`,
        [tag, checksum, next],
      );
    }
  };
  while (done < statements.length) {
    try {
      const statement = statements[done]!;
      if (outside(statement)) {
        if (concurrently && statement.concurrently) await runConcurrently(client, statement.text);
        else await client.query(statement.text);
        done++;
        if (online || done === statements.length) await record(done);
        continue;
      }
      await client.query("begin");
      try {
        while (done < statements.length && !outside(statements[done]!)) {
          await client.query(statements[done]!.text);
          done++;
        }
        await record(done);
        await client.query("commit");
      } catch (err) {
        await client.query("rollback");
        throw err;
      }
    } catch (err) {
      throw new Error(`Migration ${tag} failed: ${(err as Error).message}`, { cause: err });
    }
  }
}

/**
 * Applies the committed migrations (hand-written, listed in meta/_journal.json: decision 074) not yet applied, each in its own transaction (PostgreSQL builds
 * marked indexes between transactions when `concurrently`), after checking that none already applied has
 * changed. Safe on every start, and after a start killed half-way through a migration.
 */
export async function runMigrations(
  client: SqlClient,
  {
    lock,
    dir = MIGRATIONS_DIR,
    concurrently = false,
    until,
  }: {
    lock: boolean;
    dir?: string;
    concurrently?: boolean;
    /** Stop after this migration, without the SQL functions (they are written for the latest schema): tests only. */
    until?: string;
  },
): Promise<string[]> {
  const applied: string[] = [];
  if (lock) await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await client.query(
      "create table if not exists pillar_migrations (tag text primary key, applied_at timestamptz not null default now())",
    );
    // Databases migrated before checksums were kept get the column here; checkApplied fills it once.
    await client.query("alter table pillar_migrations add column if not exists checksum text");
    // How far a migration with marked statements got before its start was killed (applyMigration).
    await client.query(
      "create table if not exists pillar_migration_steps (tag text primary key, checksum text not null, done integer not null)",
    );
    const all = readMigrations(dir);
    const last = until === undefined ? all.length : all.findIndex((m) => m.tag === until) + 1;
    if (last === 0) throw new Error(`No migration ${until}`);
    const migrations = all.slice(0, last);
    const done = await checkApplied(client, migrations);
    for (const migration of migrations) {
      if (done.has(migration.tag)) continue;
      await applyMigration(client, migration, concurrently);
      applied.push(migration.tag);
    }
    // The SQL functions are source files of their own (decision 019), applied after the schema they use.
    if (until === undefined) await applySqlFunctions(client, { all: applied.length > 0 });
  } finally {
    if (lock) await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
  return applied;
}
