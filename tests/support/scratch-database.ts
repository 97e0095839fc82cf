import { randomBytes } from "node:crypto";
import pg from "pg";
import { createPgDatabase, type Database } from "@/server/db/client";
import { withDatabase } from "@/tests/support/global-setup";

export interface ScratchDatabase {
  name: string;
  url: string;
  /** A small pool of the test's own, for seeding and for checking what the server left behind. */
  database: Database;
  drop(): Promise<void>;
}

/** A new, migrated PostgreSQL database on DATABASE_URL's server, dropped (with force) afterwards. */
export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `pillar_faults_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const database = createPgDatabase(url, 4);
  await database.migrate();
  return {
    name,
    url,
    database,
    async drop() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
