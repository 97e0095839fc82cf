import { describe, expect, it } from "vitest";
import { ONBOARDING_ADMIN_MESSAGES } from "@/contract/admin-onboarding";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  PASSWORD,
  shots,
  signIn,
  signInAsAdmin,
  signUp,
} from "@/tests/e2e/support/journeys";
import { waitForMail } from "@/tests/e2e/support/mail";

const browser = setUpBrowser();

const NEW_PASSWORD = "Copper-Willow-38-sunrise";
const RESET_PASSWORD = "Granite-Orchid-72-evening";

describe("identity journey", () => {
  it("signs up with the e-mailed code, changes the password, logs out, resets it and signs in again", async () => {
    const { page, errors, context } = await openPage(browser);
    const email = `journey_${Date.now()}@example.com`;
    await signUp(page, { email, firstName: "Grace", tag: `grace_${Date.now() % 100000}` });
    await signIn(page, email, PASSWORD);
    await page.getByText(/Grace/).first().waitFor();

    await page.goto("/settings");
    await page.getByRole("heading", { name: "Account Settings" }).waitFor();
    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Send Verification Code" }).click();
    const changeMail = await waitForMail(
      email,
      (m) => /code/i.test(m.subject) && /password/i.test(m.subject + m.text),
    );
    await expect.poll(() => page.getByLabel("Current password").isDisabled()).toBe(true);
    await page
      .getByText(/\d:\d\d/)
      .first()
      .waitFor();
    await page.getByLabel("Verification code").fill(changeMail.code!);
    await page.getByRole("button", { name: "Update Password" }).click();
    await expect.poll(() => page.getByLabel("Current password").inputValue()).toBe("");
    await waitForMail(email, (m) => /changed/i.test(m.subject));

    await page
      .getByRole("button", { name: /log ?out/i })
      .or(page.getByRole("link", { name: /log ?out/i }))
      .first()
      .click();
    // Logout lands on the sign-in page's "You're signed out" confirmation (issue "A customer's trust").
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("signedOut") === "1");
    await page.getByText("You're signed out").waitFor();

    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send Reset Code" }).click();
    const resetMail = await waitForMail(email, (m) => /reset/i.test(m.subject));
    await page.getByLabel("Reset code").fill(resetMail.code!);
    await page.getByLabel("New password", { exact: true }).fill(RESET_PASSWORD);
    await page.getByLabel("Confirm new password").fill(RESET_PASSWORD);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.waitForURL("**/auth");

    await signIn(page, email, RESET_PASSWORD);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("sends a customer away from /admin, and lets an admin delete a user", async () => {
    const customer = await openPage(browser);
    const victimEmail = `victim_${Date.now()}@example.com`;
    await signUp(customer.page, {
      email: victimEmail,
      firstName: "Victor",
      tag: `victor_${Date.now() % 100000}`,
    });
    await signIn(customer.page, victimEmail, PASSWORD);
    await customer.page.goto("/admin");
    await toastWith(customer.page, "You don't have permission to access this page.").waitFor();
    await customer.page.waitForURL((url) => url.pathname === "/");
    expect(customer.errors.filter((e) => !/403/.test(e))).toEqual([]);

    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await admin.page.getByRole("tab", { name: "User Management" }).waitFor();
    await admin.page.getByRole("button", { name: "Delete Victor Tester" }).click();
    await admin.page
      .getByText("Are you sure you want to delete this user? This action cannot be undone.")
      .waitFor();
    await admin.page.getByRole("button", { name: "Delete user" }).click();
    await toastWith(admin.page, "User deleted successfully").waitFor();
    await expect.poll(() => admin.page.getByRole("button", { name: "Delete Victor Tester" }).count()).toBe(0);

    // The deleted customer's session is gone with the account.
    const res = await customer.context.request.get("/api/auth/user");
    expect(res.status()).toBe(401);
    expect(admin.errors).toEqual([]);
    await customer.context.close();
    await admin.context.close();
  });

  it("refuses to open an account while the identity check is rejected, and the admin's dialog says why", async () => {
    const customer = await openPage(browser);
    const email = `rejected_${Date.now()}@example.com`;
    await signUp(customer.page, { email, firstName: "Rita", tag: `rita_${Date.now() % 100000}` });
    await signIn(customer.page, email, PASSWORD);
    const applied = await applyThroughApi(customer.context.request, {
      firstName: "Rita",
      lastName: "Tester",
    });

    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    const rejected = await admin.context.request.put(`/api/admin/kyc/${applied.kyc.id}/reject`, {
      data: { notes: "The licence photo is blurred" },
    });
    expect(rejected.status()).toBe(200);
    await admin.page.getByRole("tab", { name: "Account Requests" }).click();
    await admin.page.getByLabel("Search account requests").fill(email);
    await admin.page.getByRole("button", { name: "Manage account request from Rita Tester" }).click();
    const dialog = admin.page.getByRole("dialog", { name: "Manage Account Request" });
    await dialog.getByLabel("Status", { exact: true }).selectOption("approved");
    await dialog.getByRole("alert").getByText(ONBOARDING_ADMIN_MESSAGES.identityNotApproved).waitFor();
    await dialog.getByText("Identity check: Rejected").waitFor();
    expect(await dialog.getByRole("button", { name: "Update Request" }).isDisabled()).toBe(true);
    await shots(admin.page, "admin-account-request-identity-rejected");
    // A stale screen or a direct call is refused by the server the same way.
    const refused = await admin.context.request.put(
      `/api/admin/account-requests/${applied.accountRequest.id}`,
      {
        data: { status: "approved" },
      },
    );
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toMatchObject({
      message: ONBOARDING_ADMIN_MESSAGES.identityNotApproved,
      identityNotApproved: true,
    });

    // The customer's dashboard shows the rejected identity check, and no open account.
    await customer.page.goto("/dashboard");
    const timeline = customer.page.getByRole("list").filter({ hasText: "Identity check" });
    await timeline.getByText("Rejected").first().waitFor();
    expect(await timeline.getByText("Verified", { exact: true }).count()).toBe(0);
    expect(await timeline.getByText("Approved", { exact: true }).count()).toBe(0);
    expect(customer.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await customer.context.close();
    await admin.context.close();
  }, 120_000);
});
