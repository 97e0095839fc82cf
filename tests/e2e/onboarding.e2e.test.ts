import { describe, expect, it } from "vitest";
import { KYC_MESSAGES } from "@/contract/kyc";
import { NAME_MESSAGES } from "@/contract/person-name";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  PASSWORD,
  shot,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { makePng } from "@/tests/support/files";

const browser = setUpBrowser();

describe("onboarding journey", () => {
  it("applies for checking with real uploads, is approved by an admin, and sees the account on the dashboard", async () => {
    const customer = await openPage(browser);
    const { page } = customer;
    const lastName = "Applicant";
    const user = await signUpNewCustomer(page, "Olivia", lastName);
    const name = `${user.firstName} ${lastName}`;

    // Step 1: personal information, with the SSN formatted 3-2-4 as it is typed.
    await page.goto("/apply-checking");
    await page.getByRole("heading", { name: "Apply for a Checking Account" }).waitFor();
    // A first name mixing alphabets (Greek N, Cyrillic o and e: docs/banking.md "Sanctions screening") is stopped at
    // Next.
    await page.getByLabel("First name").fill("\u039d\u043e\u0435l");
    await page.getByLabel("Last name").fill(lastName);
    // The date of birth: someone under 18 is stopped at Next with the reason under the field.
    const dateOfBirth = page.getByLabel("Date of birth");
    const seventeen = new Date();
    seventeen.setFullYear(seventeen.getFullYear() - 17);
    await dateOfBirth.fill(seventeen.toISOString().slice(0, 10));
    await page.getByLabel("Street address").fill("12 Harbor Street");
    await page.getByLabel("City").fill("New York");
    // A code that is no US state is stopped at Next too, once the rest is right.
    await page.getByLabel("State").fill("zz");
    await page.getByLabel("ZIP code").fill("10001");
    const ssn = page.getByLabel("Social Security Number");
    const digits = String(100_000_000 + Math.floor(Math.random() * 800_000_000));
    const typed: string[] = [];
    for (const d of digits) {
      await ssn.press(d);
      typed.push(await ssn.inputValue());
    }
    const d = digits;
    expect(typed[2]).toBe(d.slice(0, 3));
    expect(typed[3]).toBe(`${d.slice(0, 3)}-${d[3]}`);
    expect(typed[5]).toBe(`${d.slice(0, 3)}-${d.slice(3, 5)}-${d[5]}`);
    expect(typed[8]).toBe(`${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`);
    await ssn.press("7"); // a tenth digit is ignored
    expect(await ssn.inputValue()).toBe(typed[8]);
    expect(await page.getByLabel("State").inputValue()).toBe("ZZ");
    await page.getByRole("button", { name: "Next" }).click();
    await page.locator("#kyc-firstName-error").getByText(NAME_MESSAGES.mixedScripts).waitFor();
    await shots(page, "apply-step1-mixed-name");
    await page.getByLabel("First name").fill(user.firstName);
    await page.getByRole("button", { name: "Next" }).click();
    await page.locator("#kyc-dateOfBirth-error").getByText(KYC_MESSAGES.dateOfBirthUnderage).waitFor();
    await shot(page, "apply-step1-underage");
    await dateOfBirth.fill("1990-05-17");
    await page.getByRole("button", { name: "Next" }).click();
    await page.locator("#kyc-state-error").getByText(KYC_MESSAGES.stateUnknown).waitFor();
    expect(await page.getByLabel("State").getAttribute("aria-invalid")).toBe("true");
    await shots(page, "apply-step1-state");
    await page.getByLabel("State").fill("ny");
    expect(await page.getByLabel("State").inputValue()).toBe("NY");
    await shot(page, "apply-step1");
    await page.getByRole("button", { name: "Next" }).click();

    // Step 2: real PNG files through the file inputs.
    await page.getByText("Step 2 of 2: Documents").waitFor();
    await page.locator("#kyc-drivingLicenseFront").setInputFiles({
      name: "license-front.png",
      mimeType: "image/png",
      buffer: makePng(64, 40, [15, 76, 92]),
    });
    await page.locator("#kyc-drivingLicenseBack").setInputFiles({
      name: "license-back.png",
      mimeType: "image/png",
      buffer: makePng(64, 40, [200, 120, 40]),
    });
    await expect.poll(() => page.getByText("Uploaded", { exact: true }).count()).toBe(2);
    await page.getByText("license-front.png").waitFor();
    await shot(page, "apply-step2");
    await page.getByRole("button", { name: "Submit Application" }).click();
    await page.getByRole("heading", { name: "Application submitted" }).waitFor();
    await toastWith(page, "Application Submitted").waitFor();
    const submittedAt = Date.now();
    await page.waitForURL("**/dashboard", { timeout: 6000 });
    expect(Date.now() - submittedAt).toBeGreaterThanOrEqual(1500);
    await page.getByText("Pending Review").waitFor();
    await page.getByText("Your account application is being reviewed").waitFor();
    await shot(page, "dashboard-pending");

    // The admin reviews the documents and approves the KYC.
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await admin.page.getByRole("tab", { name: "KYC Applications" }).click();
    await admin.page.getByRole("button", { name: `View License front for ${name}` }).click();
    const dialog = admin.page.getByRole("dialog");
    const image = dialog.getByRole("img", { name: `License front for ${name}` });
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: 10_000,
      })
      .toBe(64);
    await dialog.getByRole("link", { name: "Open in New Tab" }).waitFor();
    const documentPath = await image.getAttribute("src");
    expect(documentPath).toMatch(/^\/objects\//);
    await shot(admin.page, "admin-kyc-viewer");
    await admin.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await shot(admin.page, "admin-kyc-tab");
    await admin.page.getByRole("button", { name: `Approve application from ${name}` }).click();
    await toastWith(admin.page, "KYC status updated successfully").waitFor();
    await expect
      .poll(() => admin.page.getByRole("button", { name: `Approve application from ${name}` }).count())
      .toBe(0);

    // Account Requests → Manage → approved, with a prefilled account number and the default routing number.
    await admin.page.getByRole("tab", { name: "Account Requests" }).click();
    await admin.page.getByRole("button", { name: `Manage account request from ${name}` }).click();
    const manage = admin.page.getByRole("dialog");
    await manage.getByRole("heading", { name: "Manage Account Request" }).waitFor();
    await manage.getByLabel("Status", { exact: true }).selectOption("approved");
    const accountNumber = await manage.getByLabel("Account number").inputValue();
    expect(accountNumber).toMatch(/^[1-9]\d{8}$/);
    expect(await manage.getByLabel("Routing number").inputValue()).toBe("021000021");
    await shot(admin.page, "admin-manage-dialog");
    await manage.getByRole("button", { name: "Update Request" }).click();
    await toastWith(admin.page, "Account request updated successfully").waitFor();
    await manage.waitFor({ state: "detached" });
    await admin.page.getByText(accountNumber).first().waitFor();
    await shot(admin.page, "admin-account-requests");

    // The customer's dashboard picks the approval up (it polls every 10 s).
    await page.getByText("Verified", { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByText(`•••••${accountNumber.slice(-4)}`).waitFor({ timeout: 15_000 });
    await page.getByText("021000021").waitFor();
    await page.getByRole("button", { name: "Show account number" }).click();
    await page.getByText(accountNumber, { exact: true }).waitFor();
    await shot(page, "dashboard-approved");
    if (process.env.E2E_SHOTS) {
      await page.setViewportSize({ width: 375, height: 812 });
      await shot(page, "dashboard-approved-375");
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    // Settings shows the verified identity.
    await page.goto("/settings");
    await page.getByRole("heading", { name: "Account Settings" }).waitFor();
    await page.getByText("Verified", { exact: true }).first().waitFor();
    await shot(page, "settings-identity");

    // The owner may read their own document; another customer gets a 404, not the file.
    const own = await customer.context.request.get(documentPath!);
    expect(own.status()).toBe(200);
    expect(own.headers()["content-type"]).toBe("image/png");
    const stranger = await openPage(browser);
    await signUpNewCustomer(stranger.page, "Mallory");
    const denied = await stranger.context.request.get(documentPath!);
    expect(denied.status()).toBe(404);

    expect(customer.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    expect(stranger.errors).toEqual([]);
    await customer.context.close();
    await admin.context.close();
    await stranger.context.close();
  });

  it("refuses at sign-up a name hiding an invisible character, under the field, before anything is sent", async () => {
    const { page } = await openPage(browser);
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Get Started" }).click();
    await page.getByLabel("First name").fill("Noel");
    // "He\u200bath": a zero-width space inside (docs/banking.md "Sanctions screening") reads as "Heath" and screened
    // as another name.
    await page.getByLabel("Last name").fill("He\u200bath");
    await page.getByLabel("Email").fill(`zero_width_${Date.now()}@example.com`);
    await page.getByLabel("Pillar tag").fill(`zw${Date.now()}`);
    await page.getByLabel("Phone number").fill("+1 212 555 0142");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByRole("checkbox", { name: /I agree to the Terms of Service/ }).click();
    const registers: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/auth/register")) registers.push(r.url());
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.locator("#signup-last-name-error").getByText(NAME_MESSAGES.invisibleCharacters).waitFor();
    expect(await page.getByLabel("Last name").getAttribute("aria-invalid")).toBe("true");
    expect(registers).toEqual([]);
    await shots(page, "signup-invisible-name");
  });

  it("logs out to a calm confirmation; Back asks to sign in and returns to the page afterwards", async () => {
    const { page, errors, context } = await openPage(browser);
    const user = await signUpNewCustomer(page, "Lena");
    await page.goto("/send-money");
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "Skip to content" }).waitFor({ state: "attached" });
    // A link, so it works on the server-drawn page even before its script has loaded.
    await page
      .getByRole("link", { name: /log ?out/i })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("signedOut") === "1");
    await page.getByText("You're signed out").waitFor();
    expect((await context.cookies()).some((c) => c.name === "pillar_signed_in")).toBe(false);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("next") === "/dashboard");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByRole("heading", { level: 1, name: `Welcome back, ${user.firstName}!` }).waitFor();

    // Signed in, /auth goes to the dashboard; a hostile next never leaves the site.
    await page.goto("/auth?next=%2F%2Fevil.example");
    await page.waitForURL((url) => url.pathname === "/dashboard");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a rejected customer one timeline with the reason, and the admin's preview shows the same", async () => {
    const customer = await openPage(browser);
    await signUpNewCustomer(customer.page, "Jane");
    const { kyc } = await applyThroughApi(customer.context.request, {
      firstName: "Jane",
      lastName: "Tester",
    });
    const { id: kycId, userId } = kyc;

    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    const reason = "The licence photo is too blurred to read.";
    expect(
      (
        await admin.context.request.put(`/api/admin/kyc/${kycId}/reject`, { data: { notes: reason } })
      ).status(),
    ).toBe(200);
    const title = await admin.context.request.put(`/api/admin/dashboard-content/${userId}`, {
      data: { welcomeTitle: "Good to see you, Jane" },
    });
    expect(title.status()).toBe(200);

    await customer.page.goto("/dashboard");
    await customer.page
      .getByRole("heading", { level: 1, name: "Good to see you, Jane", exact: true })
      .waitFor();
    await customer.page.getByText(reason).waitFor();
    await customer.page.getByText("Rejected", { exact: true }).waitFor();
    const timeline = customer.page.getByRole("list").filter({ hasText: "Identity check" });
    expect(await timeline.getByText(/Pending/).count()).toBe(0);
    await customer.page.getByRole("link", { name: "Submit New Application" }).waitFor();
    await shot(customer.page, "dashboard-rejected");

    await admin.page.goto(`/dashboard-edit/${userId}`);
    const preview = admin.page.getByRole("region", { name: "Dashboard preview" });
    await preview.getByRole("heading", { name: "Good to see you, Jane", exact: true }).waitFor();
    await preview.getByText(reason).waitFor();
    expect(await preview.getByText("being reviewed").count()).toBe(0);
    expect(customer.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await customer.context.close();
    await admin.context.close();
  });
});
