import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import { newUser, shot, signIn, signUp } from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

/** Staff roles are granted in the database (as `npm run cli -- staff:grant` does); PGlite cannot be shared. */
async function grant(email: string, role: string) {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  await client.query("update users set staff_roles = array[$2]::text[] where lower(email) = lower($1)", [
    email,
    role,
  ]);
  await client.end();
}

describe.skipIf(!inject("databaseUrl"))("maker-checker", () => {
  it("a finance user's $5,000 incoming payment waits until a second finance user approves; the balance moves once", async () => {
    const customer = newUser("Carla");
    const maker = newUser("Mia");
    const checker = newUser("Chen");
    const makerPage = await openPage(browser);
    const checkerPage = await openPage(browser);
    await signUp(makerPage.page, customer);
    await signUp(makerPage.page, maker);
    await signUp(checkerPage.page, checker);
    await grant(maker.email, "finance");
    await grant(checker.email, "finance");
    await signIn(makerPage.page, maker.email);
    await signIn(checkerPage.page, checker.email);

    const users = await makerPage.context.request.get(
      `/api/admin/users?q=${encodeURIComponent(customer.email)}`,
    );
    const customerId = (await users.json()).items[0].id as string;
    const asked = await makerPage.context.request.post("/api/admin/incoming-payments", {
      data: {
        userId: customerId,
        amount: "5000.00",
        status: "completed",
        reason: "Wire confirmed by the bank",
      },
    });
    expect(asked.status()).toBe(202);
    expect((await asked.json()).message).toBe("Sent for approval");
    const balanceOf = async () =>
      (await (await makerPage.context.request.get(`/api/admin/users/${customerId}`)).json()).accountBalance;
    expect(await balanceOf()).toBe("$0.00");

    await checkerPage.page.goto("/admin");
    await checkerPage.page.getByRole("tab", { name: "Approvals" }).click();
    const request = checkerPage.page.getByRole("listitem", {
      name: `Incoming payment for ${customer.firstName} Tester`,
    });
    await request.getByText("First credit ever").waitFor();
    await request.getByText("“Wire confirmed by the bank”").waitFor();
    await expectAccessible(checkerPage.page, "Approvals tab");
    await shot(checkerPage.page, "admin-approvals-1280");
    await checkerPage.page.setViewportSize({ width: 375, height: 900 });
    await shot(checkerPage.page, "admin-approvals-375");
    await checkerPage.page.setViewportSize({ width: 1280, height: 900 });
    await request.getByRole("button", { name: /^Approve/ }).click();
    await toastWith(checkerPage.page, "Approved").waitFor();
    expect(await balanceOf()).toBe("$5,000.00");

    // The maker cannot approve it again, and nothing posts twice.
    const approvals = await checkerPage.context.request.get("/api/admin/approvals?status=approved");
    const id = (await approvals.json()).items.find(
      (a: { user: { id: string } | null }) => a.user?.id === customerId,
    ).id;
    const again = await checkerPage.context.request.post(`/api/admin/approvals/${id}/approve`, { data: {} });
    expect(again.status()).toBe(409);
    expect(await balanceOf()).toBe("$5,000.00");

    // The admin credit form asks the reason itself above the threshold, and sends the credit for approval.
    const { page } = makerPage;
    await page.goto("/admin");
    await page.getByRole("tab", { name: "Incoming Payments" }).click();
    await page.getByRole("button", { name: "Add Incoming Transaction" }).click();
    const add = page.getByRole("dialog", { name: "Add Incoming Transaction" });
    await add.getByLabel("Search customers").fill(customer.email);
    await add.locator("#add-transaction-user").click();
    await page.getByRole("option", { name: new RegExp(customer.email) }).click();
    await add.getByLabel("Amount (USD)").fill("1000.00");
    await add.getByLabel("Description").fill("Goodwill credit");
    expect(await add.getByLabel("Reason for approval").count()).toBe(0);
    await add.getByLabel("Amount (USD)").fill("1500.00");
    await add.getByRole("button", { name: "Send for Approval" }).click();
    await toastWith(page, "Please give a reason").waitFor();
    await add.getByLabel("Reason for approval").fill("Compensation agreed with the customer");
    await add.getByRole("button", { name: "Send for Approval" }).click();
    await toastWith(page, "Sent for approval").waitFor();
    expect(await balanceOf()).toBe("$5,000.00");

    for (const tracked of [makerPage, checkerPage]) {
      expect(tracked.errors).toEqual([]);
      await tracked.context.close();
    }
  });
});
