import type { Database } from "@/server/db/client";

/**
 * `count` savers set-based (the interest bench and the interest faults test): a verified user each, a savings
 * account opened on `openedOn` (a New York day, YYYY-MM-DD) and one deposit that day (external funding → savings,
 * one journal entry, $1.00 to ~$1,000,000, spread so each account's interest differs), the cached balance set.
 * The accrual reads nothing else of a customer. Ids are n-shaped, so one database holds one set.
 */
export async function seedSavers(database: Database, count: number, openedOn: string): Promise<void> {
  // In chunks of 100,000: one statement per table and chunk stays well inside the pool's read timeout.
  for (let from = 1; from <= count; from += SEED_CHUNK)
    await seedChunk(database, from, Math.min(count, from + SEED_CHUNK - 1), openedOn);
  await database.query(
    "vacuum (analyze) users, savings_accounts, postings, ledger_accounts, journal_entries",
  );
}

const SEED_CHUNK = 100_000;

async function seedChunk(database: Database, from: number, to: number, openedOn: string): Promise<void> {
  const id = (block: string) => `('00000000-0000-4000-${block}-' || lpad(to_hex(n), 12, '0'))::uuid`;
  const amount = "(100 + (n::bigint * 7919) % 100000000)";
  const series = `generate_series(${Number(from)}, ${Number(to)}) n`;
  const day = `'${/^\d{4}-\d{2}-\d{2}$/.test(openedOn) ? openedOn : "invalid"}'::date`;
  await database.query(`
    insert into users (id, email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
    select ${id("8000")}, 'saver' || n || '@example.test', 'Saver', 'Number' || n, 'saver' || n, 'not-a-hash', true
    from ${series}`);
  await database.query(`
    insert into ledger_accounts (id, code, kind)
    select ${id("9000")}, 'savings:' || ${id("9000")}, 'savings' from ${series}`);
  await database.query(`
    insert into savings_accounts (account_id, user_id, opened_at, opened_on)
    select ${id("9000")}, ${id("8000")}, new_york_start(${day}) + interval '9 hours', ${day} from ${series}`);
  await database.query(`
    insert into journal_entries (id, kind, description, reference_type, reference_id)
    select ${id("a000")}, 'savings_seed', 'Seeded deposit', 'savings_seed', n::text from ${series}`);
  await database.query(`
    insert into postings (entry_id, account_id, amount, created_at)
    select ${id("a000")}, x.account_id, x.amount, new_york_start(${day}) + interval '10 hours'
    from ${series}
    cross join lateral (values
      ((select id from ledger_accounts where code = 'external_funding'), -${amount}),
      (${id("9000")}, ${amount})
    ) as x(account_id, amount)`);
  await database.query(`
    update ledger_accounts a set balance = p.amount from postings p
    where p.account_id = a.id and a.kind = 'savings' and a.balance = 0`);
}
