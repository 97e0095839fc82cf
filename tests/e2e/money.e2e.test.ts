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
  fillTransferForm,
  PASSWORD,
  requestTransferThroughApi,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
  USDC_ADDRESS,
} from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

describe("money journey", () => {
  // The longest journey (51 payments paged, a PDF read back): with two journeys sharing the machine's two cores
  // it needs more than the default 90 s.
  it("credits, sends USDC, settles, and every screen agrees to the cent", { timeout: 180_000 }, async () => {
    const customer = await openPage(browser);
    const user = await signUpNewCustomer(customer.page, "Mona");
    const applied = await applyThroughApi(customer.context.request, { firstName: "Mona", lastName: "Money" });
    const { kyc } = applied;

    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    const api = admin.context.request;
    const credit = await approveAndFund(api, applied, "1000.00");
    expect(credit.userBalance).toBe("$1,000.00");

    // The customer sees the money and sends $250.50 (fee $5.01, recipient gets $245.49).
    await customer.page.goto("/dashboard");
    await customer.page.getByText("$1,000.00").first().waitFor();
    await customer.page.goto("/send-money");
    // An empty submit: the spec's toast, and each missing field says so inline, the first one focused.
    await customer.page.locator("form button[type=submit]").click();
    await toastWith(customer.page, "Missing Information").waitFor();
    await customer.page.locator("#transfer-recipient-error").waitFor();
    expect(await customer.page.getByLabel("Amount (USD)").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => customer.page.evaluate(() => document.activeElement?.id)).toBe("transfer-amount");
    await customer.page.getByLabel("Amount (USD)").fill("250.50");
    expect(await customer.page.locator("#transfer-amount-error").count()).toBe(0);
    // The toast was about fields the customer is now correcting: it goes, the other fields keep their errors.
    await toastWith(customer.page, "Missing Information").waitFor({ state: "detached" });
    await customer.page.locator("#transfer-recipient-error").waitFor();
    await expect.poll(() => customer.page.getByLabel("Recipient gets (USDC)").inputValue()).toBe("245.49");
    await customer.page.getByLabel("Recipient Name").fill("Ana Ruiz");
    await customer.page.getByLabel("USDC Wallet Address").fill(USDC_ADDRESS);
    await customer.page.getByLabel("Transfer Purpose").fill("Groceries for the week");
    await customer.page.getByRole("button", { name: /^Send \$250\.50/ }).click();
    // The review step shows what will leave, and nothing is sent until it is confirmed.
    const review = customer.page.getByRole("region", { name: "Review your transfer" });
    await review.waitFor();
    await review.getByText("−$5.01").waitFor();
    await review.getByText("$245.49 USDC").waitFor();
    await shots(customer.page, "transfer-review");
    await review.getByRole("button", { name: "Back to edit" }).click();
    await expect.poll(() => customer.page.getByLabel("Recipient Name").inputValue()).toBe("Ana Ruiz");
    await customer.page.getByRole("button", { name: /^Send \$250\.50/ }).click();
    await review.getByRole("button", { name: "Confirm and send" }).dblclick();
    // The success screen names the reference and links the receipt; it stays until the customer leaves it.
    const receiptLink = customer.page.getByRole("link", { name: "View receipt" });
    await receiptLink.waitFor();
    const firstReceipt = (await receiptLink.getAttribute("href")) ?? "";
    expect(firstReceipt).toMatch(/^\/transfers\/[0-9a-f-]{36}$/);
    const firstReference = firstReceipt
      .slice("/transfers/".length)
      .replace(/-/g, "")
      .slice(0, 8)
      .toUpperCase();
    await customer.page.getByText(firstReference).waitFor();
    await shots(customer.page, "transfer-success");
    await customer.page.getByRole("link", { name: "Go to Dashboard" }).click();
    await customer.page.waitForURL("**/dashboard");
    await customer.page.getByText("$749.50").first().waitFor();
    const pending = await customer.context.request.get("/api/account/summary");
    expect(await pending.json()).toMatchObject({
      totalBalance: "$1,000.00",
      availableBalance: "$749.50",
      pendingBalance: "$250.50",
    });

    // Exactly one transfer request despite the double click; the admin approves it from Outgoing Pays.
    const queue = (await (await api.get("/api/admin/transfer-requests?status=all")).json()).items.filter(
      (t: { userId: string }) => t.userId === kyc.userId,
    );
    expect(queue).toHaveLength(1);
    await admin.page.goto("/admin");
    await admin.page.getByRole("tab", { name: "Outgoing Pays" }).click();
    await admin.page
      .getByRole("button", { name: `Approve transfer request from ${user.firstName} Tester` })
      .first()
      .click();
    await toastWith(admin.page, "Transfer request updated successfully").waitFor();

    // Balances, history, analytics and the CSV agree to the cent.
    await customer.page.reload();
    await customer.page.getByText("Fee: $5.01").first().waitFor();
    const settled = await (await customer.context.request.get("/api/account/summary")).json();
    expect(settled).toMatchObject({
      totalBalance: "$749.50",
      availableBalance: "$749.50",
      pendingBalance: "$0.00",
    });
    await customer.page.getByText("−$250.50").or(customer.page.getByText("-$250.50")).first().waitFor();

    await customer.page.goto("/analytics");
    await customer.page.getByRole("heading", { name: "Analytics" }).waitFor();
    await customer.page.getByText("$749.50").first().waitFor();
    await customer.page
      .getByText(/−\$250\.50|-\$250\.50/)
      .first()
      .waitFor();
    // Spending is a positive amount, and the chart's axis shows exact amounts, never "$1K".
    // "$250.50" unsigned appears only as Total Spending (the change and the category read "−$250.50").
    await customer.page.getByText("$250.50", { exact: true }).first().waitFor();
    const ticks = customer.page.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
    await ticks.first().waitFor();
    const tickTexts = await ticks.allTextContents();
    expect(tickTexts.length).toBeGreaterThan(1);
    for (const tick of tickTexts) expect(tick).toMatch(/^\$[\d,]+\.\d{2}$/);

    const csv = await (await customer.context.request.get("/api/transactions/export.csv")).text();
    const rows = csv.trim().split("\r\n").slice(1);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.includes(",debit,"))).toMatch(/,completed,250\.50,5\.01,245\.49$/);
    expect(rows.find((r) => r.includes(",incoming_payment,"))).toMatch(/,completed,1000\.00,0\.00,1000\.00$/);

    // The history's debit opens its receipt: completed, with its reference and the whole timeline.
    await customer.page.goto("/dashboard");
    await customer.page.locator(`a[href="${firstReceipt}"]`).first().click();
    await customer.page.waitForURL(`**${firstReceipt}`);
    await customer.page.getByText(firstReference).waitFor();
    await customer.page.getByRole("list", { name: "Status" }).getByText("Completed").waitFor();
    expect(await customer.page.getByRole("button", { name: "Cancel transfer" }).count()).toBe(0);

    // A second transfer, cancelled from its receipt before staff look at it: the hold comes back.
    await fillTransferForm(customer.page, "100.00", "Second thoughts");
    await customer.page.getByRole("button", { name: /^Send \$100\.00/ }).click();
    await review.getByRole("button", { name: "Confirm and send" }).click();
    await customer.page.getByRole("heading", { name: "Transfer Submitted" }).waitFor();
    await customer.page.getByRole("link", { name: "View receipt" }).click();
    await customer.page.waitForURL("**/transfers/*");
    await customer.page.getByRole("heading", { name: "USDC transfer to Ana Ruiz" }).waitFor();
    await customer.page.getByRole("list", { name: "Status" }).getByText("Not yet").first().waitFor();
    await expect
      .poll(
        async () =>
          (await (await customer.context.request.get("/api/account/summary")).json()).availableBalance,
      )
      .toBe("$649.50");
    await shots(customer.page, "transfer-receipt-pending");
    await customer.page.getByRole("button", { name: "Cancel transfer" }).click();
    const confirm = customer.page.getByRole("alertdialog", { name: "Cancel this transfer?" });
    await confirm.getByText("The $100.00 hold is released to your available balance.").waitFor();
    await confirm.getByRole("button", { name: "Cancel transfer" }).click();
    await customer.page.getByRole("list", { name: "Status" }).getByText("Cancelled").waitFor();
    await shots(customer.page, "transfer-receipt-cancelled");
    expect(await (await customer.context.request.get("/api/account/summary")).json()).toMatchObject({
      totalBalance: "$749.50",
      availableBalance: "$749.50",
      pendingBalance: "$0.00",
    });

    // The month's PDF statement, downloaded from /statements as a customer would, says the same.
    await customer.page.goto("/statements");
    await customer.page.getByRole("heading", { name: "Monthly statements" }).waitFor();
    const [download] = await Promise.all([
      customer.page.waitForEvent("download"),
      customer.page
        .getByRole("link", { name: /Download PDF statement/ })
        .first()
        .click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^pillar-statement-\d{4}-\d{2}\.pdf$/);
    const pdfFile = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), "pillar-e2e-statement-")),
      "statement.pdf",
    );
    await download.saveAs(pdfFile);
    const statement = execFileSync("pdftotext", ["-layout", pdfFile, "-"], { encoding: "utf8" });
    expect(statement).toMatch(/Closing balance\s+\$749\.50/);
    expect(statement).toMatch(/\+\$1,000\.00\s+\$1,000\.00/);
    expect(statement).toMatch(/\$5\.01\s+-\$250\.50\s+\$749\.50/);
    expect(statement).toMatch(/Ledger digest [0-9A-F]{4}(-[0-9A-F]{4}){3}/);

    // A third transfer, rejected by staff from the desk: the customer's row, receipt and PDF all say nothing
    // was sent, the hold came back and no fee was charged.
    const third = await requestTransferThroughApi(customer.context.request, "50.00");
    await admin.page.reload();
    await admin.page.getByRole("tab", { name: "Outgoing Pays" }).click();
    await admin.page
      .getByRole("button", { name: `Reject transfer request from ${user.firstName} Tester` })
      .click();
    await toastWith(admin.page, "Transfer request updated successfully").waitFor();
    await customer.page.goto("/dashboard");
    const thirdRow = customer.page.locator("li", {
      has: customer.page.locator(`a[href="/transfers/${third.id}"]`),
    });
    await thirdRow.getByText("Cancelled").waitFor();
    await thirdRow.getByText("Not sent · hold released · no fee").waitFor();
    expect(await thirdRow.getByText(/Fee: |Net: /).count()).toBe(0);
    await shots(customer.page, "dashboard-cancelled-row");
    await thirdRow.getByRole("link").click();
    await customer.page.waitForURL(`**/transfers/${third.id}`);
    const figures = customer.page.locator("dl").first();
    await figures.getByText("$50.00 (not sent)").waitFor();
    await figures.getByText("$0.00 (not charged)").waitFor();
    await figures.getByText("Nothing sent").waitFor();
    await figures.getByText("USDC on Ethereum").waitFor();
    await customer.page
      .getByText(
        "Nothing was sent. The $50.00 hold was released to the available balance and no fee was charged.",
      )
      .waitFor();
    expect(await figures.getByText(/−\$1\.00|\$49\.00/).count()).toBe(0);
    await shots(customer.page, "transfer-receipt-cancelled-by-staff");
    const [receiptDownload] = await Promise.all([
      customer.page.waitForEvent("download"),
      customer.page.getByRole("link", { name: "Download receipt (PDF)" }).click(),
    ]);
    const receiptFile = path.join(path.dirname(pdfFile), "receipt.pdf");
    await receiptDownload.saveAs(receiptFile);
    const receipt = execFileSync("pdftotext", ["-layout", receiptFile, "-"], { encoding: "utf8" });
    expect(receipt).toMatch(/Nothing sent/);
    expect(receipt).toMatch(/Status\s+Cancelled/);
    expect(receipt).toMatch(/Fee \(2%\)\s+\$0\.00 \(not charged\)/);
    expect(receipt).toMatch(/Network\s+USDC on Ethereum/);
    expect(receipt).not.toMatch(/Amount sent|CRYPTO|\$49\.00/);
    if (process.env.E2E_SHOTS) {
      execFileSync("pdftoppm", [
        "-png",
        "-r",
        "80",
        "-singlefile",
        receiptFile,
        "/tmp/shots-e2e/receipt-cancelled-pdf",
      ]);
    }
    expect(await (await customer.context.request.get("/api/account/summary")).json()).toMatchObject({
      totalBalance: "$749.50",
      availableBalance: "$749.50",
      pendingBalance: "$0.00",
    });

    // Analytics counts only what moved money: the credit and the settled debit, not the two cancelled transfers.
    await customer.page.goto("/analytics");
    const countValue = customer.page.getByText("Total count").locator("xpath=preceding-sibling::div[1]");
    await expect.poll(() => countValue.textContent()).toBe("2");
    await customer.page.getByText("$625.25", { exact: true }).waitFor();
    const summary = customer.page.locator("dl", { hasText: "Credits" });
    await expect.poll(() => summary.textContent()).toBe("Credits1Debits1Total2");
    // Every point falls on today: the history names real times instead of "1 day ago", "2 days ago".
    const xTicks = customer.page.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
    await xTicks.first().waitFor();
    expect((await xTicks.allTextContents()).join(" ")).not.toMatch(/days? ago/);
    await shots(customer.page, "analytics-after-cancel");

    // The admin tables page from the server: 51 payments show 50, and "Load more" brings the last one.
    const batch = `Batch ${Date.now()}`;
    for (let i = 0; i < 51; i++) {
      const made = await api.post("/api/admin/incoming-payments", {
        data: { userId: kyc.userId, amount: "1.00", description: `${batch} #${i}` },
      });
      expect(made.status()).toBe(201);
    }
    await admin.page.getByRole("tab", { name: "Incoming Payments" }).click();
    const search = admin.page.getByLabel("Search incoming payments");
    // The search goes to the server once typing pauses, and the unfiltered list (whose newest 50 are this batch
    // too) stays on screen until it answers: wait for the filtered first page, or "Load more" pages the old list.
    const searched = admin.page.waitForResponse((r) => {
      const url = new URL(r.url());
      return (
        url.pathname === "/api/admin/incoming-payments" &&
        url.searchParams.get("q") === batch &&
        !url.searchParams.has("cursor")
      );
    });
    await search.fill(batch);
    await searched;
    // The tab's other card (all transactions) lists the same payments and has its own "Load more": count
    // and page within the incoming payments card only.
    const card = search.locator("xpath=ancestor::div[contains(@class, 'rounded-card')][1]");
    const batchRows = card.locator("li", { hasText: batch });
    await expect.poll(() => batchRows.count()).toBe(50);
    await card.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => batchRows.count()).toBe(51);
    await card.getByText(`${batch} #0`, { exact: true }).waitFor();

    const ledger = await (await api.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
    expect(customer.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await customer.context.close();
    await admin.context.close();
  });

  it("the send-money form keeps what was typed, moves focus by step, never redirects, and says what blocks it", async () => {
    const customer = await openPage(browser);
    const { page } = customer;
    await signUpNewCustomer(page, "Fern");
    // Before the account is open, Add money says what it is waiting for in its own words.
    await page.goto("/dashboard");
    await page.getByRole("link", { name: /Add Money/ }).click();
    await toastWith(page, "Complete account setup to add money").waitFor();
    const applied = await applyThroughApi(customer.context.request, { firstName: "Fern", lastName: "Form" });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "100.00");

    // Her own $20 limit, $0.25 of it used: every figure is what the gate will still pass.
    const own = await customer.context.request.put("/api/transfer/self-limits/daily-limit", {
      data: { dailyLimit: "20", password: PASSWORD },
    });
    expect(own.status(), await own.text()).toBe(200);
    await requestTransferThroughApi(customer.context.request, "0.25");
    await page.goto("/send-money");
    await page.getByRole("heading", { name: "Send Money", level: 1 }).waitFor();
    await page.getByText("$19.75 of $20.00").waitFor();
    expect(await page.getByText("$1,919.75").count()).toBe(0);

    // The amount is never rewritten: it is refused, as typed, with the spec's message.
    const amount = page.getByLabel("Amount (USD)");
    await amount.fill("-5");
    await amount.press("Tab");
    expect(await amount.inputValue()).toBe("-5");
    await page.locator("#transfer-amount-error").getByText("Amount must be greater than $0").waitFor();
    expect(await amount.getAttribute("aria-invalid")).toBe("true");
    await amount.fill("1e3");
    expect(await amount.inputValue()).toBe("1e3");
    await page
      .locator("#transfer-amount-error")
      .getByText("Amount must be a dollar amount with at most 2 decimals")
      .waitFor();
    expect(await page.getByLabel("Recipient gets (USDC)").inputValue()).toBe("");
    await shots(page, "send-money-amount-refused");

    // Over her own limit: said before the review, in her limit's words.
    await amount.fill("19.76");
    await page.getByLabel("Recipient Name").fill("Ana Ruiz");
    await page.getByLabel("USDC Wallet Address").fill("0x52908400098527886E0F7030069857D2E4169Ee7");
    await page.getByLabel("Transfer Purpose").fill("Lunch");
    await page.getByRole("button", { name: /^Send \$19\.76/ }).click();
    await page
      .getByText("This is over the daily limit you set yourself ($20.00). You can send $19.75 more today.")
      .waitFor();

    // A capital out of place is caught at Review, where focus lands on the step's heading and the step is announced.
    await amount.fill("10");
    await page.getByRole("button", { name: /^Send \$10\.00/ }).click();
    const review = page.getByRole("region", { name: "Review your transfer" });
    await review.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("transfer-review-title");
    await page
      .getByRole("status")
      .getByText(/^Review your transfer: \$10\.00 to Ana Ruiz/)
      .waitFor();
    await review.getByText("This address has a typing mistake").waitFor();
    expect(await review.getByRole("button", { name: "Confirm and send" }).isDisabled()).toBe(true);
    await shots(page, "transfer-review-checksum");
    await review.getByRole("button", { name: "Back to edit" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("transfer-amount");
    await page.getByLabel("USDC Wallet Address").fill(USDC_ADDRESS);
    await page.getByRole("button", { name: /^Send \$10\.00/ }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("transfer-review-title");

    // By keyboard to the end: the result is announced, focus is on it, and the screen waits for the customer.
    // The button waits for the address check (disabled while it is pending); focus() alone does not wait for that.
    const confirm = review.getByRole("button", { name: "Confirm and send" });
    await expect.poll(() => confirm.isEnabled(), { timeout: 30_000 }).toBe(true);
    await confirm.focus();
    await page.keyboard.press("Enter");
    const done = page.getByRole("heading", { name: "Transfer Submitted", level: 1 });
    await done.waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("Transfer Submitted");
    await page
      .getByRole("status")
      .getByText(/^Transfer submitted\./)
      .waitFor();
    await page.keyboard.press("Tab");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("View receipt");
    // Longer than the old 2-second redirect: still here, still focused.
    await page.waitForTimeout(3_000);
    expect(new URL(page.url()).pathname).toBe("/send-money");
    await page.keyboard.press("Enter");
    await page.waitForURL("**/transfers/*");
    const transferId = new URL(page.url()).pathname.split("/").pop() ?? "";

    // Staff take it up: the timeline says Processing, as the badge does.
    const moved = await admin.context.request.put(`/api/admin/transfer-requests/${transferId}`, {
      data: { status: "processing" },
    });
    expect(moved.status(), await moved.text()).toBe(200);
    await page.reload();
    const timeline = page.getByRole("list", { name: "Status" });
    await timeline.getByText("Processing", { exact: true }).waitFor();
    expect(await timeline.getByText("Under review").count()).toBe(0);

    // At 375 px both method tabs are whole.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/send-money");
    const tabs = page.getByRole("tablist", { name: "Transfer method" });
    await tabs.waitFor();
    for (const name of ["USDC (Crypto)", "ACH Bank Transfer"]) {
      const tab = tabs.getByRole("tab", { name });
      expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth), name).toBe(true);
      const [box, list] = [await tab.boundingBox(), await tabs.boundingBox()];
      expect(box && list && box.x >= list.x && box.x + box.width <= list.x + list.width + 0.5, name).toBe(
        true,
      );
    }
    expect(await tabs.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await shots(page, "send-money-tabs");

    // Crypto sends blocked and cooling down: a banner says until when (New York time), not a form that fails later.
    // Turning the block on needs her password (she has no second factor); turning it off needs nothing.
    for (const data of [{ on: true, cooldown: "24 hours", password: PASSWORD }, { on: false }]) {
      const put = await customer.context.request.put("/api/transfer/self-limits/send-block", { data });
      expect(put.status(), await put.text()).toBe(200);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/send-money");
    await page
      .getByText(/^Crypto sends are blocked until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M ET$/)
      .waitFor();
    await page.locator("#sends-blocked").getByRole("link", { name: "Settings" }).waitFor();
    expect(await page.getByLabel("Amount (USD)").count()).toBe(0);
    await expectAccessible(page, "/send-money with sends blocked");
    await shots(page, "send-money-blocked");

    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
    expect(customer.errors).toEqual([]);
    await customer.context.close();
    await admin.context.close();
  }, 180_000);
});
