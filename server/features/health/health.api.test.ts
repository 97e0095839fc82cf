import fs from "node:fs";
import os from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EXHAUSTION_MEMORY_MS } from "@/server/lib/process-health";
import { createTestApp, setUpTestApp } from "@/tests/support/test-app";

const t = setUpTestApp();

describe("health", () => {
  it("answers /healthz while the process is up", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("answers /readyz when the database is reachable", async () => {
    const res = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ready" });
  });

  it("has applied every migration, and applying them again changes nothing", async () => {
    const before = await t.database.query<{ tag: string }>("select tag from pillar_migrations order by tag");
    expect(before.length).toBeGreaterThan(0);
    await t.database.migrate();
    const after = await t.database.query<{ tag: string }>("select tag from pillar_migrations order by tag");
    expect(after).toEqual(before);
  });
});

describe("readiness without a database", () => {
  it("answers /readyz with 503 JSON once the database is gone", async () => {
    const local = await createTestApp();
    await local.database.close();
    const res = await local.app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: "unavailable", message: "Database is not reachable" });
    await local.app.close();
  });
});

describe("liveness when the process runs out of file descriptors", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers /healthz 503 JSON while no descriptor can be opened, and for a while after", async () => {
    const held: number[] = [];
    let res: Awaited<ReturnType<typeof t.app.inject>>;
    try {
      // Take every descriptor this test process may open, as a flood of sockets would. Other work in this
      // worker (an idle pool connection closing) can free one in between, so top up and ask again a few times.
      for (let attempt = 0; ; attempt++) {
        for (;;) {
          try {
            held.push(fs.openSync(os.devNull, "r"));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== "EMFILE") throw err;
            break;
          }
        }
        res = await t.app.inject({ method: "GET", url: "/healthz" });
        if (res.statusCode === 503 || attempt === 4) break;
      }
    } finally {
      for (const fd of held) fs.closeSync(fd);
    }
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: "unhealthy",
      message: "The process cannot open files or sockets",
      code: "UNAVAILABLE",
      requestId: res.headers["x-request-id"],
    });

    // Descriptors free again, but the process was starved moments ago: still unhealthy.
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(503);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + EXHAUSTION_MEMORY_MS + 1000 });
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });
});
