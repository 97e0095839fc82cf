import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type App, type BuildAppOptions, buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import type { Database } from "@/server/db/client";
import { createTestDatabase } from "@/tests/support/test-database";

export interface TestApp {
  app: App;
  database: Database;
  dataDir: string;
  close(): Promise<void>;
}

/** The real app on a fresh database, spoken to over HTTP with app.inject. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: Omit<BuildAppOptions, "logger"> = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-test-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent", ...env });
  const database = await createTestDatabase();
  const app = await buildApp({ config, database }, { ...options, logger: false });
  return {
    app,
    database,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
