import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { CATALOGUE } from "@/tests/abuse/catalogue";
import { createWorld, rows, signedInAs, snapshot, type World } from "@/tests/abuse/world";
import { type SmtpSink, startSmtpSink } from "@/tests/support/smtp-sink";
import { createTestApp, type TestApp } from "@/tests/support/test-app";
import { createVerifiedUser, logIn, sessionCookieFrom } from "@/tests/support/users";

// Session fixation, logout and password changes; CSRF refusals; JSON-only bodies; rate limits.
let w: World;
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  w = await createWorld({ SMTP_URL: sink.url });
});
afterAll(async () => {
  await w?.t.close();
  await sink?.close();
});

const me = (cookie: string) => w.t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
const tokenOf = (cookie: string) => cookie.split("=")[1]!;

describe("sessions", () => {
  it("never adopts a session cookie planted before login", async () => {
    const { email, password } = await createVerifiedUser(w.t.database);
    const planted = "sid=attacker-chosen-session-value";
    const res = await w.t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { cookie: planted },
      payload: { email, password },
    });
    expect(res.statusCode).toBe(200);
    const issued = sessionCookieFrom(res.headers["set-cookie"]);
    expect(issued).not.toBe(planted);
    expect(tokenOf(issued).length).toBeGreaterThanOrEqual(32);
    expect((await me(planted)).statusCode).toBe(401);
    expect((await me(issued)).statusCode).toBe(200);
  });

  it("replaces, and ends, a live session the browser already had when it logs in again", async () => {
    const { email, password } = await createVerifiedUser(w.t.database);
    const before = await logIn(w.t.app, email, password);
    const res = await w.t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { cookie: before },
      payload: { email, password },
    });
    const after = sessionCookieFrom(res.headers["set-cookie"]);
    expect(after).not.toBe(before);
    expect((await me(before)).statusCode).toBe(401);
    expect((await me(after)).statusCode).toBe(200);
  });

  it("sets the session cookie HttpOnly, SameSite and for the whole site", async () => {
    const { email, password } = await createVerifiedUser(w.t.database);
    const res = await w.t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password },
    });
    const raw = [res.headers["set-cookie"]].flat().find((c) => c?.startsWith("sid="))!;
    expect(raw).toMatch(/;\s*HttpOnly/i);
    expect(raw).toMatch(/;\s*SameSite=(Lax|Strict)/i);
    expect(raw).toMatch(/;\s*Path=\//i);
  });

  it("makes the token useless after logout", async () => {
    const { email, password } = await createVerifiedUser(w.t.database);
    const cookie = await logIn(w.t.app, email, password);
    const out = await w.t.app.inject({ method: "GET", url: "/api/logout", headers: { cookie } });
    expect(out.statusCode).toBe(302);
    expect((await me(cookie)).statusCode).toBe(401);
    const put = await w.t.app.inject({
      method: "POST",
      url: "/api/chat/send",
      headers: { cookie },
      payload: { message: "still here?" },
    });
    expect(put.statusCode).toBe(401);
  });

  it("ends every other session when the password changes, and after a reset ends them all", async () => {
    const { email, password, cookie } = await createVerifiedUser(w.t.database);
    const stolen = await logIn(w.t.app, email, password);
    await w.t.app.inject({ method: "POST", url: "/api/auth/send-password-otp", headers: { cookie } });
    const { code } = await sink.waitForMail(email, (m) => /password change code/i.test(m.subject));
    const newPassword = "Harbour-Violet-83-compass";
    const changed = await w.t.app.inject({
      method: "POST",
      url: "/api/auth/change-password",
      headers: { cookie },
      payload: { currentPassword: password, newPassword, otpCode: code },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(stolen)).statusCode).toBe(401);
    expect((await me(cookie)).statusCode).toBe(200);

    await w.t.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email } });
    const reset = await sink.waitForMail(email, (m) => /reset/i.test(m.subject));
    const done = await w.t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      payload: { email, resetCode: reset.code, newPassword: "Lantern-Orchid-29-summit" },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });
});

const MUTATING = Object.entries(CATALOGUE).filter(([key]) => !key.startsWith("GET "));
const JSON_BODY = MUTATING.filter(([, route]) => route.input?.body);

