import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { openPage, setUpBrowser, type TrackedPage, toastWith } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  newUser,
  requestTransferThroughApi,
  shot,
  shots,
  signIn,
  signInAsAdmin,
  signUp,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { waitForMail } from "@/tests/e2e/support/mail";

/** Issue "A customer's trust", the back office: toasts raised by the mutations, read-only final rows, one stats definition. */

/** Picks an option of a Radix select opened from its trigger. */
async function choose(page: Page, trigger: Locator, option: string | RegExp) {
  await trigger.click();
  await page.getByRole("option", { name: option }).click();
}

/** The two boxes do not overlap: the toast never sits on the field in error. */
async function expectToastClearOf(page: Page, toastText: string, fieldId: string) {
  const toast = toastWith(page, toastText);
  await toast.waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(fieldId);
  // Let the toast finish sliding in and the field finish scrolling to the middle.
  await page.waitForTimeout(400);
  const a = await toast.boundingBox();
  const b = await page.locator(`#${fieldId}`).boundingBox();
  expect(a && b).toBeTruthy();
  if (!a || !b) return;
  const apart =
    a.y + a.height <= b.y || b.y + b.height <= a.y || a.x + a.width <= b.x || b.x + b.width <= a.x;
  expect(apart, `toast ${JSON.stringify(a)} covers #${fieldId} ${JSON.stringify(b)}`).toBe(true);
}

const browser = setUpBrowser();
let admin: TrackedPage;

beforeAll(async () => {
  admin = await openPage(browser);
  await signInAsAdmin(admin.page);
});

/** The second staff member (ADMIN_EMAILS' checker) approves the pending approval of `kind` for the customer. */
async function approvePendingAsChecker(customerEmail: string, kind: string) {
  const checker = await openPage(browser);
  await signInAsAdmin(checker.page, undefined, inject("checkerEmail"));
  const list = await checker.context.request.get("/api/admin/approvals?status=pending&limit=100");
  const pending = (await list.json()).items.find(
    (a: { kind: string; user: { email: string } | null }) =>
      a.kind === kind && a.user?.email.toLowerCase() === customerEmail.toLowerCase(),
  );
  expect(pending, `a pending ${kind} for ${customerEmail}`).toBeTruthy();
  const approved = await checker.context.request.post(`/api/admin/approvals/${pending.id}/approve`, {
    data: {},
  });
  expect(approved.status()).toBe(200);
  expect(checker.errors).toEqual([]);
  await checker.context.close();
}

