import type { APIRequestContext, Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, localhostBaseUrl, openPage, toastWith } from "@/tests/e2e/support/browser";
import { newUser, PASSWORD, shot, signIn, signInAsAdmin, signUp } from "@/tests/e2e/support/journeys";
import { PNG } from "@/tests/support/files";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";

/** Chromium's built-in virtual authenticator: a platform passkey with a resident key and user verification. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
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
      firstName: "Petra",
      lastName: "Passkey",
      street: "7 Wall St",
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

/** The admin approves KYC and the account and credits $500; returns the admin's page for later checks. */
async function approveAndFund(kyc: { id: string; userId: string }, accountRequestId: string) {
  const admin = await openPage(browser);
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
  expect(credit.status(), await credit.text()).toBe(201);
  return admin;
}

describe("passkey transfer journey", () => {
  it("adds a passkey, signs in with password and passkey, and signs a transfer with it", {
    timeout: 180_000,
  }, async () => {
    const customer = await openPage(browser, 1280, localhostBaseUrl());
    const { page } = customer;
    const authenticator = await addVirtualAuthenticator(page);
    const user = newUser("Petra");
    await signUp(page, user);
    await signIn(page, user.email);
    const { kyc, accountRequest } = await applyThroughApi(customer.context.request);
    const admin = await approveAndFund(kyc, accountRequest.id);

    await page.goto("/settings");
    await page.getByRole("heading", { name: "Passkeys" }).waitFor();
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByLabel("Passkey name").fill("E2E laptop");
    await page.getByRole("button", { name: "Continue" }).click();
    await toastWith(page, "Passkey added").waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);

    // Sign out; the password alone now leads to "Verify it's you", answered with the passkey.
    await page.goto("/api/logout");
    await page.goto("/auth");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("heading", { name: "Verify it's you" }).waitFor();
    expect((await customer.context.cookies()).some((c) => c.name === "sid")).toBe(false);
    await shot(page, "passkey-transfer-verify");
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();
    expect((await (await page.request.get("/api/auth/user")).json()).email).toBe(user.email);

    // Send $40.00: the confirm step asks for the passkey, which signs this very transfer.
    await page.goto("/send-money");
    await page.getByLabel("Amount (USD)").fill("40.00");
    await page.getByLabel("Recipient Name").fill("Ana Ruiz");
    await page.getByLabel("USDC Wallet Address").fill(ADDRESS);
    await page.getByLabel("Transfer Purpose").fill("Rent share");
    await page.getByRole("button", { name: /^Send \$40\.00/ }).click();
    await page.getByRole("button", { name: "Confirm and send" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm this transfer" });
    await dialog.waitFor();
    await dialog.getByText("$40.00").waitFor();
    await shot(page, "passkey-transfer-confirm");
    // The rest at a phone's width: the signed summary and the passkey button must fit 375 px.
    await page.setViewportSize({ width: 375, height: 812 });
    await dialog.getByText(ADDRESS).waitFor();
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
    const mine = transfers.filter((t) => t.userId === kyc.userId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ amountCents: 4000, cryptoAddress: ADDRESS, recipientName: "Ana Ruiz" });
    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
    expect(customer.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await admin.context.close();
    await customer.context.close();
  });
});
