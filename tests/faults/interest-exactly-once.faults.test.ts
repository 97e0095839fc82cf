import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedSavers } from "@/scripts/bench/seed-savers";
import { lastClosedDay } from "@/server/features/savings/interest";
import { verifyLedger } from "@/server/lib/ledger";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer, waitFor } from "@/tests/support/server-process";

// Decision 068: the daily accrual and the monthly credit run in every instance's jobs room, and each
// account's day and month happen once. Three servers work 80 days of interest for 15,000 savings accounts; one is
// killed with SIGKILL while it holds a batch; the other two finish. Every account then has accrued every day once
// (no day twice, none missed), each month's balance-days are its days times the balance held (the deposit plus
// the credits before it), every complete month is credited once, and the ledger balances.
const ACCOUNTS = 15_000;
const DAYS_BACK = 80;

let scratch: ScratchDatabase;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await scratch?.drop();
});

describe("interest in three instances, one killed with SIGKILL mid-batch", () => {
  it("accrues every account's every day once and credits every complete month once", async () => {
    const { database } = scratch;
    const openedOn = await database.query<{ day: string }>(
      `select ((current_timestamp at time zone 'America/New_York')::date - ${DAYS_BACK})::text as day`,
    );
    await seedSavers(database, ACCOUNTS, openedOn[0]!.day);
    const through = lastClosedDay();
    const progress = async () =>
      (
        await database.query<{ behind: number; days: string }>(
          `select count(*) filter (where accrued_through is distinct from $1::date)::int as behind,
             coalesce(sum(accrued_through - opened_on + 1), 0)::text as days
           from savings_accounts`,
          [through],
        )
      )[0]!;

    for (let i = 0; i < 3; i++)
      servers.push(await startServer({ DATABASE_URL: scratch.url, PGAPPNAME: `pillar-interest-${i}` }));
    // Kill the first instance while it holds a batch (a transaction with savings rows locked), after work began.
    await waitFor(
      "instance 0 inside an interest batch",
      async () => {
        const now = await progress();
        if (now.behind === 0) throw new Error("interest finished before the kill: seed more accounts");
        if (Number(now.days) < ACCOUNTS * 5) return false;
        const [holder] = await database.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity a
           where a.datname = current_database() and a.application_name = 'pillar-interest-0'
             and a.xact_start is not null and a.query ilike '%savings%'`,
        );
        return (holder?.n ?? 0) > 0;
      },
      { timeoutMs: 240_000, intervalMs: 5 },
    );
    await servers[0]!.crash();
    expect((await progress()).behind).toBeGreaterThan(0);

    await waitFor(
      "every account accrued through the last closed day",
      async () => (await progress()).behind === 0,
      {
        timeoutMs: 400_000,
        intervalMs: 500,
      },
    );
    // The last complete month's credit follows its last day's accrual: wait for no complete month left uncredited.
    await waitFor(
      "every complete month credited",
      async () => {
        const [left] = await database.query<{ n: number }>(
          `select count(*)::int as n from savings_interest
           where credited_cents is null and through = (month + interval '1 month - 1 day')::date`,
        );
        return left?.n === 0;
      },
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    await Promise.all(servers.slice(1).map((s) => s.stop()));

    // Every day once: the months' days add up to the days since opening, for every account.
    const [days] = await database.query<{ wrong: number; accounts: number }>(
      `select count(*) filter (where d.days <> $1::date - s.opened_on + 1)::int as wrong, count(*)::int as accounts
       from savings_accounts s
       join (select account_id, sum(days) as days from savings_interest group by account_id) d using (account_id)`,
      [through],
    );
    expect(days).toEqual({ wrong: 0, accounts: ACCOUNTS });
    // Each month's balance-days: its days times the deposit plus the credits of the months before it (no day
    // read a balance twice or from the wrong day).
    const [balances] = await database.query<{ wrong: number }>(
      `select count(*)::int as wrong from savings_interest i
       join postings p on p.account_id = i.account_id
       join journal_entries e on e.id = p.entry_id and e.kind = 'savings_seed'
       where i.days > 0 and i.balance_days <> i.days * (p.amount + coalesce((select sum(j.credited_cents)
         from savings_interest j where j.account_id = i.account_id and j.month < i.month), 0))`,
    );
    expect(balances?.wrong).toBe(0);
    // Every complete month credited once: two entries per credit with interest, the cached balance the deposit
    // plus every credit, and the sub-cent carry the only difference between accrued and paid.
    const [credits] = await database.query<{
      months: number;
      entries: number;
      credited: number;
      wrong: number;
    }>(
      `select
         (select count(*)::int from savings_interest where credited_cents > 0) as months,
         (select count(*)::int from journal_entries where reference_type = 'savings_interest') as entries,
         (select count(*)::int from savings_interest where credited_cents is not null) as credited,
         (select count(*)::int from ledger_accounts a
          where a.kind = 'savings' and a.balance <> (select sum(p.amount) from postings p where p.account_id = a.id)
         ) as wrong`,
    );
    expect(credits!.entries).toBe(2 * credits!.months);
    expect(credits!.wrong).toBe(0);
    expect(credits!.credited).toBeGreaterThanOrEqual(ACCOUNTS * 2);
    // Finance's daily totals (decision 071), written in the statements that accrue and credit: exactly what accrued
    // and was paid, however many batches a kill rolled back.
    const [totals] = await database.query<{ accrued: boolean; days: boolean; paid: boolean }>(
      `select (select sum(accrued_micros) from savings_interest_days) = (select sum(accrued_micros) from savings_interest)
                as accrued,
              (select sum(account_days) from savings_interest_days) = (select sum(days) from savings_interest) as days,
              (select sum(paid_cents) from savings_interest_days) = (select sum(credited_cents) from savings_interest)
                as paid`,
    );
    expect(totals).toEqual({ accrued: true, days: true, paid: true });
    expect((await verifyLedger(database.db)).problems).toEqual([]);
  }, 900_000);
});
