import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { setUpTestApp } from "@/tests/support/test-app";
import { signupBody } from "@/tests/support/users";

const TOKEN = "metrics-token-for-tests-0123456789";
const PRODUCTION_SECRETS = { SESSION_SECRET: "s".repeat(64), DATA_KEY: "ab".repeat(32) };

/** The value of one sample line, e.g. `db_pool_connections{state="total"}`. */
function sample(body: string, series: string): number | undefined {
  const line = body.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics outside production without a token", () => {
  const t = setUpTestApp();

  const scrape = async () => {
    const res = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it("labels request latency by route pattern, never by the raw URL", async () => {
    const userId = randomUUID();
    await t.app.inject({ method: "GET", url: `/api/admin/users/${userId}` });
    await t.app.inject({ method: "GET", url: "/healthz" });
    await t.app.inject({ method: "GET", url: `/api/no-such-thing/${userId}` });

    const body = await scrape();
    expect(body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/admin\/users\/:userId",status_code="401"\} 1/,
    );
    expect(body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} 1/,
    );
    expect(body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} 1/,
    );
    expect(body).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/healthz"');
    expect(body).not.toContain(userId);
  });

  it("reports the database pool", async () => {
    const body = await scrape();
    const total = sample(body, 'db_pool_connections{state="total"}');
    const idle = sample(body, 'db_pool_connections{state="idle"}');
    expect(total).toBeGreaterThanOrEqual(1);
    expect(idle).toBeGreaterThanOrEqual(0);
    expect(idle).toBeLessThanOrEqual(total!);
    expect(sample(body, 'db_pool_connections{state="waiting"}')).toBe(0);
  });

  it("counts undelivered mail at scrape time, so a queued verification code shows in the backlog", async () => {
    const before = sample(await scrape(), 'mail_outbox_undelivered{status="pending"}')!;
    const res = await t.app.inject({ method: "POST", url: "/api/auth/register", payload: signupBody() });
    expect(res.statusCode).toBe(200);

    const body = await scrape();
    expect(sample(body, 'mail_outbox_undelivered{status="pending"}')).toBe(before + 1);
    expect(sample(body, 'mail_outbox_undelivered{status="failed"}')).toBe(0);
  });

  it("includes the default process metrics", async () => {
    const body = await scrape();
    expect(body).toContain("process_cpu_user_seconds_total");
    expect(body).toContain("nodejs_heap_size_used_bytes");
  });
});

describe("GET /metrics with METRICS_TOKEN", () => {
  const t = setUpTestApp({ METRICS_TOKEN: TOKEN });

  it("refuses a scrape without the token with 401 JSON", async () => {
    const res = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: "UNAUTHORIZED", requestId: expect.any(String) });
  });

  it("refuses a wrong token, even one that shares a prefix", async () => {
    for (const authorization of [
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      TOKEN,
      `Basic ${TOKEN}`,
    ]) {
      const res = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization } });
      expect(res.statusCode).toBe(401);
    }
  });

  it("serves the metrics for the right bearer token", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("http_request_duration_seconds");
  });

  it("keeps each app's metrics in its own registry", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    // The other app in this file served /api/admin/users/:userId; this one never did.
    expect(res.body).not.toContain("/api/admin/users/:userId");
  });
});

describe("GET /metrics in production without a token", () => {
  const t = setUpTestApp({ NODE_ENV: "production", ...PRODUCTION_SECRETS });

  it("serves a direct scrape over loopback", async () => {
    const res = await t.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1" });
    expect(res.statusCode).toBe(200);
  });

  it("refuses another address", async () => {
    const res = await t.app.inject({ method: "GET", url: "/metrics", remoteAddress: "10.1.2.3" });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("FORBIDDEN");
  });

  it("refuses a request a local reverse proxy forwarded, whatever address it claims", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      remoteAddress: "127.0.0.1",
      headers: { "x-forwarded-for": "127.0.0.1" },
    });
    expect(res.statusCode).toBe(403);
  });
});
