import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type App, type BuildAppOptions, buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import type { Database } from "@/server/db/client";
import { lateBound } from "@/tests/support/late-bound";
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

/**
 * One test app for the whole file: created in beforeAll, closed in afterAll. `env` may be a function when it
 * reads something another hook creates first (an SMTP sink's URL).
 */
export function setUpTestApp(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: Omit<BuildAppOptions, "logger"> = {},
): TestApp {
  const testApp = lateBound<TestApp>("The test app");
  let created: TestApp | undefined;
  beforeAll(async () => {
    created = await createTestApp(typeof env === "function" ? env() : env, options);
    testApp.set(created);
  });
  afterAll(async () => {
    await created?.close();
  });
  return testApp.value;
}
