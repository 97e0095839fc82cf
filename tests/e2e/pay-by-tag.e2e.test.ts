import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  openAccountThroughApi,
  shots,
  signInAsAdmin,
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
    await payer.page.getByRole("button", { name: "Pay Ra*** Q. now" }).dblclick();
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
});
