import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { createPgDatabase, type Database, PGLITE_EXTENSIONS, wrapPglite } from "@/server/db/client";
import { withDatabase } from "@/tests/support/global-setup";

/** A fresh, migrated database for one test file: a copy of the run's template on PostgreSQL, or an in-memory PGlite. */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  const url = process.env.DATABASE_URL;
  const template = inject("templateDatabase");
  if (url && template) {
    const name = `pillar_t_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Copies from one template can collide while another copy is starting; retry briefly.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.query(`create database ${name} template ${template}`);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== "55006" || attempt > 40) throw err;
          await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
        }
      }
    } finally {
      await admin.end();
    }
    const dbUrl = withDatabase(url, name);
    const database = createPgDatabase(dbUrl, 10);
    return {
      ...database,
      url: dbUrl,
      async close() {
        await database.close();
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      },
    };
  }
  const dump = fs.readFileSync(inject("pgliteTemplate"));
  return wrapPglite(await PGlite.create({ loadDataDir: new Blob([dump]), extensions: PGLITE_EXTENSIONS }));
}
