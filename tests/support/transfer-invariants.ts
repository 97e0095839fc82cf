import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect } from "vitest";
import type { Database } from "@/server/db/client";
import { verifyLedger } from "@/server/lib/ledger";
import { programArgs } from "@/tests/support/program";

/**
 * What must hold after any storm of transfers on real processes: every transfer has exactly its hold and
 * its pending debit (and nothing is left without its transfer), every wallet holds exactly its pending
 * transfers, no wallet is overdrawn, and the ledger verifies — in-process and through `npm run cli -- ledger:verify`.
 */
export async function expectTransfersConsistent(database: Database, databaseUrl: string) {
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

  const report = await verifyLedger(database.db);
  expect(report.problems).toEqual([]);
  const cli = spawnSync(process.execPath, [...programArgs("scripts/cli.ts"), "ledger:verify"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  expect(cli.status, cli.stdout + cli.stderr).toBe(0);
  expect(cli.stdout).toContain("Ledger verified: no drift.");
}
