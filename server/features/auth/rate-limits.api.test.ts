import { describe, expect, it } from "vitest";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser } from "@/tests/support/users";

// RATE_LIMIT_SCALE=1: the production limits. Each test uses its own client address.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "1" });

const login = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password }, remoteAddress });

describe("rate limits", () => {
  it("stops a password-guessing run from one address with 429 JSON", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await login(email, `Guess-${i}-wrong-pass`, "10.0.0.1")).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const blocked = await login(email, password, "10.0.0.1");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["content-type"]).toMatch(/application\/json/);
    expect(blocked.json()).toMatchObject({ code: "RATE_LIMITED" });
  });

  it("stops guessing one account's password from many addresses", async () => {
    const { email } = await createVerifiedUser(t.database);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await login(email, `Guess-${i}-wrong-pass`, `10.1.0.${i}`)).statusCode);
    expect(statuses.at(-1)).toBe(429);
    const res = await login(email, "whatever-it-is", "10.1.1.1");
    expect(res.json().message).toBe(AUTH_SERVER_MESSAGES.tooManyAttempts);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("limits forgot-password and registration too", async () => {
    const forgot: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/forgot-password",
        payload: { email: `someone${i}@example.com` },
        remoteAddress: "10.2.0.1",
      });
      forgot.push(res.statusCode);
    }
    expect(forgot.at(-1)).toBe(429);
    const register: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: {},
        remoteAddress: "10.3.0.1",
      });
      register.push(res.statusCode);
    }
    expect(register.at(-1)).toBe(429);
  });
});
