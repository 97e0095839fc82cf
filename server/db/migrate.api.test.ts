import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/server/db/client";
import {
  concurrentForm,
  MigrationChangedError,
  migrationChecksum,
  NO_TRANSACTION,
  runMigrations,
  type SqlClient,
  splitStatements,
} from "@/server/db/migrate";
import { PROJECT_ROOT } from "@/server/lib/project-root";
import { createTestDatabase } from "@/tests/support/test-database";

const MIGRATIONS = path.join(PROJECT_ROOT, "server/db/migrations");
const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as {
  entries: { idx: number; tag: string }[];
};
const tags = journal.entries.map((e) => e.tag);
const fileChecksum = (tag: string) =>
  migrationChecksum(fs.readFileSync(path.join(MIGRATIONS, `${tag}.sql`), "utf8"));
const EDITED = tags[5]!;

let database: Database & { url?: string };
let copies: string[] = [];

/** The runner on its own connection (begin/commit need one), on PostgreSQL or PGlite. */
async function migrateWith(dir: string) {
  if (database.url) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return await runMigrations(client as SqlClient, { lock: true, dir, concurrently: true });
    } finally {
      await client.end();
    }
  }
  const client: SqlClient = { query: async (text, params) => ({ rows: await database.query(text, params) }) };
  return runMigrations(client, { lock: false, dir });
}

/** A copy of the committed migrations to edit. */
function copyMigrations(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-migrations-"));
  fs.cpSync(MIGRATIONS, dir, { recursive: true });
  copies.push(dir);
  return dir;
}

/** A copy of the committed migrations plus one more. */
function withMigration(tag: string, text: string): string {
  const dir = copyMigrations();
  fs.writeFileSync(path.join(dir, `${tag}.sql`), text);
  const entries = [...journal.entries, { idx: 9999, tag }];
  fs.writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  return dir;
}

const recorded = () =>
  database.query<{ tag: string; checksum: string | null }>(
    "select tag, checksum from pillar_migrations order by tag",
  );

async function tableExists(name: string) {
  const [row] = await database.query<{ found: boolean }>("select to_regclass($1) is not null as found", [
    name,
  ]);
  return row!.found;
}

describe("migration checksums", () => {
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.close();
    for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
    copies = [];
  });

  it("records the SHA-256 of every applied migration's file", async () => {
    expect(await recorded()).toEqual(tags.map((tag) => ({ tag, checksum: fileChecksum(tag) })).sort(byTag));
  });

  it("refuses to start when an applied migration's file was edited, naming it, and changes nothing", async () => {
    const dir = copyMigrations();
    fs.appendFileSync(
      path.join(dir, `${EDITED}.sql`),
      "\n--> statement-breakpoint\ncreate table edited_after_apply (id int);\n",
    );
    const before = await recorded();

    const run = migrateWith(dir);
    await expect(run).rejects.toBeInstanceOf(MigrationChangedError);
    await expect(run).rejects.toThrow(`migration ${EDITED} (`);
    await expect(run).rejects.toThrow(
      /Restore the file as it was applied and put the change in a new migration/,
    );

    expect(await tableExists("edited_after_apply")).toBe(false);
    expect(await recorded()).toEqual(before);
  });

  it("refuses through the start-up path (Database.migrate) too", async () => {
    await database.query("update pillar_migrations set checksum = $1 where tag = $2", [
      "0".repeat(64),
      EDITED,
    ]);
    await expect(database.migrate()).rejects.toThrow(
      new RegExp(
        `migration ${EDITED} \\(server/db/migrations/${EDITED}\\.sql\\) was changed after it was applied`,
      ),
    );
  });

  it("takes the files' checksums once for a database migrated before checksums were kept", async () => {
    await database.query("alter table pillar_migrations drop column checksum");

    await database.migrate();
    expect(await recorded()).toEqual(tags.map((tag) => ({ tag, checksum: fileChecksum(tag) })).sort(byTag));

    // Once: the backfilled checksum now guards the file like any other.
    const dir = copyMigrations();
    fs.appendFileSync(path.join(dir, `${EDITED}.sql`), "\n-- a comment is a change too\n");
    await expect(migrateWith(dir)).rejects.toBeInstanceOf(MigrationChangedError);
  });

  it("applies a new migration after the check and records its checksum", async () => {
    const dir = copyMigrations();
    const text = "create table added_later (id int);\n";
    fs.writeFileSync(path.join(dir, "9999_added_later.sql"), text);
    const entries = [...journal.entries, { idx: 9999, tag: "9999_added_later" }];
    fs.writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));

    expect(await migrateWith(dir)).toEqual(["9999_added_later"]);
    expect(await tableExists("added_later")).toBe(true);
    const [row] = await database.query<{ checksum: string }>(
      "select checksum from pillar_migrations where tag = '9999_added_later'",
    );
    expect(row!.checksum).toBe(migrationChecksum(text));
    expect(await migrateWith(dir)).toEqual([]);
  });

  it("commits each statement of a no-transaction migration on its own, and runs it again until it ends", async () => {
    const dir = copyMigrations();
    const write = (last: string) =>
      fs.writeFileSync(
        path.join(dir, "9999_own_transactions.sql"),
        `${NO_TRANSACTION}\ncreate table if not exists kept_alone (id int);\n--> statement-breakpoint\n${last}\n`,
      );
    write("select 1 / 0;");
    const entries = [...journal.entries, { idx: 9999, tag: "9999_own_transactions" }];
    fs.writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));

    await expect(migrateWith(dir)).rejects.toThrow(/9999_own_transactions failed: division by zero/);
    // In one transaction the table would have gone with the failure; here its statement had committed.
    expect(await tableExists("kept_alone")).toBe(true);
    expect((await recorded()).map((r) => r.tag)).not.toContain("9999_own_transactions");
    write("create table if not exists then_done (id int);");
    // Not applied yet, so the changed file is no edit of an applied one.
    expect(await migrateWith(dir)).toEqual(["9999_own_transactions"]);
    expect(await tableExists("then_done")).toBe(true);
  });
});

