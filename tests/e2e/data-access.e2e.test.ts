import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { AUDIT_MESSAGES } from "@/contract/audit";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  newUser,
  randomSsn,
  shot,
  shots,
  signIn,
  signInAsAdmin,
  signUp,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { e2eServer } from "@/tests/e2e/support/server";
import { programArgs } from "@/tests/support/program";

const browser = setUpBrowser();

/**
 * A compliance officer made with the real ops CLI against the app's PostgreSQL database. On embedded PGlite
 * only the app process may open the database, so the journey falls back to the owner (shown as Owner).
 */
function grantCompliance(email: string): "Compliance" | "Owner" {
  const databaseUrl = e2eServer().databaseUrl;
  if (!databaseUrl) return "Owner";
  const root = path.resolve(import.meta.dirname, "../..");
  execFileSync(process.execPath, [...programArgs("scripts/cli.ts"), "staff:grant", email, "compliance"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "test", LOG_LEVEL: "silent" },
    stdio: "pipe",
  });
  return "Compliance";
}

describe("access to your data", () => {
  it("compliance reveals an SSN with a reason; the customer sees it in Settings with the role, not the name", async () => {
    const customer = await openPage(browser);
    const lastName = `Reveal${Date.now() % 100000}`;
    const ssn = randomSsn(500);
    const user = await signUpNewCustomer(customer.page, "Sofia", lastName);
    await applyThroughApi(customer.context.request, {
      firstName: "Sofia",
      lastName,
      street: "9 Privacy Lane",
      city: "Boston",
      state: "MA",
      zipCode: "02108",
      ssn,
    });

    // Before anyone looks, the card says so.
    await customer.page.goto("/settings");
    const card = customer.page.getByRole("region", { name: "Access to your data" });
    await card.getByText(AUDIT_MESSAGES.dataAccessEmpty).waitFor();

    // A compliance officer (or the owner) reveals the SSN from the KYC tab.
    const staff = await openPage(browser);
    const officer = newUser("Cora");
    let role: "Compliance" | "Owner";
    const databaseUrl = e2eServer().databaseUrl;
    if (databaseUrl) {
      await signUp(staff.page, { ...officer, lastName: "Officer" });
      role = grantCompliance(officer.email);
      await signIn(staff.page, officer.email);
    } else {
      role = "Owner";
      await signInAsAdmin(staff.page);
    }
    await staff.page.goto("/admin");
    await staff.page.getByRole("tab", { name: "KYC Applications" }).click();
    await staff.page.getByLabel("Search KYC applications").fill(user.email);
    const revealButton = staff.page.getByRole("button", { name: `Reveal the SSN of Sofia ${lastName}` });
    await revealButton.click();
    const dialog = staff.page.getByRole("dialog", { name: "Reveal full SSN" });
    await dialog.getByRole("button", { name: "Reveal SSN" }).click();
    await dialog.getByText(AUDIT_MESSAGES.reasonRequired).waitFor();
    const reason = "Customer asked us to confirm the SSN on file";
    await dialog.getByLabel("Reason").fill(reason);
    await dialog.getByRole("button", { name: "Reveal SSN" }).click();
    await dialog.getByText(ssn).waitFor();
    await shot(staff.page, "ssn-revealed-1280");
    await dialog.getByRole("button", { name: "Hide now" }).click();
    await expect.poll(() => staff.page.getByText(ssn).count()).toBe(0);

    // The date of birth the reviewer matches against the licence: masked to the year, revealed the same way.
    const row = staff.page.getByRole("listitem").filter({ hasText: `Sofia ${lastName}` });
    await row.getByText("**/**/1988").waitFor();
    await expect.poll(() => row.getByText("04/02/1988").count()).toBe(0);
    await row.getByRole("button", { name: `Reveal the date of birth of Sofia ${lastName}` }).click();
    const dobDialog = staff.page.getByRole("dialog", { name: "Reveal full date of birth" });
    const dobReason = "Matching the date of birth against the licence";
    await dobDialog.getByLabel("Reason").fill(dobReason);
    await dobDialog.getByRole("button", { name: "Reveal date of birth" }).click();
    await dobDialog.getByText("04/02/1988").waitFor();
    await shots(staff.page, "dob-revealed");
    await dobDialog.getByRole("button", { name: "Hide now" }).click();

    // The reveal is in the audit log.
    await staff.page.getByRole("tab", { name: "Audit" }).click();
    await staff.page.getByLabel("Customer").fill(user.email);
    await staff.page.getByRole("button", { name: "Search", exact: true }).click();
    await staff.page.getByRole("cell", { name: reason }).or(staff.page.getByText(reason)).first().waitFor();
    await expectAccessible(staff.page, "/admin (Audit tab)");
    await shot(staff.page, "admin-audit-1280");
    await staff.page.setViewportSize({ width: 375, height: 812 });
    await shot(staff.page, "admin-audit-375");

    // The customer sees the entry: what, the role and the reason; never who.
    await customer.page.goto("/settings");
    try {
      await card.getByText("Viewed your full Social Security number").waitFor({ timeout: 15_000 });
    } catch (err) {
      await customer.page.screenshot({ path: "/tmp/shots-e2e/debug-settings.png", fullPage: true });
      throw err;
    }
    await card.getByText("Viewed your full date of birth").waitFor({ timeout: 15_000 });
    await card.getByText(dobReason).waitFor({ timeout: 5_000 });
    await card.getByText(`Pillar ${role} team`).first().waitFor({ timeout: 5_000 });
    await card.getByText(reason).waitFor({ timeout: 5_000 });
    const text = await card.innerText();
    expect(text).not.toContain(officer.email);
    expect(text).not.toContain("Cora");
    expect(text).not.toContain(inject("adminEmail"));
    await expectAccessible(customer.page, "/settings (access to your data)");
    await shot(customer.page, "settings-data-access-1280");
    await customer.page.setViewportSize({ width: 375, height: 812 });
    await shot(customer.page, "settings-data-access-375");

    expect(customer.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await customer.context.close();
    await staff.context.close();
  }, 240_000);
});
