import { describe, expect, it } from "vitest";
import { DASHBOARD_FIRST_READS } from "@/contract/first-page";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import { signUpNewCustomer } from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

/**
 * On a signed-in first load the HTML lists the dashboard's chunks as modulepreload links and carries the
 * answers to its first reads (server/lib/spa.ts): the page must render them without asking again, and
 * a signed-out visitor must ask none of them nor download the dashboard's code.
 */
describe("the dashboard's first load", () => {
  it("takes its reads from the HTML without asking, fetches the dashboard chunk once, and shows their data", async () => {
    const { page, errors } = await openPage(browser, 390);
    await signUpNewCustomer(page, "Early");

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
    // The parser finds the chunk before any script runs; the preload helper must not ask for it a second time.
    expect(order.filter((p) => /dashboard-page-/.test(p))).toHaveLength(1);
    expect(order[0]).toMatch(/dashboard-page-/);
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
