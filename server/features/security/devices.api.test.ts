import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@/contract/auth";
import { hashFreezeToken } from "@/server/features/security/freeze-links";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser } from "@/tests/support/users";

// RATE_LIMIT_SCALE=1: the production login limits. Each test uses its own client addresses.
const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "1" }));

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** A browser: its own device cookie jar, user agent and address. */
function browser(userAgent: string, remoteAddress: string) {
  let device: string | undefined;
  return {
    get device() {
      return device;
    },
    async login(email: string, password: string) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email, password },
        remoteAddress,
        headers: { "user-agent": userAgent, ...(device ? { cookie: `pillar_device=${device}` } : {}) },
      });
      const set = [res.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith("pillar_device="));
      if (set) device = /^pillar_device=([^;]+)/.exec(set)![1];
      return res;
    },
  };
}

const newDeviceMails = async (email: string) =>
  (
    await t.database.query<{ n: number }>(
      "select count(*)::int as n from mail_outbox where kind = 'new_device' and to_address = $1",
      [email],
    )
  )[0]!.n;

describe("known browsers and new-device alerts", () => {
  it("gives every signed-in browser a long-lived HttpOnly device cookie, and the account's first browser no alert", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const res = await browser(FIREFOX_LINUX, "10.20.0.1").login(email, password);
    expect(res.statusCode).toBe(200);
    const cookie = [res.headers["set-cookie"]].flat().find((c) => c?.startsWith("pillar_device="))!;
    expect(cookie).toMatch(/^pillar_device=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=34560000/);
    expect(await newDeviceMails(email)).toBe(0);
  });

  it("mails the owner when a browser not seen on the account signs in: time, browser, place and a link", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const home = browser(FIREFOX_LINUX, "10.21.0.1");
    expect((await home.login(email, password)).statusCode).toBe(200);
    const stranger = browser(CHROME_WINDOWS, "203.0.113.7");
    expect((await stranger.login(email, password)).statusCode).toBe(200);

    const mail = await sink.waitForMail(email, (m) => m.subject.includes("new sign-in"));
    expect(mail.subject).toContain("Chrome 120 on Windows");
    expect(mail.text).toContain("Browser: Chrome 120 on Windows");
    expect(mail.text).toContain("Approximate place: IP 203.0.113.7");
    expect(mail.text).toMatch(/Time: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M ET/);
    const token = /this-wasnt-me#token=([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    // Outside production PUBLIC_URL defaults to http://localhost:PORT: the link opens where passkeys work.
    expect(mail.text).toContain(`http://localhost:5000/this-wasnt-me#token=${token}`);
    expect(mail.html).toContain(`this-wasnt-me#token=${token}`);
    const rows = await t.database.query<{ reason: string; days: number; used_at: Date | null }>(
      "select reason, round(extract(epoch from expires_at - created_at) / 86400)::int as days, used_at from freeze_links where token_hash = $1",
      [hashFreezeToken(token!)],
    );
    expect(rows).toEqual([{ reason: "new_device", days: 7, used_at: null }]);

    // The same browser again is known: no second mail.
    expect((await stranger.login(email, password)).statusCode).toBe(200);
    expect((await home.login(email, password)).statusCode).toBe(200);
    expect(await newDeviceMails(email)).toBe(1);
  });

  it("says 'local network' for a private address", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    await browser(FIREFOX_LINUX, "10.22.0.1").login(email, password);
    await browser(CHROME_WINDOWS, "192.168.1.20").login(email, password);
    const mail = await sink.waitForMail(email, (m) => m.subject.includes("new sign-in"));
    expect(mail.text).toContain("IP 192.168.1.20 (this device's local network)");
  });

  it("renews the device value at each sign-in, so a copied old value no longer counts as known", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const home = browser(FIREFOX_LINUX, "10.23.0.1");
    await home.login(email, password);
    const first = home.device!;
    await home.login(email, password);
    expect(home.device).not.toBe(first);
    expect(await newDeviceMails(email)).toBe(0);
    const copy = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password },
      remoteAddress: "10.23.0.2",
      headers: { "user-agent": CHROME_WINDOWS, cookie: `pillar_device=${first}` },
    });
    expect(copy.statusCode).toBe(200);
    expect(await newDeviceMails(email)).toBe(1);
  });

  it("sends no alert and sets no device cookie when the password is wrong", async () => {
    const { email } = await createVerifiedUser(t.database);
    const res = await browser(CHROME_WINDOWS, "10.24.0.1").login(email, "Wrong-password-123");
    expect(res.statusCode).toBe(401);
    expect([res.headers["set-cookie"] ?? []].flat().some((c) => c.startsWith("pillar_device="))).toBe(false);
  });
});

describe("login throttling that never locks the owner out", () => {
  it("lets the owner's known browser sign in while a stranger's guesses are refused", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const owner = browser(FIREFOX_LINUX, "10.30.0.1");
    expect((await owner.login(email, password)).statusCode).toBe(200);

    // Wrong passwords from eleven addresses fill the account's shared bucket (the owner's first sign-in, from a
    // browser not yet known, counted in it too).
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await browser(CHROME_WINDOWS, `10.31.0.${i}`).login(email, `Guess-${i}-wrong`)).statusCode,
      );
    }
    expect(statuses).toEqual([...Array(9).fill(401), 429, 429]);
    // A stranger's browser with the right password is still refused: per-account throttling stays.
    expect((await browser(CHROME_WINDOWS, "10.31.1.1").login(email, password)).statusCode).toBe(429);
    // The owner's browser counts on its own.
    const back = await owner.login(email, password);
    expect(back.statusCode, back.body).toBe(200);
  });

  it("still limits guesses from a known browser, on its own bucket", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const owner = browser(FIREFOX_LINUX, "10.32.0.1");
    await owner.login(email, password);
    const statuses: number[] = [];
    // The cookie is renewed only on success, so every wrong try comes with the same known value.
    for (let i = 0; i < 11; i++) statuses.push((await owner.login(email, `Guess-${i}-wrong`)).statusCode);
    expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("answers a known browser and a stranger alike for a wrong password (no oracle)", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const owner = browser(FIREFOX_LINUX, "10.33.0.1");
    await owner.login(email, password);
    const known = await owner.login(email, "Wrong-password-123");
    const stranger = await browser(CHROME_WINDOWS, "10.33.0.2").login(email, "Wrong-password-123");
    expect(known.statusCode).toBe(401);
    expect(stranger.statusCode).toBe(401);
    const { requestId: _a, ...a } = known.json();
    const { requestId: _b, ...b } = stranger.json();
    expect(a).toEqual(b);
    expect(a.message).toBe(AUTH_MESSAGES.invalidCredentials);
  });
});
