import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/tests/support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

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
