import { describe, expect, it } from "vitest";
import { DASHBOARD_FIRST_READS } from "@/contract/first-page";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import { signUpNewCustomer } from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

/**
 * A signed-in first load carries the answers to the dashboard's first reads and the page the server drew from
 * them (server/lib/spa.ts); its script loads once the page has painted (web/after-paint.ts) and hydrates it.
 * The page must be readable before any script, become interactive without asking again or logging an
 * error, and a signed-out visitor must ask none of them nor download the dashboard's code.
 */
describe("the dashboard's first load", () => {
  it("takes its reads from the HTML without asking, fetches the dashboard chunk once, and shows their data", async () => {
    const { page, errors } = await openPage(browser, 390);
    await signUpNewCustomer(page, "Early");
    // Signing in lands on a drawn dashboard whose script is still loading: let that page finish first.
    await page.waitForLoadState("networkidle");

    const gets: string[] = [];
    const order: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/") && request.method() === "GET") gets.push(url.pathname);
      if (url.pathname.startsWith("/api/") || /dashboard-page-/.test(url.pathname)) order.push(url.pathname);
    });
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: /Welcome/ }).waitFor();
    await page.waitForLoadState("networkidle");

    // The first answers came inside the page; a read asked here would be a second copy of one.
    for (const path of DASHBOARD_FIRST_READS) expect(gets, path).not.toContain(path);
    // The chunk is asked for once, by the URL the drawn page names (web/app/router.tsx), before any read.
    expect(order.filter((p) => /dashboard-page-/.test(p))).toHaveLength(1);
    expect(order[0]).toMatch(/dashboard-page-/);
    expect(errors).toEqual([]);
  });

  it("is readable before its script runs, then interactive, and drawn again as this device left it", async () => {
    const { page, context, errors } = await openPage(browser, 390);
    await signUpNewCustomer(page, "Drawn");

    // Without script at all: the server's drawing is the whole overview.
    const noScript = await browser.newContext({
      baseURL: new URL(page.url()).origin,
      javaScriptEnabled: false,
      storageState: await context.storageState(),
    });
    const still = await noScript.newPage();
    await still.goto("/dashboard");
    await still.getByRole("heading", { name: "Welcome back, Drawn!" }).waitFor();
    await still.getByText("Protect your account with two-step verification").waitFor();
    await still.getByRole("link", { name: "Apply Checking Account" }).waitFor();
    expect(await still.locator("#root[data-server-rendered]").count()).toBe(1);
    await noScript.close();

    // With script: hydrated (the cards below the overview are drawn by the browser alone), with no error.
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: "Quick Actions" }).waitFor();
    await page.getByRole("button", { name: "Dismiss the two-step verification tip" }).click();
    await expect
      .poll(() => page.getByText("Protect your account with two-step verification").count())
      .toBe(0);
    // The dismissal is this device's cookie, so the server's next drawing leaves the tip out too.
    const html = await (await page.request.get("/dashboard")).text();
    expect(html).toContain("data-server-rendered");
    expect(html).toContain("Welcome back, Drawn!");
    expect(html).not.toContain("Protect your account with two-step verification");
    expect(errors).toEqual([]);
  });

  it("asks none of them, and no dashboard code, for a signed-out visitor", async () => {
    const { page, errors } = await openPage(browser, 390);
    const gets: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/") || /dashboard-page-/.test(url.pathname)) gets.push(url.pathname);
    });
    await page.goto("/dashboard");
    await page.waitForURL(/\/auth\?next=/);
    await page.waitForLoadState("networkidle");
    expect(gets).toEqual([]);
    expect(errors).toEqual([]);
  });
});
