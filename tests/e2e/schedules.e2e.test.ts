import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
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
  shot,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();
const ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";

describe("scheduled transfers", () => {
  it("schedules a weekly transfer on a phone, the runner makes today's at once, the customer is told and sees it, and the next one is coming up", async () => {
    const customer = await openPage(browser, 375);
    const { page, context } = customer;
    await signUpNewCustomer(page, "Nora", "Weekly");
    const applied = await applyThroughApi(context.request, { firstName: "Nora", lastName: "Weekly" });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "100.00");
    const saved = await context.request.post("/api/recipients", {
      data: { name: "Sam Lee", address: ADDRESS },
    });
    expect(saved.status()).toBe(201);

    console.info("e2e schedules: customer funded, recipient saved");
    await page.goto("/recipients");
    await page.getByRole("link", { name: "Scheduled transfers" }).click();
    await page.waitForURL("**/schedules");
    await page.getByText("No scheduled transfers yet.").waitFor();
    await page.getByLabel("Recipient").selectOption({ label: "Sam Lee (0x5290…9EE7)" });
    await page.getByLabel("Amount (USD)").fill("12.34");
    await page.getByLabel("How often").selectOption("weekly");
    // The first date is today in New York already: that run is due at once.
    await shots(page, "schedules-form");
    await expectAccessible(page, "/schedules with the form filled");
    await page.getByRole("button", { name: "Schedule transfer" }).click();
    await page.getByText("Transfer scheduled", { exact: true }).first().waitFor();

    // The runner woke for today's run: the list shows it requested, and the customer was told.
    const list = page.getByRole("list", { name: "Scheduled transfers" });
    await list.getByText(/^Last transfer requested for /).waitFor({ timeout: 30_000 });
    await list.getByText("Sam Lee").waitFor();
    await list.getByText("−$12.34").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "/schedules scrolls sideways at 375 px").toBeLessThanOrEqual(1);
    await shots(page, "schedules-list");
    await expectAccessible(page, "/schedules with a schedule");

    console.info("e2e schedules: today's run made");
    // The money screens carry the bell too (decision 034): it counts the run's notification and leads to it.
    await page.getByRole("link", { name: /^Notifications, \d+ unread$/ }).click({ timeout: 20_000 });
    await page.waitForURL("**/notifications");
    await page.getByText("Scheduled transfer requested").first().waitFor({ timeout: 20_000 });
    await page
      .getByText(/Your scheduled transfer of \$12\.34 to Sam Lee for .* is now a transfer request\./)
      .first()
      .waitFor();
    const notificationsOverflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(notificationsOverflow, "/notifications scrolls sideways at 375 px").toBeLessThanOrEqual(1);
    await shots(page, "notifications");
    await expectAccessible(page, "/notifications");
    // Read and unread: the filter shows the run's notice as unread; "Mark all as read" empties it and the bell.
    await page.getByRole("button", { name: "Unread", exact: true }).click();
    await page.getByText("Scheduled transfer requested (unread)").first().waitFor();
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await toastWith(page, "All notifications marked as read").waitFor();
    await page.getByText("You're all caught up.").waitFor();
    await page.getByRole("link", { name: "Notifications", exact: true }).waitFor();

    await page.goto("/dashboard");
    await page.getByText("USDC transfer to Sam Lee").first().waitFor({ timeout: 20_000 });
    const comingUp = page.getByRole("list", { name: "Coming up" });
    await comingUp.getByText("Sam Lee").first().waitFor();
    await comingUp.getByText("−$12.34").first().waitFor();
    await shots(page, "dashboard-coming-up");
    await expectAccessible(page, "/dashboard with a transfer coming up");
    const dashboardOverflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(dashboardOverflow, "/dashboard scrolls sideways at 375 px").toBeLessThanOrEqual(1);

    // Pause and cancel from the list.
    await page.goto("/schedules");
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByText("Paused", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Resume" }).click();
    await page.getByText("Active", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Cancel schedule" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel schedule" }).click();
    await page.getByText("Cancelled", { exact: true }).waitFor();

    // One run, one pending transfer request: $12.34 held of the $100.00.
    const summary = await (await context.request.get("/api/account/summary")).json();
    expect(summary).toMatchObject({ pendingBalance: "$12.34", availableBalance: "$87.66" });
    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
  }, 300_000);

  it("starts the form over after scheduling, shows a skipped once-transfer as not sent, and no end on a cancelled schedule", async () => {
    const customer = await openPage(browser);
    const { page, context } = customer;
    await signUpNewCustomer(page, "Omar", "Once");
    const applied = await applyThroughApi(context.request, { firstName: "Omar", lastName: "Once" });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    // $1.00 available: today's once-transfer of $5.00 cannot be made and is skipped.
    await approveAndFund(admin.context.request, applied, "1.00");
    expect(
      (
        await context.request.post("/api/recipients", { data: { name: "Sam Lee", address: ADDRESS } })
      ).status(),
    ).toBe(201);

    await page.goto("/schedules");
    const recipient = page.getByLabel("Recipient");
    const amount = page.getByLabel("Amount (USD)");
    const cadence = page.getByLabel("How often");
    await recipient.selectOption({ label: "Sam Lee (0x5290…9EE7)" });
    await amount.fill("5.00");
    await cadence.selectOption("once");
    await page.getByRole("button", { name: "Schedule transfer" }).click();
    await toastWith(page, "Transfer scheduled").waitFor();
    // The form starts over: nothing of the schedule just made is left in it.
    expect(await recipient.inputValue()).toBe("");
    expect(await amount.inputValue()).toBe("");
    expect(await cadence.inputValue()).toBe("monthly");

    const list = page.getByRole("list", { name: "Scheduled transfers" });
    const skipped = list.getByRole("listitem").filter({ hasText: "Once" });
    await skipped
      .getByText(/^Skipped on .*: there was not enough available balance\.$/)
      .waitFor({ timeout: 30_000 });
    await skipped.getByText("Not sent", { exact: true }).waitFor();
    // Nothing left the account: the amount is not shown as money out, nor in the money-out colour.
    expect(await skipped.getByText("−$5.00").count()).toBe(0);
    const shown = skipped.getByText("$5.00, not sent", { exact: true });
    expect(await shown.evaluate((el) => getComputedStyle(el).color)).not.toBe(
      await page.evaluate(() => {
        const probe = document.createElement("span");
        probe.className = "text-negative";
        document.body.append(probe);
        const color = getComputedStyle(probe).color;
        probe.remove();
        return color;
      }),
    );

    // A weekly schedule with a last date, then cancelled: an ended schedule has no "Ends".
    const nextMonth = await page.evaluate(() => {
      const [y, m] = new Date()
        .toLocaleDateString("en-CA", { timeZone: "America/New_York" })
        .split("-")
        .map(Number) as [number, number];
      return `${m === 12 ? y + 1 : y}-${String((m % 12) + 1).padStart(2, "0")}-10`;
    });
    await recipient.selectOption({ label: "Sam Lee (0x5290…9EE7)" });
    await amount.fill("3.00");
    await cadence.selectOption("weekly");
    await page.getByLabel("First transfer").fill(nextMonth);
    await page.getByLabel("Last transfer (optional)").fill(nextMonth.replace(/-10$/, "-24"));
    await page.getByRole("button", { name: "Schedule transfer" }).click();
    await toastWith(page, "Transfer scheduled").waitFor();
    const weekly = list.getByRole("listitem").filter({ hasText: "Every week" });
    await weekly.getByText(/^Ends /).waitFor();
    await weekly.getByText("−$3.00").waitFor();
    await shots(page, "schedules-skipped-and-ending");
    await weekly.getByRole("button", { name: "Cancel schedule" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel schedule" }).click();
    await weekly.getByText("Cancelled", { exact: true }).waitFor();
    expect(await weekly.getByText(/^Ends /).count()).toBe(0);
    expect(await weekly.getByText("−$3.00").count()).toBe(0);
    await shots(page, "schedules-cancelled");
    await expectAccessible(page, "/schedules with a skipped and a cancelled schedule");
    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "/schedules scrolls sideways at 375 px").toBeLessThanOrEqual(1);
    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
  }, 300_000);

  it('signs a new schedule with a passkey, then edits it through the form after "Verify it\'s you"', async () => {
    // WebAuthn needs a secure origin: localhost, with Chromium's virtual authenticator.
    const customer = await openPage(browser, 1280, localhostBaseUrl());
    const { page, context } = customer;
    const authenticator = await addVirtualAuthenticator(page);
    await signUpNewCustomer(page, "Pia", "Passkey");
    const applied = await applyThroughApi(context.request, { firstName: "Pia", lastName: "Passkey" });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "100.00");
    expect(
      (
        await context.request.post("/api/recipients", { data: { name: "Sam Lee", address: ADDRESS } })
      ).status(),
    ).toBe(201);
    await page.goto("/settings");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByLabel("Passkey name").fill("E2E laptop");
    await page.getByRole("button", { name: "Continue" }).click();
    await toastWith(page, "Passkey added").waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);

    console.info("e2e schedules: passkey added");
    // A monthly schedule starting in the future, so nothing runs during the test.
    const nextMonth = await page.evaluate(() => {
      const [y, m] = new Date()
        .toLocaleDateString("en-CA", { timeZone: "America/New_York" })
        .split("-")
        .map(Number) as [number, number];
      return `${m === 12 ? y + 1 : y}-${String((m % 12) + 1).padStart(2, "0")}-15`;
    });
    await page.goto("/schedules");
    await page.getByLabel("Recipient").selectOption({ label: "Sam Lee (0x5290…9EE7)" });
    await page.getByLabel("Amount (USD)").fill("20.00");
    await page.getByLabel("How often").selectOption("monthly");
    await page.getByLabel("First transfer").fill(nextMonth);
    await page.getByRole("button", { name: "Schedule transfer" }).click();
    const confirm = page.getByRole("dialog", { name: "Confirm this schedule" });
    await confirm.waitFor();
    await confirm.getByText("$20.00").waitFor();
    await confirm.getByText(`Sam Lee (${ADDRESS})`).waitFor();
    await shot(page, "schedules-passkey-confirm");
    await expectAccessible(page, "/schedules confirming a schedule");
    await confirm.getByRole("button", { name: "Use a passkey" }).click();
    await toastWith(page, "Transfer scheduled").waitFor();
    const list = page.getByRole("list", { name: "Scheduled transfers" });
    await list.getByText("−$20.00").waitFor();
    let [made] = (await (await context.request.get("/api/schedules")).json()).items;
    expect(made).toMatchObject({
      amountCents: 2000,
      cadence: "monthly",
      startOn: nextMonth,
      status: "active",
    });

    console.info("e2e schedules: passkey-signed schedule made");
    // Edit: every two weeks, $25.50, from the 20th, ending three months on; the session steps up first.
    const nextOn = nextMonth.replace(/-15$/, "-20");
    const [y, m] = nextMonth.split("-").map(Number) as [number, number];
    const endOn = `${m > 9 ? y + 1 : y}-${String(((m + 2) % 12) + 1).padStart(2, "0")}-20`;
    await list.getByRole("button", { name: "Edit schedule to Sam Lee" }).click();
    const form = page.getByRole("form", { name: "Edit schedule to Sam Lee" });
    await form.getByLabel("Amount (USD)").fill("25.50");
    await form.getByLabel("How often").selectOption("every_two_weeks");
    await form.getByLabel("Next transfer").fill(nextOn);
    await form.getByLabel("Last transfer (optional)").fill(endOn);
    await shots(page, "schedules-edit");
    await expectAccessible(page, "/schedules editing a schedule");
    await form.getByRole("button", { name: "Save changes" }).click();
    const verify = page.getByRole("dialog", { name: "Verify it's you" });
    await verify.waitFor();
    await verify.getByRole("button", { name: "Use a passkey" }).click();
    await toastWith(page, "Schedule updated").waitFor();
    await list.getByText("−$25.50").waitFor();
    await list.getByText("· Every two weeks").waitFor();
    [made] = (await (await context.request.get("/api/schedules")).json()).items;
    expect(made).toMatchObject({
      amountCents: 2550,
      cadence: "every_two_weeks",
      startOn: nextOn,
      endOn,
      status: "active",
    });
    expect(made.upcoming[0]).toBe(nextOn);
    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "/schedules scrolls sideways at 375 px").toBeLessThanOrEqual(1);
    await shot(page, "schedules-edited-375");
    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
  }, 300_000);
});
