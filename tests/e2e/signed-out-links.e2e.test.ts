import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  checkerRequest,
  creditCustomer,
  openAccountThroughApi,
  PASSWORD,
  requestTransferThroughApi,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { SIGNED_IN_ROUTES } from "@/web/lib/signed-in-routes";

const browser = setUpBrowser();

/** A concrete path for a route pattern: its parameters filled in, a trailing `*?` left empty. */
const examplePath = (route: string) => route.replace(/\/\*\?$/, "").replace(/:[a-zA-Z]\w*/g, "abc-123");

/** Waits for /auth?next=<path> (the path exactly, query included) and its sign-in form. */
async function expectAskedToSignIn(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("next") === path);
  await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
  expect(await page.getByText("Page Not Found").count()).toBe(0);
}

/** Signs in with the form on the page it is on (/auth?next=…). */
async function signInHere(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

describe("links to signed-in pages, opened signed out", () => {
  it("every page of the route table asks to sign in and names the page to return to", async () => {
    const { page, context, errors } = await openPage(browser, 375);
    for (const route of SIGNED_IN_ROUTES) {
      const path = examplePath(route);
      await page.goto(path);
      await expectAskedToSignIn(page, path);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an e-mail's /schedules link and a receipt's link come back to their page after sign-in", async () => {
    const customer = await openPage(browser);
    const user = await signUpNewCustomer(customer.page, "Dora");
    await openAccountThroughApi(user);
    // The account is open but empty: a transfer needs money, so the checker funds it.
    const staff = await checkerRequest();
    const me = await (await customer.context.request.get("/api/auth/user")).json();
    await creditCustomer(staff, me.id, "40.00", "Payroll");
    await staff.dispose();
    const transferId = (await requestTransferThroughApi(customer.context.request, "12.50")).id;
    await customer.context.close();

    const { page, context, errors } = await openPage(browser);
    await page.goto("/schedules");
    await expectAskedToSignIn(page, "/schedules");
    await signInHere(page, user.email);
    await page.waitForURL((url) => url.pathname === "/schedules");
    await page.getByRole("heading", { level: 1, name: "Scheduled transfers" }).waitFor();

    await page.goto("/api/logout");
    await page.waitForURL((url) => url.pathname === "/auth");
    const receipt = `/transfers/${transferId}`;
    await page.goto(receipt);
    await expectAskedToSignIn(page, receipt);
    await signInHere(page, user.email);
    await page.waitForURL((url) => url.pathname === receipt);
    await page.getByRole("heading", { name: "USDC transfer to Ana Ruiz", level: 1 }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
