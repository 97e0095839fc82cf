import { describe, expect, it } from "vitest";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser } from "@/tests/support/users";

// docs/architecture.md "Design notes" (logout): another site could sign a customer out with a link or an
// <img> to GET /api/logout.
const t = setUpTestApp();

const whoAmI = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
const logout = (cookie: string, headers: Record<string, string> = {}, method: "GET" | "POST" = "GET") =>
  t.app.inject({ method, url: "/api/logout", headers: { cookie, ...headers } });

describe("GET /api/logout", () => {
  it.each([
    ["from our own pages", { "sec-fetch-site": "same-origin" }],
    ["typed in the address bar or from a bookmark", { "sec-fetch-site": "none" }],
    ["from a browser that sends no Sec-Fetch-Site", {}],
  ])("signs out %s", async (_how, headers) => {
    const { cookie } = await createVerifiedUser(t.database);
    const res = await logout(cookie, headers);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/auth?signedOut=1");
    expect((await whoAmI(cookie)).statusCode).toBe(401);
  });

  it.each(["cross-site", "same-site"])(
    "refuses a %s navigation with a page offering a real sign-out button, and signs nobody out",
    async (site) => {
      const { cookie } = await createVerifiedUser(t.database);
      const res = await logout(cookie, { "sec-fetch-site": site, "sec-fetch-mode": "navigate" });
      expect(res.statusCode).toBe(403);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.headers["set-cookie"]).toBeUndefined();
      expect(res.body).toContain('<form method="post" action="/api/logout">');
      expect(res.body).toContain('<button type="submit">Sign out</button>');
      expect(res.headers["content-security-policy"]).toContain("form-action 'self'");
      expect(res.headers["content-security-policy"]).not.toContain("script-src");
      expect((await whoAmI(cookie)).statusCode).toBe(200);
    },
  );
});

describe("POST /api/logout (the page's button)", () => {
  it("signs out when the form is sent from our own page, empty form body and all", async () => {
    const { cookie } = await createVerifiedUser(t.database);
    const res = await logout(
      cookie,
      {
        "sec-fetch-site": "same-origin",
        origin: "http://localhost:80",
        "content-type": "application/x-www-form-urlencoded",
        "content-length": "0",
      },
      "POST",
    );
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe("/auth?signedOut=1");
    expect((await whoAmI(cookie)).statusCode).toBe(401);
  });

  it("is refused from another site like every mutation", async () => {
    const { cookie } = await createVerifiedUser(t.database);
    const refusals: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { origin: "https://evil.example" },
    ];
    for (const headers of refusals) {
      const res = await logout(cookie, headers, "POST");
      expect(res.statusCode).toBe(403);
      expect((await whoAmI(cookie)).statusCode).toBe(200);
    }
  });
});
