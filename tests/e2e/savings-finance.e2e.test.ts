import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { backdateSavings, runCli } from "@/tests/e2e/support/savings";
import { e2eServer } from "@/tests/e2e/support/server";

const browser = setUpBrowser();

/** A New York day `days` after today. */
function dayFromToday(days: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

describe("the back office's Savings tab", () => {
  it("shows deposits, interest and the forecast, and takes an owner's rate proposal for approval", async () => {
    const customer = await openPage(browser);
    await signUpNewCustomer(customer.page, "Fina", "Saver");
    const applied = await applyThroughApi(customer.context.request, { firstName: "Fina", lastName: "Saver" });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "1000.00");
    expect((await customer.context.request.post("/api/savings")).status()).toBe(201);
    const moved = await customer.context.request.post("/api/savings/moves", {
      data: { direction: "to_savings", amount: "400" },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(moved.status()).toBe(201);
    const databaseUrl = e2eServer().databaseUrl;
    if (databaseUrl) {
      const overview = await (await customer.context.request.get("/api/savings")).json();
      await backdateSavings(databaseUrl, overview.account.id, 10);
      runCli(databaseUrl, ["interest:accrue"]);
    }

    const { page, errors } = admin;
    await page.getByRole("tab", { name: "Savings" }).click();
    await page.getByText("Savings deposits").waitFor();
    await page.getByText(/Interest expense forecast/).waitFor();
    await page.getByRole("list", { name: "Savings rate history" }).waitFor();
    await page.locator('[data-slot="tax-form-runs"]').waitFor();
    if (databaseUrl) await page.getByRole("table", { name: "Savings interest by day" }).waitFor();
    await expectAccessible(page, "/admin (Savings tab)");

    // The last ended year's Form 1099-INT run: started here, worked by the jobs room, its figures shown when done.
    const taxCard = page.locator('[data-slot="tax-form-runs"]');
    const taxYear = (await (await admin.context.request.get("/api/admin/tax-forms/runs")).json()).taxYear;
    await taxCard.getByRole("button", { name: new RegExp(`^(Run ${taxYear}|Run again)$`) }).click();
    await taxCard.getByText("Done", { exact: true }).waitFor({ timeout: 30_000 });
    await taxCard.getByText(new RegExp(`forms in force for ${taxYear}`)).waitFor();
    await expectAccessible(page, "/admin (Savings tab, 1099-INT run done)");

    // The owner's proposal: sent for approval, listed as waiting, with a way to the Approvals tab.
    const form = page.getByRole("form", { name: "Propose a new savings rate" });
    await form.getByLabel("APY (%)").fill("3.10");
    await form.getByLabel("Effective from").fill(dayFromToday(20));
    await form.getByLabel("Reason").fill("ALCO decision, November");
    await form.getByRole("button", { name: "Send for approval" }).click();
    await form.getByText("Sent for approval: nothing changes until a second member approves it.").waitFor();
    const history = page.getByRole("list", { name: "Savings rate history" });
    await history.getByText("3.10%").waitFor();
    await history.getByText("waiting for approval").first().waitFor();
    await shots(page, "admin-savings-tab");
    await expectAccessible(page, "/admin (Savings tab, rate proposed)");
    await history.getByRole("button", { name: "Waiting in Approvals" }).first().click();
    await page.getByText("Savings rate change").first().waitFor();
    expect(errors).toEqual([]);
  }, 300_000);
});
