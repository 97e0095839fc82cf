import { describe, expect, it } from "vitest";
import { ADMIN_MESSAGES } from "@/contract/admin";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import {
  creditCustomer,
  newUser,
  openAccountThroughApi,
  shots,
  signInAsAdmin,
  signUp,
} from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

describe("the back office's own screens", () => {
  it("staff Settings offers no customer actions, and its way back is the back office", async () => {
    const { page, context, errors } = await openPage(browser);
    await signInAsAdmin(page);
    await page.goto("/settings");
    await page.getByRole("heading", { level: 1, name: "Account Settings" }).waitFor();
    await page.getByRole("heading", { name: "Change Password" }).waitFor();
    await page.getByRole("link", { name: "Back to Admin Panel" }).waitFor();
    // Each of these bounced staff to /admin: a customer's dashboard, application and money screens.
    for (const name of ["Back to Dashboard", "Dashboard", "Send Money", "Contact Support", /Apply Checking/])
      expect(await page.getByRole("link", { name, exact: true }).count(), String(name)).toBe(0);
    for (const href of ["/dashboard", "/apply-checking", "/send-money", "/contact"])
      expect(await page.locator(`a[href="${href}"]`).count(), href).toBe(0);
    expect(await page.getByRole("heading", { name: "Quick Actions" }).count()).toBe(0);
    await shots(page, "staff-settings");

    await page.getByRole("link", { name: "Back to Admin Panel" }).click();
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("/admin on a phone shows its whole title, without sideways scroll", async () => {
    const { page, context, errors } = await openPage(browser, 375);
    await signInAsAdmin(page);
    const title = page.getByRole("heading", { level: 1, name: "Admin Dashboard" });
    await title.waitFor();
    // Truncated, the heading's text is wider than its box (it read "A…").
    const fits = await title.evaluate((h) => h.scrollWidth <= h.clientWidth);
    expect(fits).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole("link", { name: "Settings" }).waitFor();
    await shots(page, "staff-admin");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("refusing to delete a customer says why: the server's reason under the spec's title", async () => {
    const holder = newUser("Hugo");
    const signup = await openPage(browser);
    await signUp(signup.page, holder);
    await signup.context.close();
    const applied = await openAccountThroughApi(holder);

    const { page, context, errors } = await openPage(browser);
    await signInAsAdmin(page);
    await creditCustomer(context.request, applied.kyc.userId, "15.00", "Payroll");
    await page.getByRole("tab", { name: "User Management" }).click();
    await page.getByLabel("Search users").fill(holder.email);
    await page.getByRole("button", { name: `Delete ${holder.firstName} Tester` }).click();
    await page.getByRole("button", { name: "Delete user" }).click();
    const toast = toastWith(page, "Failed to delete user");
    await toast.waitFor();
    await toast.getByText(ADMIN_MESSAGES.userHasMoney).waitFor();
    // Still there: nothing was deleted.
    await page.getByRole("button", { name: `Delete ${holder.firstName} Tester` }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
