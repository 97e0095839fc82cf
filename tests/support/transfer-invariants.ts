import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect } from "vitest";
import type { Database } from "@/server/db/client";
import { verifyLedger } from "@/server/lib/ledger";
import { programArgs } from "@/tests/support/program";

/**
 * What must hold after any storm of transfers on real processes: every transfer has exactly its hold and
 * its pending debit (and nothing is left without its transfer), every wallet holds exactly its pending
 * transfers, no wallet is overdrawn, every payment by $tag is its one balanced entry between its two wallets, and
 * the ledger verifies — in-process and through `npm run cli -- ledger:verify`.
 */
export async function expectTransfersConsistent(database: Database, databaseUrl: string) {
  await expectMoneyConsistent(database);
  const cli = spawnSync(process.execPath, [...programArgs("scripts/cli.ts"), "ledger:verify"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  expect(cli.status, cli.stdout + cli.stderr).toBe(0);
  expect(cli.stdout).toContain("Ledger verified: no drift.");
}

/** expectTransfersConsistent's checks in this process, on PostgreSQL and PGlite alike (no CLI). */
export async function expectMoneyConsistent(database: Database) {
  const orphans = await database.query<{ problem: string; id: string }>(`
    select 'transfer without hold or debit' as problem, t.id::text from transfer_requests t
      left join holds h on h.id = t.hold_id and h.reference_type = 'transfer_request' and h.reference_id = t.id::text
      left join transactions x on x.id = t.transaction_id and x.source_type = 'transfer_request' and x.source_id = t.id
      where h.id is null or x.id is null
    union all
    select 'hold without transfer', h.id::text from holds h
      where h.reference_type = 'transfer_request'
        and not exists (select 1 from transfer_requests t where t.hold_id = h.id)
    union all
    select 'debit without transfer', x.id::text from transactions x
      where x.source_type = 'transfer_request'
        and not exists (select 1 from transfer_requests t where t.transaction_id = x.id)`);
  expect(orphans).toEqual([]);
  // Every pending transfer's amount is held on its wallet, no more and no less; nothing is overdrawn.
  const wallets = await database.query<{ code: string; balance: string; held: string; pending: string }>(`
    select a.code, a.balance::text, a.held::text,
           coalesce((select sum(t.amount) from transfer_requests t
                     where t.user_id = a.user_id and t.status = 'pending'), 0)::text as pending
    from ledger_accounts a where a.kind = 'wallet'`);
  for (const w of wallets) {
    expect(w.held, w.code).toBe(w.pending);
    expect(BigInt(w.balance) - BigInt(w.held) >= 0n, `${w.code} overdrawn`).toBe(true);
  }

  // A payment by $tag settles at once: its entry moves exactly its amount from the payer's wallet to the payee's,
  // its two completed transactions name that entry, and a money request is paid by exactly one payment.
  const payments = await database.query<{ problem: string; id: string }>(`
    select 'tag payment without its two postings' as problem, p.id::text from tag_payments p
      where (select count(*) from postings x where x.entry_id = p.entry_id) <> 2
        or not exists (select 1 from postings x join ledger_accounts a on a.id = x.account_id
          where x.entry_id = p.entry_id and a.user_id = p.payer_id and x.amount = -p.amount)
        or not exists (select 1 from postings x join ledger_accounts a on a.id = x.account_id
          where x.entry_id = p.entry_id and a.user_id = p.payee_id and x.amount = p.amount)
    union all
    select 'tag payment without its transactions', p.id::text from tag_payments p
      where not exists (select 1 from transactions x where x.id = p.payer_transaction_id and x.type = 'debit'
          and x.status = 'completed' and x.entry_id = p.entry_id and x.source_id = p.id and x.amount = p.amount)
        or not exists (select 1 from transactions x where x.id = p.payee_transaction_id and x.type = 'credit'
          and x.status = 'completed' and x.entry_id = p.entry_id and x.source_id = p.id and x.amount = p.amount)
    union all
    select 'request paid by another amount or payer', r.id::text from money_requests r
      join tag_payments p on p.id = r.tag_payment_id
      where r.amount <> p.amount or r.payer_id is distinct from p.payer_id or r.requester_id is distinct from p.payee_id`);
  expect(payments).toEqual([]);

  const report = await verifyLedger(database.db);
  expect(report.problems).toEqual([]);
}
