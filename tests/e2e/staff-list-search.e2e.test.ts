import pg from "pg";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import { shots, signInAsAdmin, signUpNewCustomer } from "@/tests/e2e/support/journeys";
import { e2eServer } from "@/tests/e2e/support/server";

// Decision 067 in the browser: a search for text that names no customer reads a long list a stretch at a time.
// The staff member sees "No matches so far" with "Load more" rather than "no results", and the match appears
// once the stretch that holds it is read.

const browser = setUpBrowser();

describe.skipIf(!e2eServer().databaseUrl)("a staff list's search over a long list", () => {
  it("says no match so far, offers Load more, and finds the older match", async () => {
    const customer = await openPage(browser);
    const user = await signUpNewCustomer(customer.page, "Wren", "Stretch");
    const marker = `needle${Date.now().toString(36)}`;
    // The match, older than more than one stretch (5,000 rows) of payments that do not hold it.
    const client = new pg.Client({ connectionString: e2eServer().databaseUrl });
    await client.connect();
    try {
      await client.query(
        `insert into incoming_payments (user_id, amount, description, payment_for, from_account, from_routing,
           recipient_name, created_at)
         select u.id, 100, case when g = 0 then 'Wire ' || $2 else 'Wire filler ' || g end, 'Payment', '12345678',
           '021000021', 'Wren Stretch', now() - interval '30 days' + g * interval '1 second'
         from users u, generate_series(0, 5200) g where lower(u.email) = lower($1)`,
        [user.email, marker],
      );
    } finally {
      await client.end();
    }
    await customer.context.close();

    const admin = await openPage(browser);
    const { page } = admin;
    await signInAsAdmin(page);
    await page.goto("/admin");
    await page.getByRole("tab", { name: "Incoming Payments" }).click();
    await page.getByLabel("Search incoming payments").fill(marker);
    await page.getByText("No matches so far").waitFor();
    await page
      .getByText("None of the most recent incoming payments match. Load more to search further back.")
      .waitFor();
    await shots(page, "admin-search-no-match-so-far");
    await expectAccessible(page, "/admin incoming payments, no match in the first stretch");

    await page.getByRole("button", { name: "Load more" }).first().click();
    await page.getByText(`Wire ${marker}`).waitFor();
    await expect.poll(() => page.getByText("No matches so far").count()).toBe(0);
    await shots(page, "admin-search-match-found");
    expect(admin.errors).toEqual([]);
  });
});
