import { generateSync } from "otplib";
import type { APIRequestContext, Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage } from "@/tests/e2e/support/browser";
import { newUser, PASSWORD, shot, signIn, signInAsAdmin, signUp } from "@/tests/e2e/support/journeys";
import { PNG } from "@/tests/support/files";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

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

/** KYC and the account request through the API (onboarding.e2e covers those screens). */
async function applyThroughApi(request: APIRequestContext) {
  const upload = async () => {
    const { uploadURL, objectPath } = await (await request.post("/api/objects/upload")).json();
    expect(
      (await request.put(uploadURL, { data: PNG, headers: { "content-type": "image/png" } })).status(),
    ).toBe(200);
    return objectPath as string;
  };
  const res = await request.post("/api/kyc/create", {
    data: {
      accountType: "personal",
      firstName: "Tess",
      lastName: "Totp",
      street: "5 Wall St",
      city: "New York",
      state: "NY",
      zipCode: "10005",
      ssn: `${400 + Math.floor(Math.random() * 99)}-${10 + Math.floor(Math.random() * 89)}-${1000 + Math.floor(Math.random() * 8999)}`,
      drivingLicenseFront: await upload(),
      drivingLicenseBack: await upload(),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function approveAndFund(
  browserForAdmin: Browser,
  kyc: { id: string; userId: string },
  accountRequestId: string,
) {
  const admin = await openPage(browserForAdmin);
  await signInAsAdmin(admin.page);
  const api = admin.context.request;
  expect((await api.put(`/api/admin/kyc/${kyc.id}/approve`, { data: { notes: "ok" } })).status()).toBe(200);
  expect(
    (
      await api.put(`/api/admin/account-requests/${accountRequestId}`, { data: { status: "approved" } })
    ).status(),
  ).toBe(200);
  const credit = await api.post("/api/admin/incoming-payments", {
    data: { userId: kyc.userId, amount: "500.00", description: "Payroll", status: "completed" },
  });
  expect(credit.status()).toBe(201);
  await admin.context.close();
}

async function fillTransfer(page: Page) {
  await page.goto("/send-money");
  await page.getByLabel("Amount (USD)").fill("40.00");
  await page.getByLabel("Recipient Name").fill("Ana Ruiz");
  await page.getByLabel("USDC Wallet Address").fill("0x52908400098527886E0F7030069857D2E4169EE7");
  await page.getByLabel("Transfer Purpose").fill("Rent share");
}

describe("second factor journey", () => {
  it("enrols an authenticator, signs in with its code, and confirms a transfer with it", {
    timeout: 180_000,
  }, async () => {
    const customer = await openPage(browser);
    const { page } = customer;
    const user = newUser("Tess");
    await signUp(page, user);
    await signIn(page, user.email);
    const { kyc, accountRequest } = await applyThroughApi(customer.context.request);
    await approveAndFund(browser, kyc, accountRequest.id);

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
    await page.goto("/auth");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("heading", { name: "Verify it's you" }).waitFor();
    expect((await customer.context.cookies()).some((c) => c.name === "sid")).toBe(false);
    await shot(page, "auth-verify");
    await page.getByLabel("Authentication code").fill(await nextCode());
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();

    // Sending money asks for a fresh code in the confirm step.
    await fillTransfer(page);
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
