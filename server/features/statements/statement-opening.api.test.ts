import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "@/server/db/client";
import { getStatementSummary, openStatement } from "@/server/features/statements/statement-data";
import { monthOf, monthsBetween } from "@/server/features/statements/statement-month";
import { createApprovedCustomer, expectLedgerCleanAfterEach, fundCustomer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
let customer: SignedInUser;
let walletId: string;

const monthsAgo = (n: number) => {
  const at = new Date();
  at.setUTCDate(15);
  at.setUTCMonth(at.getUTCMonth() - n);
  return at;
};

/** What the statement must print, straight from the postings: every wallet posting before an instant. */
async function postedBefore(instant: Date): Promise<number> {
  const [row] = await queryRows(
    t.database.db,
    sql`select coalesce(sum(amount), 0)::text as total from postings where account_id = ${walletId}
       and created_at < ${instant.toISOString()}`,
    z.object({ total: z.string() }),
  );
  return Number(row!.total);
}

// A wallet opened three years ago with a credit 30, 20, 10 and 2 months ago: the opening balance is summed from the
// start of the account for its early months and back from the wallet's balance for its late ones (decision 066).
beforeAll(async () => {
  customer = await createApprovedCustomer(t.database);
  const amounts = ["100.00", "20.50", "3.25", "0.75"];
  const ages = [30, 20, 10, 2];
  for (const [i, amount] of amounts.entries()) {
    await fundCustomer(t, admin, customer.user.id, amount);
    await t.database.query(
      `update postings set created_at = $2 where id = (select max(p.id) from postings p
         join ledger_accounts a on a.id = p.account_id where a.user_id = $1)`,
      [customer.user.id, monthsAgo(ages[i]!).toISOString()],
    );
  }
  const [wallet] = await queryRows(
    t.database.db,
    sql`update ledger_accounts set created_at = now() - interval '36 months' where user_id = ${customer.user.id}
       returning id::text`,
    z.object({ id: z.string() }),
  );
  walletId = wallet!.id;
});
expectLedgerCleanAfterEach(t);

describe("a statement's opening balance", () => {
  it("is every posting before the month, whichever end of the account's life it is summed from", async () => {
    const months = monthsBetween(monthOf(monthsAgo(35)), monthOf(new Date())).reverse();
    let previousClosing: number | null = null;
    let seen = 0;
    for (const month of months) {
      const { owner, period } = await openStatement(t.database.db, customer.user.id, month);
      const summary = await getStatementSummary(t.database.db, owner, period);
      expect(summary.opening, month).toBe(await postedBefore(period.start));
      expect(summary.closing, month).toBe(await postedBefore(period.end));
      if (previousClosing !== null) expect(summary.opening, month).toBe(previousClosing);
      previousClosing = summary.closing;
      seen += summary.count;
    }
    expect(seen).toBe(4);
    expect(previousClosing).toBe(12_450);
  });
});
