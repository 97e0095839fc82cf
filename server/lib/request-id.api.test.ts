import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type App, buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import type { Database } from "@/server/db/client";
import { setUpTestApp } from "@/tests/support/test-app";
import { createTestDatabase } from "@/tests/support/test-database";
import { signupBody } from "@/tests/support/users";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const json = { "content-type": "application/json" };

describe("every response carries a request id; every error carries it and a stable code", () => {
  const t = setUpTestApp();
  beforeAll(async () => {
    t.app.post(
      "/api/test/echo",
      { schema: { body: z.object({ name: z.string().min(1) }) } },
      (req) => req.body,
    );
    await t.app.ready();
  });

  it("makes a UUID when the client sends none", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-request-id"]).toMatch(UUID);
  });

  it("keeps a safe incoming X-Request-Id, so a proxy's id follows the request", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "edge-1234abcd" },
    });
    expect(res.headers["x-request-id"]).toBe("edge-1234abcd");
  });

  it("replaces an unsafe incoming id instead of echoing it into headers and logs", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "abc def<script>alert(1)</script>" },
    });
    expect(res.headers["x-request-id"]).toMatch(UUID);
  });

  const failures: [string, () => InjectOptions, number, string][] = [
    ["an unknown API route", () => ({ method: "GET", url: "/api/nope" }), 404, "NOT_FOUND"],
    ["an unknown method", () => ({ method: "PATCH", url: "/healthz" }), 404, "NOT_FOUND"],
    [
      "a body over 1 MB",
      () => ({
        method: "POST",
        url: "/api/test/echo",
        headers: json,
        payload: `{"name":"${"x".repeat(1024 * 1024)}"}`,
      }),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    [
      "a form body",
      () => ({
        method: "POST",
        url: "/api/test/echo",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "name=Ada",
      }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    [
      "malformed JSON",
      () => ({ method: "POST", url: "/api/test/echo", headers: json, payload: "{ nope" }),
      400,
      "BAD_REQUEST",
    ],
    [
      "a body that fails the contract",
      () => ({ method: "POST", url: "/api/test/echo", headers: json, payload: "{}" }),
      400,
      "VALIDATION",
    ],
    [
      "a signed-out call to a signed-in route",
      () => ({ method: "GET", url: "/api/auth/user" }),
      401,
      "UNAUTHORIZED",
    ],
    [
      "a cross-site mutation",
      () => ({
        method: "POST",
        url: "/api/test/echo",
        headers: { ...json, "sec-fetch-site": "cross-site" },
        payload: "{}",
      }),
      403,
      "FORBIDDEN",
    ],
  ];

  it.each(failures)(
    "answers %s with status, code and the request id of the header",
    async (_, request, status, code) => {
      const res = await t.app.inject(request());
      expect(res.statusCode).toBe(status);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      expect(res.json()).toMatchObject({
        code,
        message: expect.any(String),
        requestId: res.headers["x-request-id"],
      });
      expect(res.headers["x-request-id"]).toMatch(UUID);
    },
  );

  it("answers a rate-limited call with 429 RATE_LIMITED and the request id", async () => {
    const call = () =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/forgot-password",
        payload: { email: "nobody@example.com" },
        headers: { "x-request-id": "limit-check-0001" },
      });
    let res = await call();
    for (let i = 0; i < 10 && res.statusCode !== 429; i++) res = await call();
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: "RATE_LIMITED", requestId: "limit-check-0001" });
    expect(res.headers["x-request-id"]).toBe("limit-check-0001");
  });
});

describe("log lines carry the request id", () => {
  let app: App;
  let database: Database;
  let dataDir: string;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-test-"));
    database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir });
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    app = await buildApp({ config, database }, { logger: { level: "info", stream } });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("tags Fastify's request lines and a service's mail line with the same reqId", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: signupBody(),
      headers: { "x-request-id": "trace-register-01" },
    });
    expect(res.statusCode).toBe(200);
    const mine = lines.filter((l) => l.reqId === "trace-register-01").map((l) => l.msg);
    expect(mine).toEqual(
      expect.arrayContaining([
        "incoming request",
        "dev mailbox: mail kept in the outbox (SMTP_URL not set)",
        "request completed",
      ]),
    );
    const mailLines = lines.filter((l) => String(l.msg).startsWith("dev mailbox"));
    expect(mailLines.every((l) => typeof l.reqId === "string")).toBe(true);
  });

  it("ties the requestId an error body shows to that request's log lines", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/api/nope",
      headers: { "x-request-id": "trace-missing-01" },
    });
    expect(res.json().requestId).toBe("trace-missing-01");
    expect(lines.some((l) => l.reqId === "trace-missing-01" && l.msg === "request completed")).toBe(true);
  });
});