describe("CSRF", () => {
  const crossSite: [string, Record<string, string>][] = [
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["a look-alike Origin", { origin: "http://localhost.evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
  ];
  for (const [label, attack] of crossSite) {
    it(`refuses every state-changing route with ${label}: 403 and no write`, async () => {
      for (const [key, route] of MUTATING) {
        const role = route.access === "admin" ? "admin" : route.access === "user" ? "user" : "signedOut";
        const { headers, ...request } = await route.build(w, role);
        const auth = await signedInAs(w, role);
        const before = await snapshot(w);
        const res = await w.t.app.inject({
          method: key.split(" ")[0] as "POST",
          ...request,
          headers: { ...headers, ...auth, ...attack },
        });
        expect(res.statusCode, `${key} ${res.body}`).toBe(403);
        expect(res.json().message).toBe("Cross-site request refused");
        expect(await snapshot(w), key).toEqual(before);
      }
      // Every mutating route with two table snapshots each: ~14 s alone, past 30 s on a loaded machine.
    }, 120_000);
  }

  it("lets a same-origin request through", async () => {
    const res = await w.t.app.inject({
      method: "POST",
      url: "/api/chat/send",
      headers: {
        ...(await signedInAs(w, "user")),
        origin: "http://localhost:80",
        "sec-fetch-site": "same-origin",
      },
      payload: { message: "same origin" },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe("JSON only", () => {
  const types = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"];
  for (const contentType of types) {
    it(`answers 415 JSON to ${contentType.split(";")[0]} on every JSON route, and writes nothing`, async () => {
      for (const [key, route] of JSON_BODY) {
        const role = route.access === "admin" ? "admin" : route.access === "user" ? "user" : "signedOut";
        const { payload, ...request } = await route.build(w, role);
        const auth = await signedInAs(w, role);
        const before = await snapshot(w);
        const res = await w.t.app.inject({
          method: key.split(" ")[0] as "POST",
          ...request,
          headers: { ...auth, "content-type": contentType },
          payload: contentType.startsWith("application/x-www")
            ? new URLSearchParams(payload as Record<string, string>).toString()
            : JSON.stringify(payload),
        });
        expect(res.statusCode, `${key} ${res.body}`).toBe(415);
        expect(res.json()).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
        expect(await snapshot(w), key).toEqual(before);
      }
    }, 120_000);
  }
});

describe("rate limits at production values", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_SCALE: "1" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers 429 JSON with the spec message once a per-address limit is spent", async () => {
    const statuses: number[] = [];
    let last = null as Awaited<ReturnType<TestApp["app"]["inject"]>> | null;
    for (let i = 0; i < 11; i++) {
      last = await t.app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: {},
        remoteAddress: "10.9.0.1",
      });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(last!.statusCode).toBe(429);
    expect(last!.headers["content-type"]).toMatch(/^application\/json/);
    expect(last!.json()).toMatchObject({
      code: "RATE_LIMITED",
      message: "Too many requests. Please wait a moment and try again.",
    });
  });

  it("answers 429 with the spec message once a per-user limit is spent, and the refused message is not stored", async () => {
    const { cookie } = await createVerifiedUser(t.database);
    const send = () =>
      t.app.inject({
        method: "POST",
        url: "/api/chat/send",
        headers: { cookie },
        payload: { message: "spam" },
      });
    for (let i = 0; i < 30; i++) expect((await send()).statusCode).toBe(200);
    const count = async () => (await rows(t, "select id from chat_messages")).length;
    const stored = await count();
    const res = await send();
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: "RATE_LIMITED", message: AUTH_SERVER_MESSAGES.tooManyAttempts });
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(await count()).toBe(stored);
  });
});

describe("in production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(64),
      DATA_KEY: "b".repeat(64),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("uses a __Host- cookie, Secure, that a plain sid cookie cannot stand in for", async () => {
    const { email, password, cookie } = await createVerifiedUser(t.database);
    const res = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
    expect(res.statusCode).toBe(200);
    const raw = [res.headers["set-cookie"]].flat().find((c) => c?.startsWith("__Host-sid="))!;
    expect(raw).toMatch(/;\s*Secure/i);
    expect(raw).toMatch(/;\s*HttpOnly/i);
    expect(raw).not.toMatch(/;\s*Domain=/i);
    // createVerifiedUser's `sid=` cookie names a live session, but not under the production name.
    expect(
      (await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } })).statusCode,
    ).toBe(401);
    const hostCookie = sessionCookieFrom(res.headers["set-cookie"]);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: hostCookie } }))
        .statusCode,
    ).toBe(200);
  });

  it("hides the dev mailbox", async () => {
    for (const url of ["/dev/mailbox", "/dev/mailbox.json"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(typeof res.json().message).toBe("string");
    }
  });
});
