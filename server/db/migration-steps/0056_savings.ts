import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Savings at a variable APY (decision 068): the two interest ledger accounts, the rate table seeded with the
// advertised 2.50 % from 2000-01-01, one open savings account per customer (its own ledger account), each month's
// interest with its credit rounded to the cent and the rest carried, goals, and moves between checking and savings.
const step: MigrationStep = {
  async before(db) {
    const [customer] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0056@example.test', 'Sid', 'Saver', 'step0056', 'x') returning id`,
    );
    db.shared.set("0056.customer", customer!.id);
  },
  async after(db) {
    const customer = db.shared.get("0056.customer")!;
    expect(
      await db.query(
        `select code, kind, balance::int as balance, user_id from ledger_accounts
         where code like 'interest_%' order by code`,
      ),
    ).toEqual([
      { code: "interest_expense", kind: "system", balance: 0, user_id: null },
      { code: "interest_payable", kind: "system", balance: 0, user_id: null },
    ]);
    expect(
      await db.query(
        `select apy_bps, effective_on::text as effective_on, status, decided_at is not null as decided
         from savings_rates`,
      ),
    ).toEqual([{ apy_bps: 250, effective_on: "2000-01-01", status: "approved", decided: true }]);
    // One approved rate per day; an APY is 0 to 20.00 %.
    const rate = "insert into savings_rates (apy_bps, effective_on, status) values ($1, $2, $3)";
    expect((await db.fails(rate, [300, "2000-01-01", "approved"]))?.code).toBe("23505");
    expect(await db.fails(rate, [300, "2000-01-01", "proposed"])).toBeNull();
    expect((await db.fails(rate, [2001, "2030-01-01", "proposed"]))?.code).toBe("23514");

    // A savings account is its own ledger account; one open per customer, another once it is closed.
    const open = async (code: string) => {
      const [ledger] = await db.query<{ id: string }>(
        "insert into ledger_accounts (code, kind) values ($1, 'savings') returning id",
        [code],
      );
      return ledger!.id;
    };
    const account = `insert into savings_accounts (account_id, user_id, opened_on, accrued_through)
       values ($1, $2, '2024-03-10', $3)`;
    const first = await open("savings:step0056a");
    expect(await db.fails(account, [first, customer, null])).toBeNull();
    const [fresh] = await db.query(
      "select closing_balance::int as closing, awaiting_credit from savings_accounts where account_id = $1",
      [first],
    );
    expect(fresh).toEqual({ closing: 0, awaiting_credit: false });
    const second = await open("savings:step0056b");
    expect((await db.fails(account, [second, customer, null]))?.code).toBe("23505");
    await db.query("update savings_accounts set closed_at = now() where account_id = $1", [first]);
    expect((await db.fails(account, [second, customer, "2024-03-09"]))?.code).toBe("23514");
    expect(await db.fails(account, [second, customer, null])).toBeNull();

    // A month's credit: 1,234,567 micros + 4,000 carried in = 123 cents and 8,567 micros carried out, exactly.
    const interest = `insert into savings_interest (account_id, month, days, accrued_micros, through, carry_in_micros,
       credited_cents, carry_out_micros) values ($1, $2, 31, 1234567, '2024-03-31', 4000, $3, $4)`;
    expect((await db.fails(interest, [second, "2024-03-01", 124, 0]))?.code).toBe("23514");
    expect((await db.fails(interest, [second, "2024-03-02", null, null]))?.code).toBe("23514");
    expect((await db.fails(interest, [second, "2024-03-01", 123, null]))?.code).toBe("23514");
    expect(await db.fails(interest, [second, "2024-03-01", 123, 8567])).toBeNull();

    const goal = "insert into savings_goals (user_id, name, target_cents) values ($1, $2, $3)";
    expect(await db.fails(goal, [customer, "Rainy day", 50000])).toBeNull();
    expect((await db.fails(goal, [customer, "", 50000]))?.code).toBe("23514");
    expect((await db.fails(goal, [customer, "Too much", 1000000000001]))?.code).toBe("23514");
    const move = `insert into savings_moves (id, user_id, account_id, direction, amount, entry_id, transaction_id)
       values (gen_random_uuid(), $1, $2, $3, $4, $5, gen_random_uuid())`;
    const [entry] = await db.query<{ id: string }>(
      "insert into journal_entries (kind, description) values ('savings_move', 'step 0056') returning id",
    );
    expect((await db.fails(move, [customer, second, "sideways", 100, entry!.id]))?.code).toBe("23514");
    expect((await db.fails(move, [customer, second, "to_savings", 0, entry!.id]))?.code).toBe("23514");
    expect(await db.fails(move, [customer, second, "to_savings", 100, entry!.id])).toBeNull();
  },
};
export default step;
