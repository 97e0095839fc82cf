import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createPgDatabase, PGLITE_EXTENSIONS, wrapPglite } from "@/server/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
    pgliteTemplate: string;
  }
}

/** Migrates one template database per run; every test file then gets its own copy (see test-database.ts). */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `pillar_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const database = createPgDatabase(withDatabase(url, name), 1);
    await database.migrate();
    await database.close();
    project.provide("templateDatabase", name);
    project.provide("pgliteTemplate", "");
    return async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }

  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const database = wrapPglite(client);
  await database.migrate();
  // Uncompressed: every test file loads this tarball into its own PGlite, and gunzip cost each ~0.3 s of CPU.
  const dump = await client.dumpDataDir("none");
  await database.close();
  const file = path.join(os.tmpdir(), `pillar-pglite-template-${process.pid}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("templateDatabase", "");
  project.provide("pgliteTemplate", file);
  return () => fs.rmSync(file, { force: true });
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
