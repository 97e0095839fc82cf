import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import { createPgDatabase, type Database } from "@/server/db/client";
import { freePort } from "@/tests/support/server-process";
import { createTestApp, type TestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

const UNAVAILABLE = {
  message: "The service is temporarily unavailable. Please try again shortly.",
  code: "UNAVAILABLE",
  reason: "service_unavailable",
  retryable: true,
};

/** The real app on a pool the test made (size, timeouts), on a scratch data dir. */
async function appOn(database: Database): Promise<{ app: App; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-pool-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const app = await buildApp({ config, database }, { logger: false });
  return {
    app,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe("a database nobody answers at", () => {
  let app: App;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const closedPort = await freePort();
    ({ app, close } = await appOn(
      createPgDatabase(`postgres://root@127.0.0.1:${closedPort}/none`, 2, 2000, 500),
    ));
  });
  afterAll(async () => {
    await close();
  });

  it("answers a database-backed request with 503 JSON, never 500", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/api/auth/user",
      headers: { cookie: `sid=${"a".repeat(43)}` },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ...UNAVAILABLE, requestId: res.headers["x-request-id"] });
  });

  it("is not ready, yet stays live: a restart would not bring the database back", async () => {
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(503);
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });
});

// A pool only exists on PostgreSQL; embedded PGlite queues on its one connection.
const describePg = process.env.DATABASE_URL ? describe : describe.skip;

describePg("an exhausted pool", () => {
  let t: TestApp;
  let user: SignedInUser;
  let app: App;
  let close: () => Promise<void>;
  let pool: Database;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createVerifiedUser(t.database);
    const url = (t.database as Database & { url?: string }).url!;
    pool = createPgDatabase(url, 1, 15_000, 300);
    ({ app, close } = await appOn(pool));
  });
  afterAll(async () => {
    await close();
    await t.close();
  });

  it("answers 503 JSON when no connection frees up in time, and serves again once one does", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A transaction holds the pool's only connection, as a slow request would.
    const holder = pool.db.transaction(async () => held);
    await new Promise((r) => setTimeout(r, 100));

    const res = await app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ...UNAVAILABLE, requestId: res.headers["x-request-id"] });

    release();
    await holder;
    // Served again. With one connection and a 300 ms wait, a busy CI machine refused the first request after the
    // release once (the connection was not back in time): asked again until answered, within 10 s.
    await expect
      .poll(
        async () =>
          (await app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: user.cookie } }))
            .statusCode,
        { timeout: 10_000, interval: 200 },
      )
      .toBe(200);
  });
});
