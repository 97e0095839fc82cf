import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
  USDC_ADDRESS,
} from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

/**
 * Same first and last 4 characters after 0x as USDC_ADDRESS: what an address-poisoning attack plants, in its EIP-55
 * form as a real one would be (Review refuses a mistyped checksum before the lookalike check matters).
 */
const LOOKALIKE = "0x5290FFffFfFFffFfFfffffFfFfFfFfFFFFFF9ee7";

async function fillTransfer(page: Page, amount: string, purpose: string) {
  await page.getByLabel("Amount (USD)").fill(amount);
  await page.getByLabel("Transfer Purpose").fill(purpose);
}

describe("saved recipients", () => {
  // Sign-up, onboarding and three transfers on a shared 2-core machine: more than the default 90 s.
  it("saves a recipient from the review, picks it in the form, and stops a lookalike until confirmed", {
    timeout: 240_000,
  }, async () => {
    const customer = await openPage(browser);
    await signUpNewCustomer(customer.page, "Rita");
    const applied = await applyThroughApi(customer.context.request, {
      firstName: "Rita",
      lastName: "Recipients",
    });
    const { kyc } = applied;
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    const api = admin.context.request;
    await approveAndFund(api, applied, "1000.00");
    const { page } = customer;

    // A first payment to a typed address: the review warns, and "Save" keeps it once the transfer went through.
    await page.goto("/send-money");
    await page.getByText("No saved recipients yet").waitFor();
    await fillTransfer(page, "10.00", "Rent share");
    await page.getByLabel("Recipient Name").fill("Ana Ruiz");
    await page.getByLabel("USDC Wallet Address").fill(USDC_ADDRESS);
    await page.getByRole("button", { name: /^Send \$10\.00/ }).click();
    const review = page.getByRole("region", { name: "Review your transfer" });
    await review.getByText(/First payment to this address/).waitFor();
    await review.getByLabel("Save Ana Ruiz to my saved recipients").check();
    await shots(page, "recipients-review-first-payment");
    await review.getByRole("button", { name: "Confirm and send" }).click();
    await page.getByRole("heading", { name: "Transfer Submitted" }).waitFor();
    await toastWith(page, "Recipient saved").waitFor();

    // The address book: inline errors, then a rename.
    await page.goto("/recipients");
    const list = page.getByRole("list", { name: "Saved recipients" });
    await list.getByText("Ana Ruiz").waitFor();
    await page.getByRole("button", { name: "Save recipient" }).click();
    await page.locator("#recipient-name-error").waitFor();
    expect(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Name", { exact: true }).fill("Ana again");
    await page.getByLabel("USDC Wallet Address").fill(USDC_ADDRESS.toLowerCase());
    await page.getByRole("button", { name: "Save recipient" }).click();
    await page
      .locator("#recipient-address-error")
      .getByText(/already in your saved recipients/)
      .waitFor();
    await page.getByRole("button", { name: "Rename Ana Ruiz" }).click();
    await page.getByLabel("New name for Ana Ruiz").fill("Ana (rent)");
    await page.getByLabel("New name for Ana Ruiz").press("Enter");
    await list.getByText("Ana (rent)").waitFor();
    await shots(page, "recipients-page");
    await expectAccessible(page, "/recipients (with a field error)");

    // Picked in the form: name and address filled, the review names the saved recipient, no first-payment note.
    await page.goto("/send-money");
    await page.getByLabel("Saved recipient").selectOption({ label: "Ana (rent) — 0x5290…9EE7" });
    await expect.poll(() => page.getByLabel("USDC Wallet Address").inputValue()).toBe(USDC_ADDRESS);
    await expect.poll(() => page.getByLabel("Recipient Name").inputValue()).toBe("Ana (rent)");
    await fillTransfer(page, "20.00", "Rent");
    await shots(page, "recipients-form-picked");
    await expectAccessible(page, "/send-money with a saved recipient picked");
    await page.getByRole("button", { name: /^Send \$20\.00/ }).click();
    await review.getByText("Ana (rent)", { exact: true }).first().waitFor();
    await review.getByText("Saved recipient:").waitFor();
    expect(await review.getByText(/First payment to this address/).count()).toBe(0);
    await review.getByRole("button", { name: "Confirm and send" }).click();
    await page.getByRole("heading", { name: "Transfer Submitted" }).waitFor();

    // A lookalike of Ana's address: a loud warning, and Send stays off until the customer confirms.
    await page.goto("/send-money");
    await fillTransfer(page, "30.00", "Invoice 42");
    await page.getByLabel("Recipient Name").fill("Ana Ruiz");
    await page.getByLabel("USDC Wallet Address").fill(LOOKALIKE);
    await page.getByRole("button", { name: /^Send \$30\.00/ }).click();
    const alert = review.getByRole("alert");
    await alert.getByText("Not the address you saved for Ana (rent)").waitFor();
    const confirm = review.getByRole("button", { name: "Confirm and send" });
    expect(await confirm.isDisabled()).toBe(true);
    await shots(page, "recipients-lookalike");
    await expectAccessible(page, "/send-money review of a lookalike address");
    await review.getByLabel(/I checked this address with the recipient/).check();
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    await confirm.click();
    await page.getByRole("heading", { name: "Transfer Submitted" }).waitFor();
    const sent = (await (await api.get("/api/admin/transfer-requests?status=all")).json()).items
      .filter((t: { userId: string }) => t.userId === kyc.userId)
      .map((t: { cryptoAddress: string; amountCents: number }) => [t.cryptoAddress, t.amountCents]);
    expect(sent.sort()).toEqual(
      [
        [USDC_ADDRESS, 1000],
        [USDC_ADDRESS, 2000],
        [LOOKALIKE, 3000],
      ].sort(),
    );

    // Removing asks first.
    await page.goto("/recipients");
    await page.getByRole("button", { name: "Remove Ana (rent)" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove recipient" }).click();
    await page.getByText("No saved recipients yet").waitFor();
    expect(customer.errors).toEqual([]);
    await admin.context.close();
    await customer.context.close();
  });
});
