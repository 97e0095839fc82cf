import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import {
  newUser,
  shot,
  shots,
  signIn,
  signInAsAdmin,
  signUp,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { makePng } from "@/tests/support/files";

const browser = setUpBrowser();

describe("staff roles", () => {
  it("an owner grants support in the Staff tab; support sees only Users and Chats and cannot open a document", async () => {
    // A customer's uploaded document: what a KYC application links to.
    const customer = await openPage(browser);
    customer.page.setDefaultTimeout(20_000);
    const customerUser = await signUpNewCustomer(customer.page, "Doris");
    const upload = await customer.context.request.post("/api/objects/upload");
    expect(upload.status()).toBe(200);
    const { uploadURL, objectPath } = (await upload.json()) as { uploadURL: string; objectPath: string };
    const put = await customer.context.request.put(uploadURL, {
      headers: { "content-type": "image/png" },
      data: makePng(),
    });
    expect(put.status()).toBe(200);

    // The future colleague signs up like anyone else.
    const colleagueUser = newUser("Sam");
    const colleague = await openPage(browser);
    colleague.page.setDefaultTimeout(20_000);
    await signUp(colleague.page, colleagueUser);

    // The owner adds them as support in the Staff tab, with a confirm step.
    const owner = await openPage(browser);
    owner.page.setDefaultTimeout(20_000);
    await signInAsAdmin(owner.page);
    await owner.page.goto("/admin");
    await owner.page.getByRole("tab", { name: "Staff" }).click();
    const addStaff = owner.page.getByRole("form", { name: "Add staff" });
    await addStaff.getByRole("button", { name: "Add staff" }).click();
    await addStaff.getByText("Enter the e-mail of an existing account").waitFor();
    await addStaff.getByLabel("Email").fill(colleagueUser.email);
    await addStaff.getByRole("checkbox", { name: "Support" }).click();
    await addStaff.getByRole("button", { name: "Add staff" }).click();
    await owner.page.getByRole("alertdialog", { name: "Grant Support?" }).waitFor();
    await owner.page.getByRole("button", { name: "Grant roles" }).click();
    await toastWith(owner.page, "Roles granted").waitFor();
    const row = owner.page.getByRole("list", { name: "Staff members" }).getByRole("listitem").filter({
      hasText: colleagueUser.email,
    });
    await row.getByText("Support", { exact: true }).waitFor();
    // No second factor yet: the list says so (with ADMIN_REQUIRE_2FA on, as in production, the back office
    // stays closed to them until they set one up — staff-management.api.test.ts).
    await row.getByText("No second factor").waitFor();
    await expectAccessible(owner.page, "/admin Staff tab");
    await shot(owner.page, "admin-staff-1280");

    // The owner's document link works for compliance and owners…
    expect((await owner.context.request.get(objectPath)).status()).toBe(200);

    // …support signs in and sees only the tabs their role allows.
    await signIn(colleague.page, colleagueUser.email);
    await colleague.page.goto("/admin");
    await colleague.page.getByRole("tab", { name: "User Management" }).waitFor();
    const tabs = await colleague.page.getByRole("tab").allTextContents();
    expect(tabs.map((t) => t.trim())).toEqual(["User Management", "User Chats"]);
    // The customer view is read-only: no balance edit, no delete, no dashboard editing.
    await colleague.page.getByLabel("Search users").fill(customerUser.email);
    await colleague.page.getByRole("button", { name: `View details for Doris Tester` }).click();
    const details = colleague.page.getByRole("dialog", { name: "User Details" });
    await details.getByText(customerUser.email).waitFor();
    expect(await details.getByRole("button", { name: /balance/i }).count()).toBe(0);
    expect(await details.getByRole("link", { name: "Edit Dashboard Content" }).count()).toBe(1);
    expect(await colleague.page.getByRole("button", { name: /^Delete / }).count()).toBe(0);
    await shot(colleague.page, "admin-support-1280");
    await colleague.page.keyboard.press("Escape");
    // A document is not theirs to open: the link is nowhere, and the URL answers like a missing file.
    expect(await colleague.page.locator(`a[href^="/objects/"]`).count()).toBe(0);
    const refused = await colleague.context.request.get(objectPath);
    expect(refused.status()).toBe(404);
    expect((await colleague.context.request.get("/api/admin/kyc-applications")).status()).toBe(403);

    expect(customer.errors).toEqual([]);
    expect(owner.errors).toEqual([]);
    expect(colleague.errors).toEqual([]);
    await Promise.all([customer.context.close(), owner.context.close(), colleague.context.close()]);
  }, 240_000);

  it("sends staff to the back office after sign-in and from every customer-only page", async () => {
    const staff = await openPage(browser);
    staff.page.setDefaultTimeout(20_000);
    await signInAsAdmin(staff.page);
    // Sign-in lands on /admin: no customer dashboard offering "Apply Checking Account" or "Send Money".
    await staff.page.getByRole("tab", { name: "User Management" }).waitFor();
    await staff.page.getByRole("link", { name: "Settings" }).waitFor();
    await staff.page.getByRole("link", { name: "Logout" }).waitFor();
    for (const path of ["/", "/dashboard", "/apply-checking", "/send-money", "/recipients", "/analytics"]) {
      await staff.page.goto(path);
      await staff.page.waitForURL((url) => url.pathname === "/admin");
      await staff.page.getByRole("tab", { name: "User Management" }).waitFor();
      expect(await staff.page.getByText("Apply Checking Account").count(), path).toBe(0);
      expect(await staff.page.getByRole("link", { name: /send money/i }).count(), path).toBe(0);
    }
    // Settings (where staff set up their second factor) stays theirs.
    await staff.page.goto("/settings");
    await staff.page.getByRole("heading", { name: "Account Settings" }).waitFor();
    expect(staff.page.url()).toMatch(/\/settings$/);
    await shots(staff.page, "staff-settings");
    expect(staff.errors).toEqual([]);
    await staff.context.close();
  }, 120_000);
});
