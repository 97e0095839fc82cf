import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// The savings rate's maker-checker (decision 071): a rate names its approval and mirrors its decision (a trigger on
// approvals); savings_interest_days, finance's interest by day, is backfilled from savings_interest: per month, the
// accrual on its last accrued day (months with accrued days) and the credit on the month's last day (credits above 0).
const interest = `insert into savings_interest (account_id, month, days, accrued_micros, through, carry_in_micros,
    credited_cents, carry_out_micros) values ($1, $2, $3, $4, $5, $6, $7, $8)`;
const DAYS = `select day::text as day, accrued_micros::int as accrued, account_days, paid_cents::int as paid,
    accounts_paid
  from savings_interest_days where day between '2023-01-01' and '2023-03-31' order by day, paid_cents`;

const step: MigrationStep = {
  async before(db) {
    // One saver: an account closed on 20 January, and the one open since.
    const [{ closed, open }] = (await db.query(
      `with u as (insert into users (email, first_name, last_name, pillar_tag, password_hash)
           values ('step0059@example.test', 'Ria', 'Rate', 'step0059', 'x') returning id),
         l as (insert into ledger_accounts (code, kind)
           values ('savings:step0059a', 'savings'), ('savings:step0059b', 'savings') returning id, code),
         s as (insert into savings_accounts (account_id, user_id, opened_on, closed_at)
           select l.id, u.id, '2023-01-01', case when l.code like '%a' then '2023-01-20'::timestamptz end from l, u)
       select (select id from l where code like '%a') as closed, (select id from l where code like '%b') as open`,
    )) as [{ closed: string; open: string }];
    // January: the closed account accrued 20 days, the open one 31; both credited.
    await db.query(interest, [closed, "2023-01-01", 20, 500000, "2023-01-20", 0, 50, 0]);
    await db.query(interest, [open, "2023-01-01", 31, 123456, "2023-01-31", 0, 12, 3456]);
    // February: one cent credited; March: no day accrued yet, nothing credited (the carry only).
    await db.query(interest, [open, "2023-02-01", 28, 9000, "2023-02-28", 3456, 1, 2456]);
    await db.query(interest, [open, "2023-03-01", 0, 0, "2023-02-28", 2456, 0, 2456]);
  },
  async after(db) {
    expect(await db.query(DAYS)).toEqual([
      { day: "2023-01-31", accrued: 623456, account_days: 51, paid: 0, accounts_paid: 0 },
      { day: "2023-01-31", accrued: 0, account_days: 0, paid: 62, accounts_paid: 2 },
      { day: "2023-02-28", accrued: 9000, account_days: 28, paid: 0, accounts_paid: 0 },
      { day: "2023-02-28", accrued: 0, account_days: 0, paid: 1, accounts_paid: 1 },
    ]);
    // The advertised rate from before has no approval and no previous rate.
    expect(
      await db.query(
        `select approval_id, previous_bps, notice_cursor from savings_rates
         where apy_bps = 250 and effective_on = '2000-01-01'`,
      ),
    ).toEqual([{ approval_id: null, previous_bps: null, notice_cursor: null }]);

    // A rate's approval decided: the rate mirrors who and when; a rejection rejects it, an approval leaves it to
    // the approval's action.
    const [{ maker, checker }] = (await db.query(
      `with s as (insert into users (email, first_name, last_name, pillar_tag, password_hash, staff_roles)
         select n || '@example.test', 'Fin', 'Ance', n, 'x', '{finance}'
         from unnest(array['step0059maker', 'step0059checker']) n
         returning id, pillar_tag)
       select (select id from s where pillar_tag = 'step0059maker') as maker,
         (select id from s where pillar_tag = 'step0059checker') as checker`,
    )) as [{ maker: string; checker: string }];
    for (const [bps, decision] of [
      [310, "rejected"],
      [320, "approved"],
    ] as const) {
      const [rate] = await db.query<{ id: string }>(
        "insert into savings_rates (apy_bps, effective_on, proposed_by) values ($1, '2031-01-01', $2) returning id",
        [bps, maker],
      );
      const [approval] = await db.query<{ id: string }>(
        `insert into approvals (kind, payload, before, after, reason, maker_id, maker_role)
         values ('savings_rate', $1::jsonb, '{}', '{}', 'step 0059', $2, 'finance') returning id`,
        [JSON.stringify({ rateId: rate!.id }), maker],
      );
      await db.query(
        `update approvals set status = $2, checker_id = $3, checker_role = 'finance',
           decided_at = '2030-12-01T12:00Z' where id = $1`,
        [approval!.id, decision, checker],
      );
      const [mirrored] = await db.query(
        `select status, approval_id, decided_by, decided_at = '2030-12-01T12:00Z' as decided_then
         from savings_rates where id = $1`,
        [rate!.id],
      );
      expect(mirrored).toEqual({
        status: decision === "rejected" ? "rejected" : "proposed",
        approval_id: approval!.id,
        decided_by: checker,
        decided_then: true,
      });
    }
    expect(
      (await db.fails("update savings_rates set approval_id = gen_random_uuid() where apy_bps = 250"))?.code,
    ).toBe("23503");
  },
};
export default step;
