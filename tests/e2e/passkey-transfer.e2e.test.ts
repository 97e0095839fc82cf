import { describe, expect, it } from "vitest";
import {
  addVirtualAuthenticator,
  localhostBaseUrl,
  openPage,
  setUpBrowser,
  toastWith,
} from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  fillTransferForm,
  shot,
  signInAsAdmin,
  signInUntilSecondFactor,
  signUpNewCustomer,
  USDC_ADDRESS,
} from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

describe("passkey transfer journey", () => {
  it("adds a passkey, signs in with password and passkey, and signs a transfer with it", {
    timeout: 180_000,
  }, async () => {
    const customer = await openPage(browser, 1280, localhostBaseUrl());
    const { page } = customer;
    const authenticator = await addVirtualAuthenticator(page);
    const user = await signUpNewCustomer(page, "Petra");
    const applied = await applyThroughApi(customer.context.request, {
      firstName: "Petra",
      lastName: "Passkey",
      street: "7 Wall St",
    });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "500.00");

    await page.goto("/settings");
    await page.getByRole("heading", { name: "Passkeys" }).waitFor();
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByLabel("Passkey name").fill("E2E laptop");
    await page.getByRole("button", { name: "Continue" }).click();
    await toastWith(page, "Passkey added").waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);

    // Sign out; the password alone now leads to "Verify it's you", answered with the passkey.
    await page.goto("/api/logout");
    await signInUntilSecondFactor(page, user.email);
    expect((await customer.context.cookies()).some((c) => c.name === "sid")).toBe(false);
    await shot(page, "passkey-transfer-verify");
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();
    expect((await (await page.request.get("/api/auth/user")).json()).email).toBe(user.email);

    // Send $40.00: the confirm step asks for the passkey, which signs this very transfer.
    await fillTransferForm(page, "40.00", "Rent share");
    await page.getByRole("button", { name: /^Send \$40\.00/ }).click();
    await page.getByRole("button", { name: "Confirm and send" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm this transfer" });
    await dialog.waitFor();
    await dialog.getByText("$40.00").waitFor();
    await shot(page, "passkey-transfer-confirm");
    // The rest at a phone's width: the signed summary and the passkey button must fit 375 px.
    await page.setViewportSize({ width: 375, height: 812 });
    await dialog.getByText(USDC_ADDRESS).waitFor();
    await shot(page, "passkey-transfer-confirm-375");
    await dialog.getByRole("button", { name: "Use a passkey" }).click();
    await page.getByRole("heading", { name: "Transfer Submitted" }).waitFor();
    await shot(page, "passkey-transfer-success");

    const summary = await customer.context.request.get("/api/account/summary");
    expect(await summary.json()).toMatchObject({ availableBalance: "$460.00", pendingBalance: "$40.00" });
    const transfers = (
      (await (await admin.context.request.get("/api/admin/transfer-requests?status=all")).json()) as {
        items: { userId: string; amountCents: number; cryptoAddress: string; recipientName: string }[];
      }
    ).items;
    const mine = transfers.filter((t) => t.userId === applied.kyc.userId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      amountCents: 4000,
      cryptoAddress: USDC_ADDRESS,
      recipientName: "Ana Ruiz",
    });
    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
    expect(customer.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await admin.context.close();
    await customer.context.close();
  });
});
