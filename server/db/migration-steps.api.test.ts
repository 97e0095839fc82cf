import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGLITE_EXTENSIONS } from "@/server/db/client";
import { runMigrations, type SqlClient } from "@/server/db/migrate";
import type { MigrationStep, StepDb } from "@/server/db/migration-steps/step";
import { PROJECT_ROOT } from "@/server/lib/project-root";
import { withDatabase } from "@/tests/support/global-setup";

// Each migration since 0017 has a before/after test of its own (decision 076): one database, empty at first, is
// taken through the migrations one by one; before each migration with a step, the step writes rows as the older
// schema holds them; after it, the step checks the migration's effect on them. Later migrations meet the rows of
// every earlier step, as a production database does.
const MIGRATIONS = path.join(PROJECT_ROOT, "server/db/migrations");
const STEPS = path.join(PROJECT_ROOT, "server/db/migration-steps");
/** Migrations from this one on have a step; the ones before were written before the rule. */
const FIRST_STEPPED = 17;

const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as {
  entries: { idx: number; tag: string }[];
};
const stepFiles = fs
  .readdirSync(STEPS)
  .filter((f) => /^\d{4}_.*\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ""));

async function openEmptyDatabase(): Promise<{ client: SqlClient; close(): Promise<void>; pg: boolean }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `pillar_steps_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template template0`);
    const client = new pg.Client({ connectionString: withDatabase(url, name) });
    await client.connect();
    return {
      client: client as unknown as SqlClient,
      pg: true,
      async close() {
        await client.end();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const lite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  return {
    client: { query: async (text, params) => ({ rows: (await lite.query(text, params)).rows }) } as SqlClient,
    pg: false,
    close: () => lite.close(),
  };
}

describe("every migration since 0017 on a database holding rows (decision 076)", () => {
  let database: Awaited<ReturnType<typeof openEmptyDatabase>>;
  let db: StepDb;

  beforeAll(async () => {
    database = await openEmptyDatabase();
    const query = async <T>(text: string, params?: unknown[]) =>
      (await database.client.query(text, params)).rows as T[];
    db = {
      query,
      pg: database.pg,
      shared: new Map(),
      async fails(text, params) {
        await query("savepoint step_fails");
        try {
          await query(text, params);
          await query("release savepoint step_fails");
          return null;
        } catch (err) {
          await query("rollback to savepoint step_fails");
          const { code, message } = err as { code?: string; message: string };
          return { code: code ?? "", message };
        }
      },
    };
  });
  afterAll(async () => {
    await database?.close();
  });

  it("has a step for every migration from 0017 on, and none for a migration that does not exist", () => {
    const wanted = journal.entries.filter((e) => e.idx >= FIRST_STEPPED).map((e) => e.tag);
    expect(stepFiles.sort()).toEqual(wanted.sort());
  });

  for (const { tag } of journal.entries) {
    const stepped = stepFiles.includes(tag);
    it(`${tag}${stepped ? "" : " (no step: before the rule)"}`, async () => {
      const step: MigrationStep | undefined = stepped
        ? ((await import(path.join(STEPS, `${tag}.ts`))) as { default: MigrationStep }).default
        : undefined;
      // `fails` runs in a savepoint: the step's statements run in a transaction the runner rolls forward.
      await db.query("begin");
      await step?.before?.(db);
      await db.query("commit");
      await runMigrations(database.client, { lock: false, until: tag });
      if (!step) return;
      await db.query("begin");
      try {
        await step.after(db);
      } finally {
        await db.query("commit");
      }
    });
  }
});
