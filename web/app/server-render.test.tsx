import { describe, expect, it } from "vitest";
import type { FirstRead } from "@/contract/first-page";
import { renderFirstPage } from "@/web/app/server-render";

/** What the server embeds for a customer with $1,234.56, no identity check yet and no second factor. */
const answers: Record<string, FirstRead> = {
  "/api/auth/user": {
    body: {
      id: "u-1",
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      pillarTag: "ada",
      phoneNumber: "+1 212 555 0100",
      isAdmin: false,
      isFrozen: false,
      secondFactorEnabled: false,
    },
  },
  "/api/dashboard-content": {
    body: {
      welcomeTitle: "Welcome back!",
      welcomeMessage: "Here's your account overview",
      balanceLabel: "Total Balance",
      availableLabel: "Available",
      pendingLabel: "Pending",
      cardName: "$ada",
      transactionTitle: "Recent Transactions",
      quickActionTitle: "Quick Actions",
    },
  },
  "/api/account/summary": { body: { balanceCents: 123456, availableCents: 120000, pendingCents: 3456 } },
  "/api/kyc/status": { body: { kyc: null, accountRequest: null } },
};

describe("the server's drawing of a first load", () => {
  it("draws the dashboard from the answers, with no script in it", async () => {
    const html = await renderFirstPage({ path: "/dashboard", answers, cookies: "" });
    expect(html).toContain("Welcome back, Ada!");
    expect(html).toContain("$1,234.56");
    expect(html).toContain("Protect your account with two-step verification");
    expect(html).toContain("Apply Checking Account");
    expect(html).not.toContain("<script");
    // The same page on /, the other path a signed-in first load draws.
    expect(await renderFirstPage({ path: "/", answers, cookies: "" })).toBe(html);
  });

  it("leaves out the two-step tip this device dismissed", async () => {
    const html = await renderFirstPage({
      path: "/dashboard",
      answers,
      cookies: "sid=x; pillar_2fa_tip_dismissed=1",
    });
    expect(html).toContain("Welcome back, Ada!");
    expect(html).not.toContain("Protect your account with two-step verification");
  });

  it("escapes what a customer wrote", async () => {
    const user = answers["/api/auth/user"]!.body as Record<string, unknown>;
    const html = await renderFirstPage({
      path: "/dashboard",
      answers: {
        ...answers,
        "/api/auth/user": { body: { ...user, firstName: "<img src=x onerror=alert(1)>" } },
      },
      cookies: "",
    });
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<img");
  });

  it("gives up when its time is over, so the browser draws the page instead", async () => {
    await expect(
      renderFirstPage({ path: "/dashboard", answers, cookies: "", signal: AbortSignal.abort() }),
    ).rejects.toBeDefined();
  });
});
