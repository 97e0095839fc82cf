import { generateSync } from "otplib";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import {
  newUser,
  openAccountThroughApi,
  shot,
  signIn,
  signInAsAdmin,
  signInUntilSecondFactor,
  signUp,
} from "@/tests/e2e/support/journeys";
import { e2eServer } from "@/tests/e2e/support/server";

const browser = setUpBrowser();

/** One statement against the e2e database (PGlite cannot be shared, so these journeys need PostgreSQL). */
async function sqlQuery(text: string, values: unknown[]) {
  const client = new pg.Client({ connectionString: e2eServer().databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Staff roles are granted in the database (as `npm run cli -- staff:grant` does). */
async function grant(email: string, role: string) {
  await sqlQuery("update users set staff_roles = array[$2]::text[] where lower(email) = lower($1)", [
    email,
    role,
  ]);
}

/**
 * The authenticator app: the code for now. Each 30-second step is accepted once, so the test forgets the last
 * used step in the database first, as if the next step had come.
 */
async function totpCode(email: string, secret: string) {
  await sqlQuery(
    "update totp_factors set last_used_step = null where user_id = (select id from users where lower(email) = lower($1))",
    [email],
  );
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });
}

/** Ends the session's step-up: as if its five minutes had passed. */
async function makeStepUpStale(email: string) {
  await sqlQuery(
    `update auth_challenges set expires_at = now() - interval '1 second'
      where purpose = 'step_up' and user_id = (select id from users where lower(email) = lower($1))`,
    [email],
  );
}

describe.skipIf(!e2eServer().databaseUrl)("maker-checker", () => {
  it("a finance user's $5,000 incoming payment waits until a second finance user approves; the balance moves once", async () => {
    const customer = newUser("Carla");
    const maker = newUser("Mia");
    const checker = newUser("Chen");
    const makerPage = await openPage(browser);
    const checkerPage = await openPage(browser);
    await signUp(makerPage.page, customer);
    await openAccountThroughApi(customer);
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
    // A new credit starts Pending; completing it now is the maker's explicit choice.
    await add.getByLabel("Status").click();
    await page.getByRole("option", { name: "Completed" }).click();
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

  it("a checker whose step-up is stale approves a $1,500 credit through 'Verify it's you', and rejects another the same way", {
    timeout: 120_000,
  }, async () => {
    const customer = newUser("Rosa");
    const maker = newUser("Milo");
    const checker = newUser("Cato");
    const makerPage = await openPage(browser);
    const checkerPage = await openPage(browser);
    await signUp(makerPage.page, customer);
    await openAccountThroughApi(customer);
    await signUp(makerPage.page, maker);
    await signUp(checkerPage.page, checker);
    await grant(maker.email, "finance");
    await grant(checker.email, "finance");
    await signIn(makerPage.page, maker.email);

    // The checker turns on an authenticator, then signs in again with it: signing in is not a step-up.
    const { page } = checkerPage;
    await signIn(page, checker.email);
    const enrol = await checkerPage.context.request.post("/api/auth/totp/enroll");
    expect(enrol.status(), await enrol.text()).toBe(200);
    const { secret } = await enrol.json();
    const confirm = await checkerPage.context.request.post("/api/auth/totp/confirm", {
      data: { code: await totpCode(checker.email, secret) },
    });
    expect(confirm.status(), await confirm.text()).toBe(200);
    await page.goto("/api/logout");
    await signInUntilSecondFactor(page, checker.email);
    await page.getByLabel("Authentication code").fill(await totpCode(checker.email, secret));
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();
    await makeStepUpStale(checker.email);

    const users = await makerPage.context.request.get(
      `/api/admin/users?q=${encodeURIComponent(customer.email)}`,
    );
    const customerId = (await users.json()).items[0].id as string;
    for (const [amount, reason] of [
      ["1500.00", "Compensation agreed with the customer"],
      ["2000.00", "Duplicate of the compensation"],
    ]) {
      const asked = await makerPage.context.request.post("/api/admin/transactions", {
        data: { userId: customerId, amount, description: "Goodwill credit", reason },
      });
      expect(asked.status(), await asked.text()).toBe(202);
    }
    const balanceOf = async () =>
      (await (await makerPage.context.request.get(`/api/admin/users/${customerId}`)).json()).accountBalance;
    const postingsToCustomer = async () =>
      (
        await sqlQuery(
          "select count(*)::int as n from postings p join ledger_accounts a on a.id = p.account_id where a.user_id = $1",
          [customerId],
        )
      )[0].n;

    // The maker sees who decides instead of buttons the server would refuse.
    await makerPage.page.goto("/admin");
    await makerPage.page.getByRole("tab", { name: "Approvals" }).click();
    const own = makerPage.page
      .getByRole("listitem", { name: `Credit for ${customer.firstName} Tester` })
      .filter({ hasText: "$1,500.00" });
    await own.getByText(/You asked for this/).waitFor();
    expect(await own.getByRole("button", { name: /^Approve/ }).count()).toBe(0);

    await page.goto("/admin");
    await page.getByRole("tab", { name: "Approvals" }).click();
    const rows = page.getByRole("listitem", { name: `Credit for ${customer.firstName} Tester` });
    const first = rows.filter({ hasText: "+$1,500.00" });
    await first.getByText(/Last 24 h, this one included/).waitFor();
    await first.getByRole("button", { name: /^Approve/ }).click();
    const stepUp = page.getByRole("dialog", { name: "Verify it's you" });
    await stepUp.waitFor();
    await shot(page, "admin-approvals-step-up");
    await stepUp.getByLabel("Authentication code").fill(await totpCode(checker.email, secret));
    await stepUp.getByRole("button", { name: "Verify", exact: true }).click();
    await toastWith(page, "Approved").waitFor();
    expect(await balanceOf()).toBe("$1,500.00");
    expect(await postingsToCustomer()).toBe(1);

    // Five minutes later: rejecting asks for the second factor again, and nothing moves.
    await makeStepUpStale(checker.email);
    const second = rows.filter({ hasText: "+$2,000.00" });
    await second.getByRole("button", { name: /^Reject/ }).click();
    const confirmReject = page.getByRole("dialog", { name: "Reject this request?" });
    await confirmReject.getByLabel("Reason for rejecting").fill("Duplicate request");
    await confirmReject.getByRole("button", { name: "Reject request" }).click();
    await stepUp.waitFor();
    await stepUp.getByLabel("Authentication code").fill(await totpCode(checker.email, secret));
    await stepUp.getByRole("button", { name: "Verify", exact: true }).click();
    await toastWith(page, "Rejected").waitFor();
    expect(await balanceOf()).toBe("$1,500.00");
    expect(await postingsToCustomer()).toBe(1);

    const decided = await (
      await checkerPage.context.request.get("/api/admin/approvals?status=all&limit=100")
    ).json();
    const mine = decided.items.filter((a: { user: { id: string } | null }) => a.user?.id === customerId);
    expect(mine.map((a: { status: string }) => a.status).sort()).toEqual(["approved", "rejected"]);
    // The owner's Audit tab reads the approval in words: the customer's name, the balance in dollars.
    const owner = await openPage(browser);
    await signInAsAdmin(owner.page);
    await owner.page.goto("/admin");
    await owner.page.getByRole("tab", { name: "Audit" }).click();
    await owner.page.getByLabel("Customer").fill(customer.email);
    await owner.page.getByRole("button", { name: "Search" }).click();
    const table = owner.page.getByRole("table", { name: /Audit log entries/ });
    await table.getByText("Balance $0.00 → $1,500.00").first().waitFor();
    await table.getByText(`${customer.firstName} Tester`).first().waitFor();
    expect(await table.getByText(customerId).count()).toBe(0);
    await shot(owner.page, "admin-audit-1280");
    await owner.page.setViewportSize({ width: 375, height: 900 });
    await shot(owner.page, "admin-audit-375");

    const ledger = await (await checkerPage.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
    for (const tracked of [makerPage, checkerPage, owner]) {
      expect(tracked.errors).toEqual([]);
      await tracked.context.close();
    }
  });
});
