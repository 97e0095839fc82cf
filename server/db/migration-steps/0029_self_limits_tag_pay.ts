import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// The customer's own guard rails and pay-by-$tag (decision 035): customer_limits (a personal daily limit, a dated
// raise, "Block crypto sends" with a known cooldown) under a trigger that never lets a running cooldown get
// shorter, whoever writes the row; staff notes on limits; and tag_payments, one entry between two customers.
const refused = (code: string, name: string) => ({ code, message: expect.stringContaining(name) });

const step: MigrationStep = {
  async before(db) {
    // Two customers with wallets, the payer funded, and the entry and both sides' history of a $tag payment.
    const people = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
       values ('payer.0029@example.com', 'Pia', 'Payer', 'pia0029', 'x', true),
              ('payee.0029@example.com', 'Quinn', 'Payee', 'quinn0029', 'x', true) returning id`,
    );
    const [payer, payee] = people.map((p) => p.id);
    const [payment, entry, funding] = [randomUUID(), randomUUID(), randomUUID()];
    await db.query(
      `insert into ledger_accounts (code, kind, user_id, balance) values ('wallet:' || $1, 'wallet', $1::uuid, 3500),
         ('wallet:' || $2, 'wallet', $2::uuid, 1500)`,
      [payer, payee],
    );
    await db.query(
      `insert into journal_entries (id, kind, description, reference_type, reference_id)
       values ($1, 'admin_credit', 'Funding', null, null),
              ($2, 'tag_payment', 'Payment from pia0029 to quinn0029', 'tag_payment', $3)`,
      [funding, entry, payment],
    );
    await db.query(
      `insert into postings (entry_id, account_id, amount)
       select $1::uuid, id, 5000 from ledger_accounts where code = 'wallet:' || $3
       union all select $1::uuid, id, -5000 from ledger_accounts where code = 'external_funding'
       union all select $2::uuid, id, -1500 from ledger_accounts where code = 'wallet:' || $3
       union all select $2::uuid, id, 1500 from ledger_accounts where code = 'wallet:' || $4`,
      [funding, entry, payer, payee],
    );
    const sides = await db.query<{ id: string }>(
      `insert into transactions (user_id, type, amount, net_amount, description, status, source_type, source_id, entry_id)
       values ($1, 'debit', 1500, 1500, 'Payment to quinn0029', 'completed', 'tag_payment', $3, $4),
              ($2, 'credit', 1500, 1500, 'Payment from pia0029', 'completed', 'tag_payment', $3, $4) returning id`,
      [payer, payee, payment, entry],
    );
    db.shared.set("0029.people", `${payer},${payee}`);
    db.shared.set("0029.payment", [payment, entry, ...sides.map((s) => s.id)].join(","));
  },
  async after(db) {
    const [payer, payee] = db.shared.get("0029.people")!.split(",");
    await db.query("insert into customer_limits (user_id, daily_limit_cents) values ($1, 50000)", [payer]);
    expect(await db.query("select block_on from customer_limits where user_id = $1", [payer])).toEqual([
      { block_on: false },
    ]);
    // In order, each on the row the ones before left (null: accepted). From "block_on = false" on, the trigger:
    // a block turned off starts its whole cooldown, which then only gets longer.
    const writes: [string, string | null][] = [
      ["daily_limit_cents = 0", "customer_limits_daily_positive"],
      ["raise_to_cents = 90000", "customer_limits_raise_dated"],
      ["block_on = true", "customer_limits_block_has_cooldown"],
      ["block_on = true, block_cooldown = '2 days'", "customer_limits_cooldown_known"],
      ["block_on = true, block_cooldown = '7 days'", null],
      ["block_on = false", "must start its full cooldown"],
      ["block_cooldown = '24 hours'", "cooldown cannot be shortened"],
      ["block_on = false, blocked_until = now() + interval '1 day'", "must start its full cooldown"],
      ["block_on = false, blocked_until = now() + interval '7 days'", null],
      ["blocked_until = now() + interval '6 days'", "running cooldown cannot be shortened"],
      ["blocked_until = null", "running cooldown cannot be shortened"],
    ];
    for (const [change, refusal] of writes) {
      const failed = await db.fails(`update customer_limits set ${change} where user_id = $1`, [payer]);
      expect(failed, change).toEqual(refusal && { code: "23514", message: expect.stringContaining(refusal) });
    }
    expect(await db.fails("delete from customer_limits where user_id = $1", [payer])).toEqual(
      refused("23514", "cannot be removed"),
    );
    // ...except with the customer's own row (ON DELETE CASCADE), the user gone first.
    const [gone] = await db.query<{ id: string }>(
      `with u as (insert into users (email, first_name, last_name, pillar_tag, password_hash)
         values ('gone.0029@example.com', 'Gone', 'Blocked', 'gone0029', 'x') returning id)
       insert into customer_limits (user_id, block_on, block_cooldown) select id, true, '30 days' from u returning user_id as id`,
    );
    expect(await db.fails("delete from users where id = $1", [gone!.id])).toBeNull();

    const note = "insert into customer_limit_notes (user_id, note) values ($1, $2)";
    expect(await db.fails(note, [payer, "Asked about the cooldown"])).toBeNull();
    expect(await db.fails(note, [payer, ""])).toEqual(refused("23514", "customer_limit_notes_length"));

    const [payment, entry, payerSide, payeeSide] = db.shared.get("0029.payment")!.split(",");
    const pay = `insert into tag_payments (id, payer_id, payee_id, payer_tag, payee_tag, amount, limit_day, entry_id,
      payer_transaction_id, payee_transaction_id) values ($1, $2, $3, 'pia0029', 'quinn0029', $4, '2025-06-02', $5, $6, $7)`;
    const refusals: [unknown[], string, string][] = [
      [[randomUUID(), payer, payer, 1500, entry], "23514", "tag_payments_two_parties"],
      [[randomUUID(), payer, payee, 0, entry], "23514", "tag_payments_amount_positive"],
      [[randomUUID(), payer, payee, 1500, randomUUID()], "23503", "tag_payments_entry_id"],
    ];
    for (const [params, code, name] of refusals) {
      expect(await db.fails(pay, [...params, payerSide, payeeSide]), name).toEqual(refused(code, name));
    }
    await db.query(pay, [payment, payer, payee, 1500, entry, payerSide, payeeSide]);
  },
};
export default step;