describe("a migration with statements outside its transaction, killed half-way", () => {
  beforeEach(async () => {
    database = await createTestDatabase();
    await database.query("create table migration_gate (open boolean)");
  });
  afterEach(async () => {
    await database.close();
    for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
    copies = [];
  });

  // The third statement fails until the gate is open: the start that runs it stands for one killed there.
  const text = [
    "create table resumed_first (v int);",
    "-- pillar:concurrently\ncreate index resumed_first_v on resumed_first (v);",
    "-- pillar:outside-transaction\ndo $$ begin if not exists (select 1 from migration_gate where open) then raise exception 'gate closed'; end if; end $$;",
    "create table resumed_last (v int);",
  ].join("\n--> statement-breakpoint\n");

  it("resumes after the last statement it finished, and records the tag with the file's checksum once done", async () => {
    const dir = withMigration("9999_resumed", text);
    await expect(migrateWith(dir)).rejects.toThrow(/Migration 9999_resumed failed: gate closed/);
    expect(await tableExists("resumed_first")).toBe(true);
    expect(await tableExists("resumed_first_v")).toBe(true);
    expect(await tableExists("resumed_last")).toBe(false);
    expect((await recorded()).map((r) => r.tag)).not.toContain("9999_resumed");

    await database.query("insert into migration_gate values (true)");
    // A plain CREATE TABLE run twice would fail: the first two statements are not run again.
    expect(await migrateWith(dir)).toEqual(["9999_resumed"]);
    expect(await tableExists("resumed_last")).toBe(true);
    const [row] = await database.query<{ checksum: string }>(
      "select checksum from pillar_migrations where tag = '9999_resumed'",
    );
    expect(row!.checksum).toBe(migrationChecksum(text));
    expect(await database.query("select * from pillar_migration_steps")).toEqual([]);
    expect(await migrateWith(dir)).toEqual([]);
  });

  it("refuses to finish a half-applied migration whose file changed since", async () => {
    const dir = withMigration("9999_resumed", text);
    await expect(migrateWith(dir)).rejects.toThrow(/gate closed/);
    fs.appendFileSync(path.join(dir, "9999_resumed.sql"), "\n-- edited\n");
    await database.query("insert into migration_gate values (true)");
    const run = migrateWith(dir);
    await expect(run).rejects.toBeInstanceOf(MigrationChangedError);
    await expect(run).rejects.toThrow(/was changed after its first 2 statements were applied/);
    expect(await tableExists("resumed_last")).toBe(false);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "drops the INVALID index a failed concurrent build left and builds it again (PostgreSQL only: PGlite builds in the transaction)",
    async () => {
      await database.query("create table dup_values (v int); insert into dup_values values (1), (1)");
      const dir = withMigration(
        "9999_unique_later",
        "-- pillar:concurrently\nCREATE UNIQUE INDEX IF NOT EXISTS dup_values_v ON dup_values (v);",
      );
      await expect(migrateWith(dir)).rejects.toThrow(/could not create unique index/);
      const valid = () =>
        database.query<{ valid: boolean }>(
          "select indisvalid as valid from pg_index where indexrelid = to_regclass('dup_values_v')",
        );
      // What a build killed half-way leaves: the index is there, invalid, and IF NOT EXISTS would skip it.
      expect(await valid()).toEqual([{ valid: false }]);

      await database.query("delete from dup_values where ctid = (select min(ctid) from dup_values)");
      expect(await migrateWith(dir)).toEqual(["9999_unique_later"]);
      expect(await valid()).toEqual([{ valid: true }]);
    },
  );
});

describe("the concurrently marker", () => {
  it("turns a marked build or drop into its CONCURRENTLY form that a re-run skips", () => {
    expect(
      concurrentForm('-- why\n-- pillar:concurrently\nCREATE INDEX IF NOT EXISTS "a_b" ON "a" ("b");'),
    ).toEqual({
      index: '"a_b"',
      drop: false,
      statement: 'CREATE INDEX CONCURRENTLY IF NOT EXISTS "a_b" ON "a" ("b");',
    });
    expect(concurrentForm("create unique index a_b on a using gin (b gin_trgm_ops)").statement).toBe(
      "create unique index CONCURRENTLY IF NOT EXISTS a_b on a using gin (b gin_trgm_ops)",
    );
    expect(concurrentForm('DROP INDEX "a_b";').statement).toBe('DROP INDEX CONCURRENTLY IF EXISTS "a_b";');
  });

  it("marks only the statement below it, and refuses a marker above anything but an index", () => {
    const statements = splitStatements(
      "create table a (b int);\n--> statement-breakpoint\n-- pillar:concurrently\ncreate index a_b on a (b);",
    );
    expect(statements.map((s) => s.concurrently)).toEqual([false, true]);
    expect(() => splitStatements("-- pillar:concurrently\nalter table a add column c int;")).toThrow(
      /marks a statement that is not CREATE INDEX or DROP INDEX/,
    );
  });
});

describe("a migration's checksum", () => {
  it("reads a file with Windows line endings as the same file", () => {
    expect(migrationChecksum("create table a (id int);\r\nselect 1;\r\n")).toBe(
      migrationChecksum("create table a (id int);\nselect 1;\n"),
    );
  });
});

function byTag(a: { tag: string }, b: { tag: string }) {
  return a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0;
}
