import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// The monthly savings statement (decision 069): statement_runs gains the savings phase (its cursor and counts,
// 0 of 0 on the runs already there), and savings_statements holds one account's month, written once and balanced:
// closing = opening + deposits + withdrawals + interest.
const step: MigrationStep = {
  async before(db) {
    await db.query(
      `insert into statement_runs (month, status, cursor, total, done, finished_at)
       values ('2023-07', 'done', '00000000-0000-4000-8000-000000000057', 12, 12, now())`,
    );
    const [customer] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0057@example.test', 'Stan', 'Saver', 'step0057', 'x') returning id`,
    );
    const [ledger] = await db.query<{ id: string }>(
      "insert into ledger_accounts (code, kind) values ('savings:step0057', 'savings') returning id",
    );
    await db.query(
      "insert into savings_accounts (account_id, user_id, opened_on) values ($1, $2, '2023-06-01')",
      [ledger!.id, customer!.id],
    );
    db.shared.set("0057.customer", customer!.id);
    db.shared.set("0057.account", ledger!.id);
  },
  async after(db) {
    const [run] = await db.query(
      `select status, done, checking_done_at, savings_cursor, savings_total, savings_done from statement_runs
       where month = '2023-07'`,
    );
    // A run from before savings had statements: its checking phase as it was, its savings phase empty.
    expect(run).toEqual({
      status: "done",
      done: 12,
      checking_done_at: null,
      savings_cursor: null,
      savings_total: 0,
      savings_done: 0,
    });

    const customer = db.shared.get("0057.customer")!;
    const account = db.shared.get("0057.account")!;
    // 10,000 + 2,500 - 1,000 + 21 = 11,521.
    const statement = `insert into savings_statements (account_id, month, user_id, opening, deposits, withdrawals,
       interest, closing, count, days, balance_days, apy_earned, digest)
       values ($1, $2, $3, 10000, 2500, -1000, 21, $4, 3, 31, 341000, 2.51, 'sha256:step0057')`;
    expect((await db.fails(statement, [account, "2023-07", customer, 11500]))?.code).toBe("23514");
    expect((await db.fails(statement, [account, "2023-7", customer, 11521]))?.code).toBe("23514");
    expect(await db.fails(statement, [account, "2023-07", customer, 11521])).toBeNull();
    expect((await db.fails(statement, [account, "2023-07", customer, 11521]))?.code).toBe("23505");
    expect((await db.fails(statement, [customer, "2023-08", customer, 11521]))?.code).toBe("23503");
    const [kept] = await db.query(
      "select apy_earned::text as apy from savings_statements where account_id = $1",
      [account],
    );
    expect(kept).toEqual({ apy: "2.51" });
  },
};
export default step;