describe("admin desk", () => {
  it("shows every decision's success toast even when the row leaves its filter, and final rows offer no edit", async () => {
    const customer = await openPage(browser);
    const user = await signUpNewCustomer(customer.page, "Kira", "Desk");
    const name = "Kira Desk";
    const { kyc } = await applyThroughApi(customer.context.request, { firstName: "Kira", lastName: "Desk" });
    const { page } = admin;

    // KYC: rejected from the Pending filter, the row (and its dialog) unmounts, and the toast still shows.
    await page.goto("/admin");
    await page.getByRole("tab", { name: "KYC Applications" }).click();
    await page.getByLabel("Search KYC applications").fill(user.email);
    await page.getByRole("button", { name: "Pending", exact: true }).click();
    await page.getByRole("button", { name: `Reject application from ${name}` }).click();
    await page.getByLabel("Reason for rejection").fill("The licence photo is unreadable.");
    await page.getByRole("button", { name: "Reject Application" }).click();
    await toastWith(page, "KYC status updated successfully").waitFor();
    await page
      .getByRole("button", { name: `Reject application from ${name}` })
      .waitFor({ state: "detached" });
    await page.getByRole("button", { name: "All", exact: true }).click();
    // Maker-checker (decision 007): the reset asks a reason and waits for a second staff member.
    await page.getByRole("button", { name: `Reset application from ${name} to pending` }).click();
    await page.getByLabel("Reason for reopening").fill("The customer sent a clearer licence photo.");
    await page.getByRole("button", { name: "Send for approval" }).click();
    await toastWith(page, "Sent for approval").waitFor();
    await approvePendingAsChecker(user.email, "kyc_reset");
    await page.reload();
    await page.getByRole("tab", { name: "KYC Applications" }).click();
    await page.getByLabel("Search KYC applications").fill(user.email);
    await page.getByRole("button", { name: "Pending", exact: true }).click();
    await page.getByRole("button", { name: `Approve application from ${name}` }).click();
    await toastWith(page, "KYC status updated successfully").waitFor();

    // The account request, approved with the prefilled numbers.
    await page.getByRole("tab", { name: "Account Requests" }).click();
    await page.getByLabel("Search account requests").fill(user.email);
    await page
      .getByRole("button", { name: /^Manage account request from / })
      .first()
      .click();
    await page.getByLabel("Status", { exact: true }).selectOption("approved");
    await page.getByRole("button", { name: "Update Request" }).click();
    await toastWith(page, "Account request updated successfully").waitFor();

    // Incoming payment: created, then completed; the completed row is final.
    await page.getByRole("tab", { name: "Incoming Payments" }).click();
    await page.getByRole("button", { name: "Create Incoming Payment" }).click();
    const create = page.getByRole("dialog", { name: "Create Incoming Payment" });
    // Submitted empty: the spec's toast, and each field in error says so under itself, the first one focused.
    await create.getByRole("button", { name: "Create Payment" }).click();
    await toastWith(page, "Please select a user and enter payment amount").waitFor();
    await create.locator("#create-payment-user-error").getByText("Select a customer").waitFor();
    await create.locator("#create-payment-amount-error").getByText("Enter an amount").waitFor();
    expect(await create.getByLabel("Amount (USD)").getAttribute("aria-invalid")).toBe("true");
    expect(await create.locator("#create-payment-user").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("create-payment-user");
    await shots(page, "admin-create-payment-errors");
    // Editing a field takes its own error and the toast away; the other field keeps its error.
    await create.getByLabel("Amount (USD)").fill("0");
    await toastWith(page, "Please select a user and enter payment amount").waitFor({ state: "detached" });
    expect(await create.locator("#create-payment-amount-error").count()).toBe(0);
    await create.locator("#create-payment-user-error").waitFor();
    await create.getByRole("button", { name: "Create Payment" }).click();
    await create
      .locator("#create-payment-amount-error")
      .getByText("Amount must be a positive dollar amount with at most 2 decimals")
      .waitFor();
    await create.getByLabel("Search customers").fill(user.email);
    await choose(page, create.locator("#create-payment-user"), new RegExp(user.email));
    await create.getByLabel("Amount (USD)").fill("40.00");
    await create.getByRole("button", { name: "Create Payment" }).click();
    await toastWith(page, "Incoming payment created successfully").waitFor();
    await page.getByLabel("Search incoming payments").fill(user.email);
    const customerName = `${user.firstName} ${user.lastName}`;
    await page.getByRole("button", { name: `Edit incoming payment for ${customerName}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit Incoming Payment" });
    await choose(page, edit.getByLabel("Status"), "Completed");
    await edit.getByRole("button", { name: "Update Payment" }).click();
    await toastWith(page, "Payment updated successfully. User balance: $40.00").waitFor();
    const paymentRow = page.locator("li", { hasText: user.email }).filter({ hasText: "Completed" }).first();
    await paymentRow.getByText("Final", { exact: true }).waitFor();
    expect(
      await page.getByRole("button", { name: `Edit incoming payment for ${customerName}` }).count(),
    ).toBe(0);
    // The server still refuses to move a final payment (409), whatever a stale screen might send.
    const payments = await (
      await page.request.get(`/api/admin/incoming-payments?q=${encodeURIComponent(user.email)}`)
    ).json();
    const again = await page.request.put(`/api/admin/incoming-payments/${payments.items[0].id}`, {
      data: { status: "pending" },
    });
    expect(again.status()).toBe(409);

    // Admin credit: created pending, then completed; then final.
    const description = `Refund ${user.tag}`;
    await page.getByRole("button", { name: "Add Incoming Transaction" }).click();
    const add = page.getByRole("dialog", { name: "Add Incoming Transaction" });
    await add.getByRole("button", { name: "Create Transaction" }).click();
    await toastWith(page, "Please fill in all required fields").waitFor();
    await add.locator("#add-transaction-user-error").getByText("Select a customer").waitFor();
    await add.locator("#add-transaction-amount-error").getByText("Enter an amount").waitFor();
    await add.locator("#add-transaction-description-error").getByText("Enter a description").waitFor();
    expect(await add.getByLabel("Description").getAttribute("aria-invalid")).toBe("true");
    await shots(page, "admin-add-transaction-errors");
    await add.getByLabel("Search customers").fill(user.email);
    await choose(page, add.locator("#add-transaction-user"), new RegExp(user.email));
    await add.getByLabel("Amount (USD)").fill("10.00");
    await add.getByLabel("Description").fill(description);
    await choose(page, add.getByLabel("Status"), "Pending");
    await add.getByRole("button", { name: "Create Transaction" }).click();
    await toastWith(page, "Incoming transaction created successfully").waitFor();
    await page.getByLabel("Search transactions").fill(description);
    await page.getByRole("button", { name: `Update status of ${description}` }).click();
    const update = page.getByRole("dialog", { name: "Update Transaction Status" });
    await choose(page, update.getByLabel("Status"), "Completed");
    await update.getByRole("button", { name: "Update Status" }).click();
    await toastWith(page, "Transaction status updated successfully").waitFor();
    const creditRow = page.locator("li", { hasText: description }).first();
    await creditRow.getByText("Final", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: `Update status of ${description}` }).count()).toBe(0);
    await shot(page, "admin-incoming-final-1280");

    // A transfer approved from the desk is final: View (read-only), no Approve, Reject or Review.
    await requestTransferThroughApi(customer.context.request, "5.00");
    await page.getByRole("tab", { name: "Outgoing Pays" }).click();
    await page.getByLabel("Search transfer requests").fill(user.email);
    await page.getByRole("button", { name: `Approve transfer request from ${customerName}` }).click();
    await toastWith(page, "Transfer request updated successfully").waitFor();
    await page.getByRole("button", { name: "All", exact: true }).click();
    const transferRow = page.locator("li", { hasText: user.email }).first();
    await transferRow.getByText("Final", { exact: true }).waitFor();
    expect(await transferRow.getByRole("button", { name: /^Review transfer request/ }).count()).toBe(0);
    expect(await transferRow.getByRole("button", { name: /^Approve transfer request/ }).count()).toBe(0);
    await transferRow.getByRole("button", { name: `View transfer request from ${customerName}` }).click();
    const view = page.getByRole("dialog", { name: "Review Transfer Request" });
    await view.getByText("This transfer is final and can no longer change.").waitFor();
    expect(await view.getByRole("button", { name: "Update Request" }).count()).toBe(0);
    await view.getByRole("button", { name: "Close", exact: true }).first().click();

    // User Management: the balance editor and delete raise their toasts from the mutation too.
    await page.getByRole("tab", { name: "User Management" }).click();
    await page.getByLabel("Search users").fill(user.email);
    await page.getByRole("button", { name: `View details for ${customerName}` }).click();
    await page.getByRole("button", { name: "Edit Balance" }).click();
    await page.getByLabel("New account balance").fill("$50.00");
    // Every adjustment waits for a second finance member (decision 007): the mutation says so.
    await page.getByLabel("Reason for approval").fill("Goodwill credit agreed with the customer");
    await page.getByRole("button", { name: "Save" }).click();
    await toastWith(page, "Sent for approval").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).first().click();
    await page.getByRole("dialog").waitFor({ state: "detached" });

    const leaver = newUser("Leah");
    const leaverPage = await openPage(browser);
    await signUp(leaverPage.page, leaver);
    await leaverPage.context.close();
    await page.getByLabel("Search users").fill(leaver.email);
    await page.getByRole("button", { name: `Delete ${leaver.firstName} Tester` }).click();
    await page.getByRole("button", { name: "Delete user" }).click();
    await toastWith(page, "User deleted successfully").waitFor();

    // User Chats: an empty reply says so under the box as well as in the toast; a real one toasts success.
    const asked = await customer.context.request.post("/api/chat/send", {
      data: { message: "Is my payment in?" },
    });
    expect(asked.status()).toBeLessThan(300);
    await page.getByRole("tab", { name: "User Chats" }).click();
    await page
      .getByRole("button", { name: new RegExp(`^${customerName}`) })
      .first()
      .click();
    const replyBox = page.getByLabel(`Reply to ${customerName}`);
    await replyBox.fill("   ");
    await replyBox.press("Enter");
    await toastWith(page, "Message Required").waitFor();
    await page.getByText("Please enter a message", { exact: true }).last().waitFor();
    expect(await replyBox.getAttribute("aria-invalid")).toBe("true");
    await replyBox.fill("Yes, it arrived today.");
    expect(await replyBox.getAttribute("aria-invalid")).toBeNull();
    await page.getByRole("button", { name: "Send Reply" }).click();
    await toastWith(page, "Reply sent successfully").waitFor();

    // Email Test: both sends toast from their mutations. Samples go to staff only
    // (docs/architecture.md "Design notes"): the forms start from the admin's own address, and a customer's
    // is refused with the reason.
    await page.getByRole("tab", { name: "Email Test" }).click();
    expect(await page.locator("#test-email").inputValue()).toBe(inject("adminEmail"));
    await page.locator("#test-first-name").fill("Ops");
    await page.getByRole("button", { name: "Send Test Email" }).click();
    await toastWith(page, `Test email sent successfully to ${inject("adminEmail")}`).waitFor();
    await page.locator("#pn-email").fill("customer@example.com");
    await page.locator("#pn-recipient").fill("Ops");
    await page.locator("#pn-from").fill("Pillar");
    await page.locator("#pn-amount").fill("12.00");
    await page.getByRole("button", { name: "Send Payment Notification" }).click();
    await toastWith(page, "Test e-mails go to staff addresses only").waitFor();
    await shots(page, "admin-email-test");
    await page.locator("#pn-email").fill(inject("adminEmail"));
    await page.locator("#pn-recipient").fill("Ops");
    await page.locator("#pn-from").fill("Pillar");
    await page.locator("#pn-amount").fill("12.00");
    await page.getByRole("button", { name: "Send Payment Notification" }).click();
    await toastWith(page, "Payment notification email sent successfully").waitFor();

    expect(kyc.userId).toBeTruthy();
    expect(admin.errors).toEqual([]);
    expect(customer.errors).toEqual([]);
    await customer.context.close();
  }, 300_000);

  it("states one definition of Total Users, and the user list opens on the same customers", async () => {
    const { page } = admin;
    await page.goto("/admin");
    const stats = await (await page.request.get("/api/admin/stats")).json();
    const card = page.getByRole("listitem").filter({ hasText: "Total Users" });
    await card.getByText("Customer accounts; staff not counted").waitFor();
    await card.getByText(stats.totalUsers.toLocaleString("en-US"), { exact: true }).waitFor();
    await page.getByRole("button", { name: "Customers", exact: true, pressed: true }).waitFor();
    const adminEmail = (await (await page.request.get("/api/auth/user")).json()).email as string;
    await page.getByLabel("Search users").fill(adminEmail);
    await page.getByText("No users match your search").waitFor();
    await page.getByRole("button", { name: "Staff", exact: true }).click();
    await page.getByText(adminEmail).first().waitFor();
    expect(admin.errors).toEqual([]);
  });

  for (const width of [1280, 375]) {
    it(`at ${width} px: the skip link works from the keyboard and the tab strip shows where it scrolls`, async () => {
      const staff = await openPage(browser, width);
      await signInAsAdmin(staff.page);
      const { page } = staff;
      await page.goto("/admin");
      await page.getByRole("tab", { name: "User Management" }).waitFor();
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
      await shot(page, `admin-skip-link-${width}`);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");

      const strip = page.locator("[data-overflow-end], [data-overflow-start]").first();
      const wrapper = page.getByRole("tablist").locator("..");
      if (width < 600) {
        // Ten tabs do not fit a phone: the far edge fades, and the keyboard's End brings the last tab into view.
        await strip.waitFor();
        expect(await wrapper.getAttribute("data-overflow-end")).toBe("true");
        await shot(page, `admin-tabs-${width}`);
        await page.getByRole("tab", { name: "User Management" }).focus();
        await page.keyboard.press("End");
        const last = page.getByRole("tab", { name: "Audit" });
        await expect.poll(() => last.getAttribute("data-state")).toBe("active");
        await expect.poll(() => wrapper.getAttribute("data-overflow-start")).toBe("true");
        await expect
          .poll(async () => {
            const tab = await last.boundingBox();
            const list = await page.getByRole("tablist").boundingBox();
            return !!tab && !!list && tab.x >= list.x - 1 && tab.x + tab.width <= list.x + list.width + 1;
          })
          .toBe(true);
        expect(await wrapper.getAttribute("data-overflow-end")).toBeNull();
        await shot(page, `admin-tabs-end-${width}`);
      } else {
        expect(await wrapper.getAttribute("data-overflow-end")).toBeNull();
        await shot(page, `admin-${width}`);
      }
      for (const tab of ["Account Requests", "KYC Applications", "Outgoing Pays", "Incoming Payments"]) {
        await page.getByRole("tab", { name: tab }).click();
        await page.waitForTimeout(300);
        await shot(page, `admin-${tab.toLowerCase().replace(/ /g, "-")}-${width}`);
      }
      expect(staff.errors).toEqual([]);
      await staff.context.close();
    }, 180_000);

    it(`at ${width} px: toast-only validation is said under the field too, and the toast never covers it`, async () => {
      const visitor = await openPage(browser, width);
      const { page } = visitor;
      const user = newUser("Inez");

      // Sign-up's verify step: a short code.
      await page.goto("/auth");
      await page.getByRole("tab", { name: "Get Started" }).click();
      await page.getByLabel("First name").fill(user.firstName);
      await page.getByLabel("Last name").fill("Tester");
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Pillar tag").fill(user.tag);
      await page.getByLabel("Phone number").fill("+1 212 555 0142");
      await page.getByLabel("Password", { exact: true }).fill("Harbor-Lantern-91-quietly");
      await page.getByLabel("Confirm password").fill("Harbor-Lantern-91-quietly");
      await page.getByRole("checkbox", { name: /I agree to the Terms of Service/ }).click();
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.getByLabel("Verification code").fill("123");
      await page.getByRole("button", { name: "Verify Email" }).click();
      await expectToastClearOf(page, "Please enter the 6-digit verification code", "verify-code");
      await page
        .locator("#verify-code-error")
        .getByText("Please enter the 6-digit verification code")
        .waitFor();
      expect(await page.locator("#verify-code").getAttribute("aria-invalid")).toBe("true");
      await shot(page, `verify-code-error-${width}`);
      const mail = await waitForMail(user.email, (m) => /verification/i.test(m.subject));
      await page.getByLabel("Verification code").fill(mail.code ?? "");
      expect(await page.locator("#verify-code-error").count()).toBe(0);
      await page.getByRole("button", { name: "Verify Email" }).click();
      await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
      await signIn(page, user.email);

      // Settings: the skip link is the first stop for the keyboard and moves focus to the page.
      await page.goto("/settings");
      await page.getByRole("heading", { name: "Account Settings" }).waitFor();
      await page.keyboard.press("Tab");
      expect(
        await page
          .getByRole("link", { name: "Skip to content" })
          .evaluate((el) => el === document.activeElement),
      ).toBe(true);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");

      // A passkey needs a name: said in the dialog under the field, beside the toast (no browser prompt yet).
      await page.getByRole("button", { name: "Add a passkey" }).click();
      await page.getByLabel("Passkey name").fill("  ");
      await page.getByRole("dialog").getByRole("button", { name: "Continue" }).click();
      await toastWith(page, "Please give this passkey a name").waitFor();
      await page.locator("#new-passkey-name-error").getByText("Please give this passkey a name").waitFor();
      expect(await page.getByLabel("Passkey name").getAttribute("aria-invalid")).toBe("true");
      await shot(page, `passkey-name-error-${width}`);
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("dialog").waitFor({ state: "detached" });

      // Change Password with nothing filled in.
      await page.getByRole("button", { name: "Send Verification Code" }).click();
      await expectToastClearOf(page, "Please fill in all fields", "cp-current");
      for (const id of ["cp-current", "cp-new", "cp-confirm"]) {
        await page.locator(`#${id}-error`).getByText("This field is required").waitFor();
        expect(await page.locator(`#${id}`).getAttribute("aria-invalid")).toBe("true");
      }
      await shot(page, `settings-password-errors-${width}`);
      await page.locator("#cp-current").fill("something");
      await page.locator("#cp-new").fill("abcdefgh");
      await page.locator("#cp-confirm").fill("abcdefgx");
      await page.getByRole("button", { name: "Send Verification Code" }).click();
      await expectToastClearOf(page, "Passwords do not match", "cp-confirm");
      await page.locator("#cp-confirm-error").waitFor();
      expect(await page.locator("#cp-current-error").count()).toBe(0);

      // KYC wizard step 1: Next with gaps.
      await page.goto("/apply-checking");
      await page.getByRole("button", { name: "Next" }).click();
      await expectToastClearOf(page, "Please fill in all required fields", "kyc-firstName");
      for (const id of [
        "kyc-firstName",
        "kyc-lastName",
        "kyc-dateOfBirth",
        "kyc-street",
        "kyc-city",
        "kyc-state",
        "kyc-zipCode",
        "kyc-ssn",
      ]) {
        await page.locator(`#${id}-error`).getByText("This field is required").waitFor();
      }
      await shot(page, `kyc-step1-errors-${width}`);
      for (const [label, value] of [
        ["First name", "Inez"],
        ["Last name", "Tester"],
        ["Date of birth", "1990-05-17"],
        ["Street address", "5 Wall St"],
        ["City", "New York"],
        ["State", "NY"],
        ["ZIP code", "100"],
        ["Social Security Number", "123456789"],
      ] as const) {
        await page.getByLabel(label, { exact: true }).fill(value);
      }
      await page.getByRole("button", { name: "Next" }).click();
      await expectToastClearOf(page, "ZIP code must be 5 digits", "kyc-zipCode");
      await page.locator("#kyc-zipCode-error").waitFor();
      expect(await page.locator("#kyc-firstName-error").count()).toBe(0);
      await page.getByLabel("ZIP code").fill("10005");
      await page.getByRole("button", { name: "Next" }).click();
      // Step 2 without documents: each missing one says so.
      await page.getByRole("button", { name: /Submit/ }).click();
      await toastWith(page, "Please upload both front and back of your driving license").waitFor();
      await page.locator("#kyc-drivingLicenseFront-error").waitFor();
      await page.locator("#kyc-drivingLicenseBack-error").waitFor();
      await shot(page, `kyc-step2-errors-${width}`);

      // The chat input: Enter on an empty message.
      await page.goto("/contact");
      const input = page.getByPlaceholder("Type your message...");
      await input.fill("   ");
      await input.press("Enter");
      await toastWith(page, "Message Required").waitFor();
      await page.getByText("Please enter a message", { exact: true }).last().waitFor();
      expect(await input.getAttribute("aria-invalid")).toBe("true");
      await page.waitForTimeout(400);
      const toastBox = await toastWith(page, "Message Required").boundingBox();
      const inputBox = await input.boundingBox();
      expect(
        toastBox &&
          inputBox &&
          (toastBox.y + toastBox.height <= inputBox.y || inputBox.y + inputBox.height <= toastBox.y),
      ).toBe(true);
      await shot(page, `chat-error-${width}`);
      await input.fill("Hello");
      expect(await input.getAttribute("aria-invalid")).toBeNull();

      // The Live Chat badge follows the hours the page (and /about) states, in New York time.
      await page.clock.setFixedTime(new Date("2026-11-29T17:00:00Z")); // Sunday noon: closed
      await page.reload();
      await page.getByText("Offline", { exact: true }).waitFor();
      await page.clock.setFixedTime(new Date("2026-11-24T15:00:00Z")); // Tuesday 10:00 AM
      await page.reload();
      await page.getByText("Online", { exact: true }).waitFor();
      for (const hours of ["9:00 AM - 6:00 PM", "10:00 AM - 4:00 PM", "Closed"])
        await page.getByText(hours, { exact: true }).waitFor();
      // /about (signed out) states the same hours.
      const outsider = await openPage(browser, width);
      await outsider.page.goto("/about");
      await outsider.page
        .getByText(/Monday–Friday 9:00 AM–6:00 PM and Saturday 10:00 AM–4:00\s+PM Eastern time/)
        .waitFor();
      expect(outsider.errors).toEqual([]);
      await outsider.context.close();

      expect(visitor.errors).toEqual([]);
      await visitor.context.close();
    }, 240_000);
  }
});
