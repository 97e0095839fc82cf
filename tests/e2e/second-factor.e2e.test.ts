import { generateSync } from "otplib";
import { describe, expect, it } from "vitest";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  fillTransferForm,
  shot,
  signInAsAdmin,
  signInUntilSecondFactor,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

/**
 * An authenticator app in the test: codes computed from the key the page shows. Each 30-second step is
 * accepted once, so every code is for a newer step than the last (the server allows one step of drift,
 * so the next step's code works at once; the one after waits for the clock).
 */
function authenticator(secret: string) {
  let lastStep = 0;
  return async () => {
    const current = Math.floor(Date.now() / 30_000);
    const target = Math.max(lastStep + 1, current);
    const waitMs = (target - 1) * 30_000 - Date.now();
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs + 200));
    lastStep = target;
    return generateSync({ secret, epoch: target * 30 });
  };
}

describe("second factor journey", () => {
  it("enrols an authenticator, signs in with its code, and confirms a transfer with it", {
    timeout: 180_000,
  }, async () => {
    const customer = await openPage(browser);
    const { page } = customer;
    const user = await signUpNewCustomer(page, "Tess");
    const applied = await applyThroughApi(customer.context.request, { firstName: "Tess", lastName: "Totp" });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "500.00");
    await admin.context.close();

    // The dashboard recommends a second factor and leads to Settings → Security.
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "Set it up" }).click();
    await page.waitForURL("**/settings#security");
    await page.getByRole("button", { name: "Set up authenticator app" }).click();
    await page.getByRole("img", { name: /QR code/ }).waitFor();
    await shot(page, "settings-totp-scan");
    const secret = (await page.getByTestId("totp-manual-key").innerText()).replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const nextCode = authenticator(secret);
    await page.getByLabel("2. Enter the 6-digit code from the app").fill(await nextCode());
    await page.getByRole("button", { name: "Turn on" }).click();
    const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await expect.poll(() => codes.count()).toBe(10);
    await shot(page, "settings-recovery-codes");
    await page.getByRole("button", { name: "I saved them" }).click();
    await page.getByText("Two-step verification on").waitFor();

    // Sign out, then in again: the password alone is not enough.
    await page.goto("/api/logout");
    await signInUntilSecondFactor(page, user.email);
    expect((await customer.context.cookies()).some((c) => c.name === "sid")).toBe(false);
    await shot(page, "auth-verify");
    await page.getByLabel("Authentication code").fill(await nextCode());
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();

    // Sending money asks for a fresh code in the confirm step.
    await fillTransferForm(page, "40.00", "Rent share");
    await page.getByRole("button", { name: /^Send \$40\.00/ }).click();
    await page.getByRole("button", { name: "Confirm and send" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm this transfer" });
    await dialog.waitFor();
    await shot(page, "send-money-confirm");
    await dialog.getByLabel("Authentication code").fill(await nextCode());
    await dialog.getByRole("button", { name: "Confirm and send" }).click();
    await page.getByRole("heading", { name: "Transfer Submitted" }).waitFor();
    const summary = await customer.context.request.get("/api/account/summary");
    expect(await summary.json()).toMatchObject({ availableBalance: "$460.00", pendingBalance: "$40.00" });

    // New recovery codes are a security change: the step-up dialog asks for a code, then the codes show.
    await page.goto("/settings#security");
    await page.getByRole("button", { name: "Create new codes" }).click();
    const stepUp = page.getByRole("dialog", { name: "Verify it's you" });
    await stepUp.waitFor();
    await shot(page, "settings-step-up");
    await stepUp.getByLabel("Authentication code").fill(await nextCode());
    await stepUp.getByRole("button", { name: "Verify", exact: true }).click();
    await expect.poll(() => codes.count()).toBe(10);
  });
});
