import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  newUser,
  openAccountThroughApi,
  PASSWORD,
  shots,
  signInAsAdmin,
  signUp,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

describe("paying another customer by $tag", () => {
  it("sends $5 by tag after the masked name is shown, and it lands in the other's open dashboard", async () => {
    const payer = await openPage(browser);
    const payerUser = await signUpNewCustomer(payer.page, "Tessa", "Payer");
    const applied = await applyThroughApi(payer.context.request, { firstName: "Tessa", lastName: "Payer" });
    console.info("e2e pay-by-tag: payer signed up");
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "50.00");

    const payee = await openPage(browser);
    const payeeUser = await signUpNewCustomer(payee.page, "Rafael", "Quinn");
    await openAccountThroughApi(payeeUser);
    await payee.page.goto("/dashboard");
    await payee.page.getByText("$0.00").first().waitFor();

    console.info("e2e pay-by-tag: payee's dashboard open");
    // From the dashboard's quick action to the form: the tag is checked and the name shown back, masked.
    await payer.page.goto("/dashboard");
    await payer.page.getByRole("link", { name: /Pay by \$tag/ }).click();
    await payer.page.waitForURL("**/pay");
    await payer.page.getByLabel("Their $tag").fill("$nobody_holds_this_tag");
    await payer.page.getByRole("button", { name: "Check $tag" }).click();
    await payer.page.getByText("No one can be paid at this $tag. Check the tag and try again.").waitFor();
    await payer.page.getByLabel("Their $tag").fill(`$${payeeUser.tag}`);
    await payer.page.getByRole("button", { name: "Check $tag" }).click();
    await payer.page.getByText("Ra*** Q.", { exact: true }).waitFor();
    await payer.page.getByLabel("Amount").fill("5");
    await payer.page.getByLabel("Note (optional)").fill("Coffee");
    await shots(payer.page, "pay-by-tag-confirm");
    await expectAccessible(payer.page, "/pay with the payee confirmed");
    await payer.page.getByRole("button", { name: "Pay Ra*** Q." }).click();
    await payer.page.getByRole("alertdialog").getByRole("button", { name: "Pay $5.00 now" }).click();
    await payer.page.getByRole("heading", { name: "Payment sent" }).waitFor();
    await shots(payer.page, "pay-by-tag-sent");

    console.info("e2e pay-by-tag: payment sent");
    // The payee's open dashboard shows it without a reload, naming the payer's tag.
    await payee.page.getByText(`Payment from $${payerUser.tag}: Coffee`).first().waitFor({ timeout: 20_000 });
    await payee.page.getByText("$5.00").first().waitFor();
    const payeeSummary = await (await payee.context.request.get("/api/account/summary")).json();
    expect(payeeSummary.availableBalance).toBe("$5.00");
    const payerSummary = await (await payer.context.request.get("/api/account/summary")).json();
    expect(payerSummary.availableBalance).toBe("$45.00");

    console.info("e2e pay-by-tag: payee saw it");
    // What the payer's own block on crypto sends does to $tag payments (nothing): tests/e2e/self-block.e2e.test.ts.
    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
  }, 300_000);

  it("keeps the amount as typed, confirms a payment before it leaves, and says who the tag is without saying Paying", async () => {
    const payer = await openPage(browser);
    const { page } = payer;
    await signUpNewCustomer(page, "Piper", "Confirm");
    const applied = await applyThroughApi(payer.context.request, { firstName: "Piper", lastName: "Confirm" });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "50.00");
    const payee = newUser("Quentin");
    const payeePage = await openPage(browser);
    await signUp(payeePage.page, payee);
    await openAccountThroughApi(payee);
    const own = await payer.context.request.put("/api/transfer/self-limits/daily-limit", {
      data: { dailyLimit: "30", password: PASSWORD },
    });
    expect(own.status(), await own.text()).toBe(200);

    await page.goto("/pay");
    await page.getByLabel("Their $tag").fill(`$${payee.tag}`);
    await page.getByRole("button", { name: "Check $tag" }).click();
    await page.getByText("Qu*** T.", { exact: true }).waitFor();
    // Neither paying nor requesting yet: the line only says whose tag it is.
    expect(await page.getByText(/Paying/).count()).toBe(0);
    await page.getByText("You can send $30.00 more today.").waitFor();

    // The amount is refused as typed, and no confirmation opens for it.
    const amount = page.getByLabel("Amount");
    await amount.fill("-5");
    await page.getByRole("button", { name: "Pay Qu*** T." }).click();
    expect(await amount.inputValue()).toBe("-5");
    await page.locator("#pay-amount-error").getByText("Amount must be greater than $0").waitFor();
    expect(await page.getByRole("alertdialog").count()).toBe(0);
    await amount.fill("1,000.001");
    await amount.press("Tab");
    expect(await amount.inputValue()).toBe("1,000.001");
    await page
      .locator("#pay-amount-error")
      .getByText("Amount must be a dollar amount with at most 2 decimals")
      .waitFor();
    // Over her own limit: said at once, before any confirmation.
    await amount.fill("30.01");
    await page.getByRole("button", { name: "Pay Qu*** T." }).click();
    await page
      .getByText("This is over the daily limit you set yourself ($30.00). You can send $30.00 more today.")
      .waitFor();

    // A payment is confirmed first; "Not now" sends nothing.
    await amount.fill("7.5");
    await page.getByLabel("Note (optional)").fill("Tickets");
    await page.getByRole("button", { name: "Pay Qu*** T." }).click();
    const dialog = page.getByRole("alertdialog", { name: "Pay $7.50 to Qu*** T.?" });
    await dialog
      .getByText(`$7.50 goes from your account to Qu*** T. ($${payee.tag}) at once.`, { exact: false })
      .waitFor();
    await shots(page, "pay-by-tag-confirm-step");
    await expectAccessible(page, "/pay confirm step");
    await dialog.getByRole("button", { name: "Not now" }).click();
    await dialog.waitFor({ state: "detached" });
    expect((await (await payer.context.request.get("/api/account/summary")).json()).availableBalance).toBe(
      "$50.00",
    );
    await page.getByRole("button", { name: "Pay Qu*** T." }).click();
    await dialog.getByRole("button", { name: "Pay $7.50 now" }).click();
    const sent = page.getByRole("heading", { name: "Payment sent", level: 1 });
    await sent.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Payment sent");
    await page
      .getByRole("status")
      .getByText(/^Payment sent\. \$7\.50 is in Qu\*\*\* T\.'s account now\.$/)
      .waitFor();
    expect((await (await payer.context.request.get("/api/account/summary")).json()).availableBalance).toBe(
      "$42.50",
    );

    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
    expect(payer.errors).toEqual([]);
  }, 300_000);
});
