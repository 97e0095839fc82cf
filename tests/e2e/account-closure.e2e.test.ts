import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  openAccountThroughApi,
  PASSWORD,
  shots,
  signIn,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

// Decision 059 in the browser: a customer empties their account, closes it from Settings with
// their password, signs in again to a read-only dashboard and downloads this month's statement.
describe("Closing an account", () => {
  it("closes from Settings, keeps the sign-in, shows the closed banner and downloads a statement", async () => {
    const customer = await openPage(browser);
    const user = await signUpNewCustomer(customer.page, "Cleo", "Closer");
    const applied = await applyThroughApi(customer.context.request, {
      firstName: "Cleo",
      lastName: "Closer",
    });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "25.00");
    // Compliance (here the owner) try to close it while it holds money: refused, in words saying what to do.
    await admin.page.goto("/admin");
    await admin.page.getByLabel("Search users").fill(user.email);
    await admin.page.getByRole("button", { name: "View details for Cleo Closer" }).click();
    const details = admin.page.getByRole("dialog", { name: "User Details" });
    await details.getByRole("button", { name: "Close account" }).click();
    const ask = admin.page.getByRole("dialog", { name: "Close Cleo Closer's account?" });
    await ask.getByLabel("Reason for closing").fill("Customer asked by phone");
    await shots(admin.page, "closure-admin-dialog");
    await expectAccessible(admin.page, "the back office's close-account dialog");
    await ask.getByRole("button", { name: "Close account" }).click();
    await toastWith(admin.page, /Send it out first/).waitFor();
    await ask.getByRole("button", { name: "Cancel" }).click();

    const friend = await openPage(browser);
    const friendUser = await signUpNewCustomer(friend.page, "Finn", "Friend");
    await openAccountThroughApi(friendUser);
    // Send everything out first, as the refusal asks: the account then has history and a zero balance.
    const paid = await customer.context.request.post("/api/transfer/tag-payments", {
      data: { tag: `$${friendUser.tag}`, amount: "25.00" },
      headers: { "Idempotency-Key": `closure-e2e-${user.tag}` },
    });
    expect(paid.status(), await paid.text()).toBe(201);

    await customer.page.goto("/settings#close-account");
    const card = customer.page.getByRole("region", { name: "Close account" });
    await card.getByText("Your balance must be $0.00: send any money out first.").waitFor();
    await shots(customer.page, "closure-settings");
    await card.getByRole("button", { name: "Close account" }).click();
    const confirm = customer.page.getByRole("alertdialog", { name: "Close your account?" });
    await confirm.getByRole("button", { name: "Close my account" }).click();
    const password = customer.page.getByRole("dialog", { name: "Confirm with your password" });
    await password.getByLabel("Password").fill(PASSWORD);
    await password.getByRole("button", { name: "Confirm" }).click();
    await card.getByText(/^Your account was closed on /).waitFor();
    await expectAccessible(customer.page, "/settings, a closed account");

    // A new sign-in: the login stays, the dashboard says the account is closed and offers no money actions.
    await customer.context.clearCookies();
    await customer.page.goto("/auth");
    await signIn(customer.page, user.email);
    await customer.page.goto("/dashboard");
    await customer.page.getByRole("heading", { name: /^This account was closed on / }).waitFor();
    const send = customer.page
      .getByText("Send Money", { exact: true })
      .locator("xpath=ancestor::*[@aria-disabled='true'][1]");
    await expect(send.count()).resolves.toBe(1);
    await expectAccessible(customer.page, "/dashboard, a closed account");
    await shots(customer.page, "closure-dashboard");

    await customer.page.getByRole("link", { name: "Download your statements" }).click();
    await customer.page.getByRole("heading", { name: "Monthly statements" }).waitFor();
    const [download] = await Promise.all([
      customer.page.waitForEvent("download"),
      customer.page
        .getByRole("link", { name: /Download PDF statement/ })
        .first()
        .click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^pillar-statement-\d{4}-\d{2}\.pdf$/);
    const pdfFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pillar-e2e-closure-")), "statement.pdf");
    await download.saveAs(pdfFile);
    expect(fs.readFileSync(pdfFile).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // .ci/run installs poppler-utils for the statement tests; a workstation without it still checks the download.
    if (fs.existsSync("/usr/bin/pdftotext")) {
      const statement = execFileSync("pdftotext", ["-layout", pdfFile, "-"], { encoding: "utf8" });
      expect(statement).toMatch(/Closing balance\s+\$0\.00/);
      expect(statement).toMatch(/\$25\.00/);
    }
  }, 240_000);
});
