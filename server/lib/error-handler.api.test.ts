import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ErrorFlags } from "@/contract/errors";
import { AppError } from "@/server/lib/errors";
import { setUpTestApp } from "@/tests/support/test-app";

const t = setUpTestApp();
beforeAll(async () => {
  // Routes that exist only in this test, to drive the shared error handler through every branch.
  const app = t.app;
  app.post(
    "/api/test/echo",
    { schema: { body: z.object({ name: z.string().min(1, "Name is required") }) } },
    (req) => req.body,
  );
  app.get("/api/test/app-error", () => {
    throw new AppError("CONFLICT", "Already done", { alreadyDone: true } as ErrorFlags);
  });
  app.get("/api/test/crash", () => {
    throw new Error("secret internal detail at /srv/db.ts:42");
  });
  await app.ready();
});

const post = (payload: string, contentType = "application/json") =>
  t.app.inject({ method: "POST", url: "/api/test/echo", payload, headers: { "content-type": contentType } });

describe("bad input gets a 4xx JSON error and the server keeps serving", () => {
  it("accepts a well-formed JSON body", async () => {
    const res = await post(JSON.stringify({ name: "Ada" }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: "Ada" });
  });

  it("refuses malformed JSON with 400", async () => {
    const res = await post("{ not json");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("Malformed JSON in request body");
  });

  it("refuses a non-JSON content type with 415", async () => {
    const res = await post("name=Ada", "application/x-www-form-urlencoded");
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toMatch(/Unsupported content type/);
  });

  it("refuses text/plain, so a cross-site HTML form cannot post", async () => {
    const res = await post('{"name":"Ada"}', "text/plain");
    expect(res.statusCode).toBe(415);
  });

  it("refuses a body over 1 MB with 413", async () => {
    const res = await post(JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe("Request body is too large");
  });

  it("turns a failed schema check into 400 with the contract's message", async () => {
    const res = await post(JSON.stringify({ name: "" }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: "Name is required", code: "VALIDATION" });
  });

  it("names a missing field", async () => {
    const res = await post(JSON.stringify({}));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("name is required");
  });

  it("names a wrong-typed field", async () => {
    const res = await post(JSON.stringify({ name: ["a"] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^name: /);
  });

  it("writes an AppError's message, code and flags", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/test/app-error" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: "Already done", code: "CONFLICT", alreadyDone: true });
  });

  it("hides the text of an unexpected failure", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/test/crash" });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain("secret");
    expect(res.json().message).toBe("Something went wrong on our side. Please try again.");
    expect(res.json().requestId).toBeTruthy();
  });

  it("answers an unknown /api route with 404 JSON", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/nope" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.json().message).toBe("No route for GET /api/nope");
  });

  it("answers an unknown method with 404 JSON", async () => {
    const res = await t.app.inject({ method: "DELETE", url: "/healthz" });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("NOT_FOUND");
  });

  it("answers an over-long path parameter with 414 and an undecodable URL with 400, in the usual error shape", async () => {
    const long = await t.app.inject({ method: "GET", url: `/api/admin/users/${"a".repeat(200)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({
      message: "The address is too long",
      code: "URI_TOO_LONG",
      requestId: long.headers["x-request-id"],
    });
    expect(long.body).not.toContain("aaaa");
    const bad = await t.app.inject({ method: "GET", url: "/api/admin/users/%E0%A4%A" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: "BAD_REQUEST", message: "The address is not valid" });
  });

  it("still serves after all of the above", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
  });
});

describe("security headers", () => {
  it("sends an API answer the API's headers: nothing may load or frame it, no-store and a request id", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/nope" });
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-request-id"]).toBeTruthy();
  });

  it("sends a page and an uploaded file the app's CSP without inline script", async () => {
    for (const url of ["/about", "/objects/not-there"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.headers["content-security-policy"], url).toContain("script-src 'self'");
      expect(res.headers["content-security-policy"], url).not.toContain("script-src 'self' 'unsafe-inline'");
      expect(res.headers["x-content-type-options"], url).toBe("nosniff");
      expect(res.headers["cross-origin-opener-policy"], url).toBe("same-origin");
    }
  });

  it("refuses a mutation from a foreign Origin with 403", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/test/echo",
      payload: { name: "Ada" },
      headers: { origin: "https://evil.example", host: "localhost:80" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe("Cross-site request refused");
  });

  it("refuses a mutation marked Sec-Fetch-Site: cross-site", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/test/echo",
      payload: { name: "Ada" },
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(res.statusCode).toBe(403);
  });

  it("accepts a same-origin mutation", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/test/echo",
      payload: { name: "Ada" },
      headers: { origin: "http://localhost:80", host: "localhost:80", "sec-fetch-site": "same-origin" },
    });
    expect(res.statusCode).toBe(200);
  });
});
