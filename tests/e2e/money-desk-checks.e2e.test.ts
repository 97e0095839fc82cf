import { generateSync } from "otplib";
import pg from "pg";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import {
  checkerRequest,
  newUser,
  openAccountThroughApi,
  shots,
  signIn,
  signInAsAdmin,
  signInUntilSecondFactor,
  signUp,
} from "@/tests/e2e/support/journeys";
import { e2eServer } from "@/tests/e2e/support/server";

// docs/architecture.md "Maker-checker" (the desk checks an amount and a reason before it asks for the second
// factor, so no code is spent on a call that could only fail) and "Design notes" (Total Balance follows money
// that moves elsewhere).

const browser = setUpBrowser();

async function sqlQuery(text: string, values: unknown[]) {
  const client = new pg.Client({ connectionString: e2eServer().databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The authenticator's code for now; the last used step is forgotten first, as if the next step had come. */
async function totpCode(email: string, secret: string) {
  await sqlQuery(
    "update totp_factors set last_used_step = null where user_id = (select id from users where lower(email) = lower($1))",
    [email],
  );
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });
}

async function choose(page: Page, trigger: Locator, option: string | RegExp) {
  await trigger.click();
  await page.getByRole("option", { name: option }).click();
}

describe.skipIf(!e2eServer().databaseUrl)("the money desk", () => {
  it("refuses a bad amount or a missing reason before asking a finance member with an authenticator for a code", {
    timeout: 150_000,
  }, async () => {
    const customer = newUser("Nora");
    const maker = newUser("Finn");
    const tracked = await openPage(browser);
    const { page } = tracked;
    await signUp(page, customer);
    await openAccountThroughApi(customer);
    await signUp(page, maker);
    await sqlQuery("update users set staff_roles = array['finance']::text[] where lower(email) = lower($1)", [
      maker.email,
    ]);
    await signIn(page, maker.email);
    const enrol = await tracked.context.request.post("/api/auth/totp/enroll");
    const { secret } = await enrol.json();
    const confirm = await tracked.context.request.post("/api/auth/totp/confirm", {
      data: { code: await totpCode(maker.email, secret) },
    });
    expect(confirm.status(), await confirm.text()).toBe(200);
    // Signed in again with the code: signing in is not a step-up, so money in asks for one.
    await page.goto("/api/logout");
    await signInUntilSecondFactor(page, maker.email);
    await page.getByLabel("Authentication code").fill(await totpCode(maker.email, secret));
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();
    // Another staff member credited $600 today: the customer's 24-hour window is what the server knows.
    const checker = await checkerRequest();
    const users = await checker.get(`/api/admin/users?q=${encodeURIComponent(customer.email)}`);
    const customerId = (await users.json()).items[0].id as string;
    const earlier = await checker.post("/api/admin/incoming-payments", {
      data: { userId: customerId, amount: "600.00", status: "completed" },
    });
    expect(earlier.status(), await earlier.text()).toBe(201);
    const stepUp = page.getByRole("dialog", { name: "Verify it's you" });

    await page.goto("/admin");
    await page.getByRole("tab", { name: "Incoming Payments" }).click();
    await page.getByRole("button", { name: "Create Incoming Payment" }).click();
    const create = page.getByRole("dialog", { name: "Create Incoming Payment" });
    await create.getByLabel("Search customers").fill(customer.email);
    await choose(page, create.locator("#create-payment-user"), new RegExp(customer.email));
    await choose(page, create.getByLabel("Status"), "Completed");
    // Completing moves money: the reason field shows from the start.
    await create.getByLabel("Reason for approval").waitFor();
    await create.getByLabel("Amount (USD)").fill("1e3");
    await create.getByRole("button", { name: "Create Payment" }).click();
    await create
      .locator("#create-payment-amount-error")
      .getByText("Amount must be a positive dollar amount with at most 2 decimals")
      .waitFor();
    // $500 alone is under the threshold; with the $600 it passes it, which only the server's check knows.
    await create.getByLabel("Amount (USD)").fill("500.00");
    await create.getByRole("button", { name: "Create Payment" }).click();
    await create
      .locator("#create-payment-reason-error")
      .getByText("Please give a reason: a second staff member reviews this change")
      .waitFor();
    expect(await stepUp.count()).toBe(0);
    await shots(page, "admin-create-payment-reason");
    // At 375 px the chosen customer's long "name · e-mail" truncates: the dialog never scrolls sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    const dialogWidths = () =>
      create.evaluate((dialog) => ({ client: dialog.clientWidth, scroll: dialog.scrollWidth }));
    await expect.poll(async () => (await dialogWidths()).scroll).toBe((await dialogWidths()).client);
    await page.setViewportSize({ width: 1280, height: 900 });
    await create.getByLabel("Reason for approval").fill("Wire confirmed by the sending bank");
    await create.getByRole("button", { name: "Send for Approval" }).click();
    // Only now, with every check passed, the code is asked for.
    await stepUp.waitFor();
    await stepUp.getByLabel("Authentication code").fill(await totpCode(maker.email, secret));
    await stepUp.getByRole("button", { name: "Verify", exact: true }).click();
    await toastWith(page, "Sent for approval").waitFor();

    // Edit Balance: a bad balance is refused under the field, no code asked (the step-up above is still
    // fresh, so it is made stale first: the editor must not reach the step-up either way).
    await sqlQuery(
      `update auth_challenges set expires_at = now() - interval '1 second'
        where purpose = 'step_up' and user_id = (select id from users where lower(email) = lower($1))`,
      [maker.email],
    );
    await page.getByRole("tab", { name: "User Management" }).click();
    await page.getByLabel("Search users").fill(customer.email);
    await page.getByRole("button", { name: `View details for ${customer.firstName} Tester` }).click();
    await page.getByRole("button", { name: "Edit Balance" }).click();
    await page.getByLabel("New account balance").fill("-5");
    await page.getByLabel("Reason for approval").fill("Correct a duplicated deposit");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Enter the new balance as a dollar amount, e.g. $1000.00").waitFor();
    expect(await page.getByLabel("New account balance").getAttribute("aria-invalid")).toBe("true");
    expect(await stepUp.count()).toBe(0);
    await shots(page, "admin-edit-balance-error");
    await page.getByLabel("New account balance").fill("$550.00");
    await page.getByRole("button", { name: "Save" }).click();
    await stepUp.waitFor();
    await stepUp.getByLabel("Authentication code").fill(await totpCode(maker.email, secret));
    await stepUp.getByRole("button", { name: "Verify", exact: true }).click();
    await toastWith(page, "Sent for approval").waitFor();

    await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).first().click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Approvals" }).click();
    await page.getByText("Set the balance from $600.00 to $550.00").first().waitFor();
    await shots(page, "admin-approvals-tab");
    expect(tracked.errors).toEqual([]);
    await checker.dispose();
    await tracked.context.close();
  });

  it("moves Total Balance when money moves elsewhere, without a reload", { timeout: 90_000 }, async () => {
    const customer = newUser("Tia");
    const tracked = await openPage(browser);
    const { page } = tracked;
    await signUp(page, customer);
    await openAccountThroughApi(customer);
    await page.goto("/api/logout");
    await signInAsAdmin(page);
    await page.goto("/admin");
    const card = page.getByRole("listitem").filter({ hasText: "Total Balance" });
    const before = (await (await page.request.get("/api/admin/stats")).json()).totalBalance as string;
    await card.getByText(before, { exact: true }).waitFor();

    // Another staff member credits the customer: nothing on this page acted.
    const checker = await checkerRequest();
    const users = await checker.get(`/api/admin/users?q=${encodeURIComponent(customer.email)}`);
    const customerId = (await users.json()).items[0].id as string;
    const credit = await checker.post("/api/admin/incoming-payments", {
      data: { userId: customerId, amount: "12.34", status: "completed" },
    });
    expect(credit.status(), await credit.text()).toBe(201);
    const after = (await (await page.request.get("/api/admin/stats")).json()).totalBalance as string;
    expect(after).not.toBe(before);
    await card.getByText(after, { exact: true }).waitFor({ timeout: 40_000 });
    expect(tracked.errors).toEqual([]);
    await checker.dispose();
    await tracked.context.close();
  });
});
