import { describe, expect, inject, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import { shot, signIn, signInAsAdmin, signUpNewCustomer } from "@/tests/e2e/support/journeys";
import { waitForMail } from "@/tests/e2e/support/mail";

const browser = setUpBrowser();

const NEW_PASSWORD = "Granite-Orchid-72-evening";

describe("This wasn't me", () => {
  it("freezes from the new-device mail, asks for a reset at sign-in, shows the banner, and staff lift it", async () => {
    const owner = await openPage(browser);
    const user = await signUpNewCustomer(owner.page, "Frida");

    // A second browser signs in: the owner gets the new-device mail.
    const second = await openPage(browser, 375);
    await signIn(second.page, user.email);
    const mail = await waitForMail(user.email, (m) => /new sign-in/i.test(m.subject));
    expect(mail.text).toMatch(/Browser: Chrome \d+ on Linux/);
    expect(mail.text).toMatch(/Approximate place: IP 127\.0\.0\.1/);
    const link = /(\/this-wasnt-me#token=[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(link).toBeDefined();

    // The owner opens it on a phone, signed out.
    const phone = await openPage(browser, 375);
    await phone.page.goto(link!);
    const freeze = phone.page.getByRole("button", { name: "Freeze my account" });
    await freeze.waitFor();
    await expectAccessible(phone.page, "/this-wasnt-me (ready)");
    await shot(phone.page, "this-wasnt-me-ready-375");
    await freeze.focus();
    await phone.page.keyboard.press("Enter");
    await phone.page.getByRole("heading", { name: "Done. Your account is frozen" }).waitFor();
    expect(phone.page.url()).not.toContain("token=");
    await expectAccessible(phone.page, "/this-wasnt-me (frozen)");

    // Both browsers were signed out.
    expect((await owner.context.request.get("/api/auth/user")).status()).toBe(401);
    expect((await second.context.request.get("/api/auth/user")).status()).toBe(401);

    // The same link again says so at once, without offering the button again.
    await phone.page.goto("/");
    await phone.page.goto(link!);
    await phone.page.getByRole("heading", { name: "Your account was already frozen" }).waitFor();
    expect(await phone.page.getByRole("button", { name: "Freeze my account" }).count()).toBe(0);
    await shot(phone.page, "this-wasnt-me-already-frozen-375");

    // Signing in with the right password: told to reset it.
    await phone.page.goto("/auth");
    await phone.page.getByLabel("Email").fill(user.email);
    await phone.page.getByLabel("Password", { exact: true }).fill("Harbor-Lantern-91-quietly");
    await phone.page.getByRole("button", { name: "Sign In", exact: true }).click();
    const alert = phone.page.getByRole("alert").filter({ hasText: "Reset your password to sign in" });
    await alert.waitFor();
    await expectAccessible(phone.page, "/auth (reset required)");
    await shot(phone.page, "sign-in-reset-required-375");
    await alert.getByRole("link", { name: "Reset my password" }).click();
    await phone.page.getByLabel("Email").fill(user.email);
    await phone.page.getByRole("button", { name: "Send Reset Code" }).click();
    const resetMail = await waitForMail(user.email, (m) => /reset/i.test(m.subject));
    await phone.page.getByLabel("Reset code").fill(resetMail.code!);
    await phone.page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await phone.page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await phone.page.getByRole("button", { name: "Reset Password" }).click();
    await phone.page.waitForURL("**/auth");
    await signIn(phone.page, user.email, NEW_PASSWORD);
    const banner = phone.page.getByRole("region", { name: "Your account is frozen" });
    await banner.waitFor();
    await expectAccessible(phone.page, "/dashboard (frozen)");

    // Staff see the freeze and lift it.
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await admin.page.goto("/admin");
    await admin.page.getByLabel("Search users").fill(user.email);
    await admin.page
      .getByText(/^Frozen /)
      .first()
      .waitFor();
    await admin.page.getByRole("button", { name: `View details for ${user.firstName} Tester` }).click();
    const dialog = admin.page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Account frozen" }).waitFor();
    await expectAccessible(admin.page, "User Details (frozen)");
    await shot(admin.page, "admin-user-frozen-1280");
    await dialog.getByRole("button", { name: "Lift freeze" }).click();
    // Maker-checker (decision 007): the lift asks a reason and waits for a second staff member.
    const ask = admin.page.getByRole("dialog", { name: `Lift the freeze on ${user.firstName} Tester?` });
    await ask.getByLabel("Reason for lifting the freeze").fill("Customer confirmed by phone");
    await ask.getByRole("button", { name: "Send for approval" }).click();
    await toastWith(admin.page, "Sent for approval").waitFor();
    const checker = await openPage(browser);
    await signInAsAdmin(checker.page, undefined, inject("checkerEmail"));
    await checker.page.goto("/admin");
    await checker.page.getByRole("tab", { name: "Approvals" }).click();
    const request = checker.page.getByRole("listitem", { name: `Lift freeze for ${user.firstName} Tester` });
    await request.getByRole("button", { name: /^Approve/ }).click();
    await toastWith(checker.page, "Approved").waitFor();
    await admin.page.reload();
    await admin.page.getByLabel("Search users").fill(user.email);
    await expect.poll(() => admin.page.getByText(/^Frozen /).count()).toBe(0);

    await phone.page.reload();
    await phone.page.getByRole("heading", { level: 1 }).waitFor();
    expect(await banner.count()).toBe(0);

    for (const tracked of [owner, second, phone, admin, checker]) {
      expect(tracked.errors).toEqual([]);
      await tracked.context.close();
    }
  });

  it("explains a broken or missing link", async () => {
    const { page, errors, context } = await openPage(browser, 375);
    await page.goto("/this-wasnt-me");
    await page.getByRole("heading", { name: "This link doesn't work" }).waitFor();
    // An unknown link is known to be broken before anything is pressed.
    await page.goto(`/this-wasnt-me#token=${"x".repeat(43)}`);
    await page.getByRole("heading", { name: "This link doesn't work" }).waitFor();
    await expectAccessible(page, "/this-wasnt-me (invalid)");
    expect(errors).toEqual([]);
    await context.close();
  });
});
