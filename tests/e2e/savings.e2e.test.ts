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
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { backdateSavings, runCli } from "@/tests/e2e/support/savings";
import { e2eServer } from "@/tests/e2e/support/server";

const browser = setUpBrowser();

describe("savings", () => {
  it("opens from the dashboard, moves money both ways with goals, refuses too much as typed, and earns interest", async () => {
    const { page, context, errors } = await openPage(browser);
    await signUpNewCustomer(page, "Sasha", "Saver");
    const applied = await applyThroughApi(context.request, { firstName: "Sasha", lastName: "Saver" });

    // Before checking is open there is nothing to move money from: the button says why it is off.
    await page.goto("/savings");
    await page.getByText("2.50% APY", { exact: true }).waitFor();
    await page.getByText("Variable rate; it may change after the account is opened.").waitFor();
    const openButton = page.getByRole("button", { name: "Open savings account" });
    await page.getByText("Open your checking account first: savings moves money to and from it.").waitFor();
    expect(await openButton.isDisabled()).toBe(true);
    await shots(page, "savings-not-open-blocked");

    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "1000.00");
    console.info("e2e savings: customer approved and funded");

    // The dashboard offers savings at the server's rate; its link opens the page.
    await page.goto("/dashboard");
    const offer = page.getByRole("link", { name: "Open savings — earn 2.50% APY" });
    await offer.waitFor();
    await shots(page, "savings-dashboard-offer");
    await offer.click();
    await page.waitForURL("**/savings");
    await expect.poll(() => openButton.isEnabled()).toBe(true);
    await expectAccessible(page, "/savings not open yet");
    await shots(page, "savings-not-open");
    await openButton.click();
    const balanceHeading = page.getByRole("heading", { name: "Savings balance", level: 1 });
    await balanceHeading.waitFor();
    await toastWith(page, "Savings account opened").waitFor();

    const notificationTitles = async () =>
      ((await (await context.request.get("/api/notifications")).json()).items as { title: string }[]).map(
        (item) => item.title,
      );

    // $500 to savings: the figures on both sides move, said in the live region, and focus lands on the balance.
    const amount = page.getByLabel("Amount", { exact: true });
    await page.getByText("$1,000.00 available in Checking.").waitFor();
    await amount.fill("500");
    await page.getByRole("button", { name: "Move to Savings" }).click();
    await page
      .getByRole("status")
      .getByText("Money moved. $500.00 moved to Savings.", { exact: true })
      .waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Savings balance");
    const balances = page.locator("dl").filter({ hasText: "Checking available" });
    await balances.getByText("$500.00").first().waitFor();
    await expect.poll(() => balances.locator("dd").allTextContents()).toEqual(["$500.00", "$500.00"]);
    expect(await amount.inputValue()).toBe("");
    console.info("e2e savings: $500 moved");

    // The dashboard shows both accounts, and checking's history says where the money went.
    await page.goto("/dashboard");
    const savingsLink = page.getByRole("link", { name: /Savings\s*\$500\.00\s*2\.50% APY/ });
    await savingsLink.waitFor();
    await page.getByText("To Savings").first().waitFor();
    const summary = await (await context.request.get("/api/account/summary")).json();
    expect(summary.availableBalance).toBe("$500.00");
    await shots(page, "savings-dashboard");

    // A goal, then a move that names it.
    await savingsLink.click();
    await page.waitForURL("**/savings");
    await page.getByLabel("Name", { exact: true }).fill("Emergency fund");
    await page.getByLabel("Target", { exact: true }).fill("2000");
    await page.getByLabel("Target date (optional)").fill("2027-06-30");
    await page.getByRole("button", { name: "Add goal" }).click();
    await page.getByRole("status").getByText("Goal added: Emergency fund.").waitFor();
    await page.getByRole("progressbar", { name: "Emergency fund: $0.00 of $2,000.00" }).waitFor();
    await page.getByLabel("Goal (optional)").selectOption({ label: "Emergency fund" });
    await amount.fill("250");
    await page.getByRole("button", { name: "Move to Savings" }).click();
    await page
      .getByRole("status")
      .getByText("Money moved. $250.00 moved to Savings for Emergency fund.", { exact: true })
      .waitFor();
    await page.getByRole("progressbar", { name: "Emergency fund: $250.00 of $2,000.00" }).waitFor();
    await page.getByText("$750.00").first().waitFor();
    console.info("e2e savings: goal made and named");

    // Too much: the server's words under the field, and the amount kept as typed.
    await amount.fill("5000");
    await page.getByRole("button", { name: "Move to Savings" }).click();
    await page
      .locator("#move-amount-error")
      .getByText("Not enough available in Checking for this move ($250.00 available)")
      .waitFor();
    expect(await amount.inputValue()).toBe("5000");
    expect(await amount.getAttribute("aria-invalid")).toBe("true");
    expect(await amount.getAttribute("aria-describedby")).toContain("move-amount-error");
    await expectAccessible(page, "/savings with a refused move");
    await shots(page, "savings-refused");

    // And back: savings → checking.
    // The direction switch is a radio group: the arrow keys choose, as a keyboard user expects.
    await page.getByRole("radio", { name: "Checking to Savings" }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.getByRole("radio", { name: "Savings to Checking" }).isChecked()).toBe(true);
    await page.getByText("$750.00 available in Savings.").waitFor();
    await amount.fill("100.50");
    await page.getByRole("button", { name: "Move to Checking" }).click();
    await page
      .getByRole("status")
      .getByText("Money moved. $100.50 moved to Checking.", { exact: true })
      .waitFor();
    await expect.poll(() => balances.locator("dd").allTextContents()).toEqual(["$350.50", "$649.50"]);
    await expectAccessible(page, "/savings open with a goal");
    await shots(page, "savings-open");

    // Forty days later, by the database's clock: interest accrued and the past month's credited.
    const databaseUrl = e2eServer().databaseUrl;
    if (databaseUrl) {
      const overview = await (await context.request.get("/api/savings")).json();
      expect(overview.account.earnedAllTime.amount).toBe("$0.00");
      await backdateSavings(databaseUrl, overview.account.id, 40);
      runCli(databaseUrl, ["interest:accrue"]);
      await page.reload();
      await balanceHeading.waitFor();
      const after = await (await context.request.get("/api/savings")).json();
      expect(after.account.earnedAllTime.cents).toBeGreaterThan(0);
      const earned = (label: string) =>
        page
          .locator("dl > div")
          .filter({ has: page.locator("dt", { hasText: label }) })
          .locator("dd");
      await expect.poll(() => earned("All time").textContent()).toBe(after.account.earnedAllTime.amount);
      expect(await earned("This month").textContent()).toBe(after.account.accruedThisMonth.amount);
      expect(after.account.accruedThisMonth.cents).toBeGreaterThan(0);
      await shots(page, "savings-interest");
      console.info(`e2e savings: interest earned ${after.account.earnedAllTime.amount}`);
      // The credit told the customer after its commit, by the server's jobs room.
      await expect.poll(notificationTitles, { timeout: 20_000 }).toContain("Interest paid");

      // The credited month is in Statements, labelled Savings beside checking's months; its PDF says what was
      // earned, the Annual Percentage Yield Earned and the days (decision 069).
      await page.goto("/statements");
      const savingsStatement = page
        .getByRole("link", { name: /^Download PDF savings statement for / })
        .first();
      await savingsStatement.waitFor();
      await page.getByText("Savings", { exact: true }).first().waitFor();
      await page.getByText("Checking", { exact: true }).first().waitFor();
      await expectAccessible(page, "/statements with a savings statement");
      await shots(page, "statements-savings");
      const pdf = await context.request.get((await savingsStatement.getAttribute("href"))!);
      expect(pdf.status()).toBe(200);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pillar-e2e-savings-")), "savings.pdf");
      fs.writeFileSync(file, await pdf.body());
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
      expect(text).toContain("Savings statement");
      expect(text).toMatch(/Interest earned this period\s+\$\d+\.\d\d/);
      expect(text).toMatch(/Annual Percentage Yield Earned\s+\d+\.\d\d%/);
      expect(text).toMatch(/Days in period\s+\d+/);
      expect(text).toMatch(/From Checking: Emergency fund\s+\w{8}\s+\+\$250\.00/);
      console.info("e2e savings: the savings statement downloaded");
      await page.goto("/savings");
      await balanceHeading.waitFor();
    }

    const cents = (shown: string) => Math.round(Number(shown.replace(/[$,]/g, "")) * 100);
    // Closing: confirmed first, then everything in savings is in checking and the offer to open is back.
    const savingsBefore = (await (await context.request.get("/api/savings")).json()).account.balance.cents;
    const checkingBefore = (await (await context.request.get("/api/account/summary")).json())
      .availableBalance;
    await page.getByRole("button", { name: "Close savings" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText("Close your savings account?").waitFor();
    await expectAccessible(page, "/savings closing dialog");
    await shots(page, "savings-close-dialog");
    await dialog.getByRole("button", { name: "Close savings" }).click();
    await page
      .getByRole("status")
      .getByText(/^Savings account closed: its money is in Checking\. \$[\d,]+\.\d\d moved to Checking/)
      .waitFor();
    await page.getByRole("button", { name: "Open savings account" }).waitFor();
    const checkingAfter = (await (await context.request.get("/api/account/summary")).json()).availableBalance;
    // The whole balance, and the interest owed since the last credit (a few cents, or none), moved.
    expect(cents(checkingAfter) - cents(checkingBefore)).toBeGreaterThanOrEqual(savingsBefore);
    await expect.poll(notificationTitles, { timeout: 20_000 }).toContain("Savings account closed");
    await shots(page, "savings-closed");

    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
    expect(errors).toEqual([]);
  }, 300_000);
});
