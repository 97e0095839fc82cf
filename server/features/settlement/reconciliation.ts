import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Address, PublicClient } from "viem";
import { z } from "zod";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import { chainClient } from "@/server/features/settlement/chain-config";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { compareDepositAddresses } from "@/server/features/settlement/reconciliation-addresses";
import { type Item, recordFindings } from "@/server/features/settlement/reconciliation-differences";
import { rereadLogs } from "@/server/features/settlement/reconciliation-logs";
import {
  depositLogPosition,
  depositMatchesLog,
  isKnownHotInflow,
} from "@/server/features/settlement/reconciliation-matching";
import type { LoopSpec } from "@/server/jobs/loop";
import type { ChainConfig } from "@/server/lib/chain-config";
import { AppError } from "@/server/lib/errors";

/**
 * Reconciliation (decision 038): the chain, read at CHAIN_CONFIRMATIONS depth, against the ledger. Three
 * comparisons, each difference kept as a row of the run's report:
 * - the hot wallet's USDC on chain = its opening balance + every transfer into it − what the ledger captured
 *   for payouts − payouts mined deep enough and not yet captured (the worker's next pass captures them);
 * - every transfer out of the hot wallet is a payout Pillar signed and captured once for the same amount, and
 *   every captured payout is on chain;
 * - every transfer of a cent or more to a deposit address is a credited deposit of the same units, and every
 *   credited deposit is on chain; the ledger's `usdc_deposits` account has paid out exactly the credited cents.
 * Decision 057: each run reads the last CHAIN_REORG_WINDOW blocks again (reconciliation-logs.ts), compares the
 * deposit addresses' balances (reconciliation-addresses.ts), reports USDC from outside in the hot wallet as an
 * unknown inflow, and keeps each difference once, from the block it was first seen at until it is resolved
 * (reconciliation-differences.ts). What counts as Pillar's own is in reconciliation-matching.ts.
 */

/** With the chain id, the advisory lock that lets one reconciliation of a chain run at a time. */
const RECONCILE_LOCK = 7_310_038;
const UNITS_PER_CENT = 10_000n;
/** A scheduled run is skipped when another instance finished one this recently (every instance schedules). */
const SCHEDULED_GAP_MS = 55 * 60_000;

export interface ReconcileOptions {
  trigger: "scheduled" | "staff";
  requestedBy?: string | null;
  client?: PublicClient;
  log?: FastifyBaseLogger;
}

export interface ReconcileResult {
  reportId: string;
  status: "clean" | "differences" | "error";
  /** Differences open at this run: new and still open. */
  differences: number;
  /** Of them, those this run found first. */
  newDifferences: number;
  resolved: number;
  awaiting: number;
}

const lower = (a: string) => a.toLowerCase();

const balanceAt = (client: PublicClient, chain: ChainConfig, address: Address, block: number) =>
  client.readContract({
    address: chain.usdcContract,
    abi: pillarUsdAbi,
    functionName: "balanceOf",
    args: [address],
    blockNumber: BigInt(block),
  });

/** The comparisons, over the logs read so far (all at or below `asOf`). */
async function compare(
  tx: Tx,
  chain: ChainConfig,
  hot: string,
  cursor: { firstBlock: number; openingUnits: bigint },
  asOf: number,
  onChain: bigint,
): Promise<{ items: Item[]; expected: bigint }> {
  const items: Item[] = [];
  const id = chain.chainId;
  const first = cursor.firstBlock;

  // Transfers out of the hot wallet, each with the payout Pillar signed for it (if any) and its capture.
  const outflows = await queryRows(
    tx,
    // A transfer Pillar signed, or one staff recorded as a payout's settlement outside Pillar (decision 040).
    sql`select l.tx_hash, l.log_index, l.to_address, l.units::text, p.id as payout_id, p.status, p.mined_hash,
               lower(p.to_address) as payout_to, p.units::text as payout_units, p.transfer_request_id,
               p.outside_tx_hash = l.tx_hash as outside,
               -- A movement to cold or a return the treasury worker signed for this destination (decision 060).
               exists (select 1 from treasury_movement_attempts ta join treasury_movements m on m.id = ta.movement_id
                        where ta.tx_hash = l.tx_hash and m.to_address = l.to_address
                          and m.kind in ('to_cold', 'return')) as treasury
        from chain_token_logs l
        left join payout_attempts a on a.tx_hash = l.tx_hash and a.kind = 'transfer'
        left join payouts p on p.id = a.payout_id
          or (a.id is null and p.chain_id = l.chain_id and p.outside_tx_hash = l.tx_hash)
        where l.chain_id = ${id} and l.from_address = ${hot} and l.block_number between ${first} and ${asOf}
        order by l.block_number, l.log_index`,
    z.object({
      tx_hash: z.string(),
      log_index: z.number(),
      to_address: z.string(),
      units: z.string(),
      payout_id: z.string().nullable(),
      status: z.string().nullable(),
      mined_hash: z.string().nullable(),
      payout_to: z.string().nullable(),
      payout_units: z.string().nullable(),
      transfer_request_id: z.string().nullable(),
      outside: z.boolean().nullable(),
      treasury: z.boolean(),
    }),
  );
  let awaitingOut = 0n;
  // Treasury movements out of the hot wallet (to cold, returns): the bank's own, no ledger posting (decision 060).
  let treasuryOut = 0n;
  for (const o of outflows) {
    const base = { area: "payouts" as const, txHash: o.tx_hash, chainUnits: o.units };
    if (o.treasury) {
      treasuryOut += BigInt(o.units);
    } else if (!o.payout_id) {
      items.push({
        ...base,
        kind: "unknown_outflow",
        outcome: "difference",
        ledgerUnits: "0",
        detail: `USDC left the hot wallet to ${o.to_address} in a transaction Pillar did not sign`,
      });
    } else if (o.payout_to !== o.to_address || o.payout_units !== o.units) {
      items.push({
        ...base,
        kind: "payout_mismatch",
        outcome: "difference",
        reference: o.transfer_request_id,
        ledgerUnits: o.payout_units,
        detail: `The transfer on chain went to ${o.to_address}; the payout was for ${o.payout_to}`,
      });
    } else if (o.outside && o.status === "completed") {
      // Recorded by maker-checker as this payout's settlement; its capture is compared below.
    } else if (o.status === "sent" && o.mined_hash === o.tx_hash) {
      awaitingOut += BigInt(o.units);
      items.push({
        ...base,
        kind: "payout_awaiting_capture",
        outcome: "awaiting",
        reference: o.transfer_request_id,
        ledgerUnits: "0",
        detail: "Confirmed on chain; the payout worker captures it on its next pass",
      });
    } else if (o.status !== "completed" || o.mined_hash !== o.tx_hash) {
      items.push({
        ...base,
        kind: "payout_not_captured",
        outcome: "difference",
        reference: o.transfer_request_id,
        ledgerUnits: "0",
        detail: `USDC left on chain for a payout that is ${o.status} in the ledger`,
      });
    }
  }

  // Every payout the ledger captured: on chain once, and captured for exactly its units. One settled outside
  // Pillar is on chain only if it left the hot wallet (by the transaction staff named); one paid from another
  // wallet is compared with its capture alone, and never with the hot wallet's balance.
  const captured = await queryRows(
    tx,
    sql`select p.transfer_request_id, coalesce(p.mined_hash, p.outside_tx_hash) as mined_hash, p.units::text,
               (p.settled_outside_by is null or exists (select 1 from chain_token_logs l
                  where l.chain_id = p.chain_id and l.tx_hash = p.outside_tx_hash and l.from_address = ${hot})) as from_hot,
               (select (sum(po.amount) * 10000)::text from journal_entries e
                  join postings po on po.entry_id = e.id
                  join ledger_accounts c on c.id = po.account_id and c.code = 'usdc_clearing'
                 where e.kind = 'transfer_capture' and e.reference_type = 'transfer_request'
                   and e.reference_id = p.transfer_request_id::text) as captured_units,
               (select count(*)::int from journal_entries e
                 where e.kind = 'transfer_capture' and e.reference_type = 'transfer_request'
                   and e.reference_id = p.transfer_request_id::text) as captures,
               (select sum(l.units)::text from chain_token_logs l
                 where l.chain_id = p.chain_id and l.tx_hash = coalesce(p.mined_hash, p.outside_tx_hash)
                   and l.from_address = ${hot} and l.to_address = lower(p.to_address)
                   and l.block_number between ${first} and ${asOf}) as on_chain
        from payouts p
        where p.chain_id = ${id} and p.status = 'completed'
          and ((p.settled_outside_by is null and p.from_address = ${hot} and p.mined_block between ${first} and ${asOf})
            or (p.settled_outside_by is not null
                and (p.outside_tx_hash is null or not exists (select 1 from chain_token_logs l
                       where l.chain_id = p.chain_id and l.tx_hash = p.outside_tx_hash and l.from_address = ${hot})
                     or exists (select 1 from chain_token_logs l where l.chain_id = p.chain_id
                       and l.tx_hash = p.outside_tx_hash and l.from_address = ${hot}
                       and l.block_number between ${first} and ${asOf}))))`,
    z.object({
      transfer_request_id: z.string(),
      mined_hash: z.string().nullable(),
      units: z.string(),
      captured_units: z.string().nullable(),
      captures: z.number(),
      on_chain: z.string().nullable(),
      from_hot: z.boolean(),
    }),
  );
  let ledgerOut = 0n;
  for (const c of captured) {
    const net = c.captured_units === null ? 0n : BigInt(c.captured_units);
    if (c.from_hot) ledgerOut += net;
    const base = { area: "payouts" as const, txHash: c.mined_hash, reference: c.transfer_request_id };
    if (c.from_hot && c.on_chain !== c.units) {
      items.push({
        ...base,
        kind: "captured_not_on_chain",
        outcome: "difference",
        chainUnits: c.on_chain ?? "0",
        ledgerUnits: net,
        detail: "The ledger captured this payout but its transfer is not on chain for that amount",
      });
    } else if (c.captures !== 1 || net !== BigInt(c.units)) {
      items.push({
        ...base,
        kind: "capture_mismatch",
        outcome: "difference",
        chainUnits: c.units,
        ledgerUnits: net,
        detail: `The ledger has ${c.captures} capture entries for this payout, not one for the amount sent`,
      });
    }
  }

  const [inflow] = await queryRows(
    tx,
    sql`select sum(units)::text as units from chain_token_logs
        where chain_id = ${id} and to_address = ${hot} and block_number between ${first} and ${asOf}`,
    z.object({ units: z.string().nullable() }),
  );
  // Every inflow counts in the expected balance (it is on chain); one from outside Pillar is its own difference,
  // reported once, so the balance does not report it again (decision 057).
  const strangers = await queryRows(
    tx,
    sql`select l.tx_hash, l.from_address, l.units::text from chain_token_logs l
        where l.chain_id = ${id} and l.to_address = ${hot} and l.block_number between ${first} and ${asOf}
          and l.from_address <> ${hot} and not ${isKnownHotInflow(chain)}
        order by l.block_number, l.log_index`,
    z.object({ tx_hash: z.string(), from_address: z.string(), units: z.string() }),
  );
  for (const s of strangers) {
    items.push({
      area: "hot_wallet",
      kind: "unknown_inflow",
      outcome: "difference",
      txHash: s.tx_hash,
      reference: s.from_address,
      chainUnits: s.units,
      ledgerUnits: "0",
      detail: `USDC arrived in the hot wallet from ${s.from_address}, neither a deposit address nor a funding address`,
    });
  }
  const expected = cursor.openingUnits + BigInt(inflow?.units ?? "0") - ledgerOut - awaitingOut - treasuryOut;
  if (onChain !== expected) {
    items.push({
      area: "hot_wallet",
      kind: "balance",
      outcome: "difference",
      reference: hot,
      chainUnits: onChain,
      ledgerUnits: expected,
      detail:
        onChain < expected
          ? "The hot wallet holds less USDC than the ledger accounts for"
          : "The hot wallet holds more USDC than the ledger accounts for",
    });
  }

  // Deposits: every transfer of a cent or more to a deposit address, against the watcher's rows, matched on the
  // transaction and the log's place in it (reconciliation-matching.ts).
  const matches = depositMatchesLog();
  const arrivals = await queryRows(
    tx,
    sql`select l.tx_hash, l.tx_log_index, l.units::text, d.status, d.units::text as deposit_units, d.user_id,
               (select coalesce(sum(po.amount), 0) = d.amount_cents from postings po
                  join ledger_accounts w on w.id = po.account_id and w.kind = 'wallet'
                 where po.entry_id = d.entry_id) as entry_ok,
               -- Sent back to its sender, or on its way (decision 060): the return is reconciled as the hot
               -- wallet's outflow, and the deposit is never credited.
               exists (select 1 from treasury_movements m where m.deposit_id = d.id and m.kind = 'return'
                         and m.status <> 'failed') as returning
        from chain_token_logs l
        join deposit_addresses a on a.address = l.to_address
        left join chain_deposits d on ${matches}
        where l.chain_id = ${id} and l.block_number between ${first} and ${asOf} and l.units >= ${UNITS_PER_CENT.toString()}
        order by l.block_number, l.log_index`,
    z.object({
      tx_hash: z.string(),
      tx_log_index: z.number().nullable(),
      units: z.string(),
      status: z.string().nullable(),
      deposit_units: z.string().nullable(),
      entry_ok: z.boolean().nullable(),
      user_id: z.string().nullable(),
      returning: z.boolean().nullable(),
    }),
  );
  for (const a of arrivals) {
    const base = {
      area: "deposits" as const,
      txHash: a.tx_hash,
      reference: `log ${a.tx_log_index}`,
      chainUnits: a.units,
    };
    if (a.status === "pending" && a.returning) {
      // Returned or being returned to its sender: nothing to credit.
    } else if (a.status === "pending") {
      items.push({
        ...base,
        kind: "deposit_awaiting_credit",
        outcome: "awaiting",
        ledgerUnits: "0",
        detail: "Confirmed on chain; the deposit watcher credits it on its next pass",
      });
    } else if (a.status !== "credited" && a.status !== "held") {
      items.push({
        ...base,
        kind: "deposit_not_credited",
        outcome: "difference",
        ledgerUnits: "0",
        detail: "USDC arrived at a deposit address and was not credited",
      });
    } else if (a.deposit_units !== a.units || !a.entry_ok) {
      items.push({
        ...base,
        kind: "deposit_mismatch",
        outcome: "difference",
        ledgerUnits: a.deposit_units,
        detail: "The booked deposit does not match the amount on chain",
      });
    }
  }
  const ghosts = await queryRows(
    tx,
    sql`select d.tx_hash, ${depositLogPosition()} as position, d.units::text from chain_deposits d
        where d.chain_id = ${id} and d.status in ('credited', 'held') and d.block_number between ${first} and ${asOf}
          and not exists (select 1 from chain_token_logs l where ${matches}
                            and l.units = d.units and l.to_address = d.to_address
                            and l.block_number between ${first} and ${asOf})`,
    z.object({ tx_hash: z.string(), position: z.number(), units: z.string() }),
  );
  for (const g of ghosts) {
    items.push({
      area: "deposits",
      kind: "credited_not_on_chain",
      outcome: "difference",
      txHash: g.tx_hash,
      reference: `log ${g.position}`,
      chainUnits: "0",
      ledgerUnits: g.units,
      detail: "The ledger credited this deposit but its transfer is not on chain",
    });
  }
  // The usdc_deposits account pays out nothing but booked deposits: credited ones and those held under review,
  // which are booked with a hold on them (decision 039). All chains: the account is one.
  const [account] = await queryRows(
    tx,
    sql`select coalesce((select -sum(p.amount) from postings p join ledger_accounts a on a.id = p.account_id
                           where a.code = 'usdc_deposits'), 0)::text as paid,
               coalesce((select sum(amount_cents) from chain_deposits where status in ('credited', 'held')), 0)::text as credited`,
    z.object({ paid: z.string(), credited: z.string() }),
  );
  if (account && account.paid !== account.credited) {
    items.push({
      area: "deposits",
      kind: "deposit_account_mismatch",
      outcome: "difference",
      reference: "usdc_deposits",
      chainUnits: BigInt(account.credited) * UNITS_PER_CENT,
      ledgerUnits: BigInt(account.paid) * UNITS_PER_CENT,
      detail: "The usdc_deposits account has paid out a different amount from the credited deposits",
    });
  }
  return { items, expected };
}

/**
 * One reconciliation: reads the logs of the final blocks not read yet, compares, and keeps the report and its
 * items. A run that cannot finish (the node does not answer) is kept as an error report. Staff's run while
 * another is in progress: 409 reconciliation_running; a scheduled one then, or soon after another instance's,
 * is skipped (null).
 */
export async function runReconciliation(
  db: Db,
  chain: ChainConfig,
  options: ReconcileOptions,
): Promise<ReconcileResult | null> {
  const client = options.client ?? chainClient(chain);
  const hotAddress = chain.signer.address;
  const hot = lower(hotAddress);
  return db.transaction(async (tx) => {
    const [locked] = await queryRows(
      tx,
      sql`select pg_try_advisory_xact_lock(${RECONCILE_LOCK}, ${chain.chainId}) as ok`,
      z.object({ ok: z.boolean() }),
    );
    if (!locked?.ok) {
      if (options.trigger === "scheduled") return null;
      throw new AppError(
        "reconciliation_running",
        "A reconciliation is already running; its report appears when it ends",
      );
    }
    if (options.trigger === "scheduled") {
      const [recent] = await queryRows(
        tx,
        sql`select id from reconciliation_reports where chain_id = ${chain.chainId} and status <> 'error'
              and finished_at > now() - make_interval(secs => ${SCHEDULED_GAP_MS / 1000}) limit 1`,
        z.object({ id: z.string() }),
      );
      if (recent) return null;
    }
    const [report] = await queryRows(
      tx,
      sql`insert into reconciliation_reports (chain_id, trigger, requested_by, status, hot_address)
          values (${chain.chainId}, ${options.trigger}, ${options.requestedBy ?? null}, 'running', ${hot})
          returning id`,
      z.object({ id: z.string() }),
    );
    const reportId = report!.id;
    try {
      await tx.transaction(async (sp) => {
        const head = Number(await client.getBlockNumber());
        const asOf = head - chain.confirmations + 1;
        let [cursor] = await queryRows(
          sp,
          sql`select first_block::text, opening_units::text, next_block::text from reconciliation_cursor
              where chain_id = ${chain.chainId} and hot_address = ${hot} for update`,
          z.object({ first_block: z.string(), opening_units: z.string(), next_block: z.string() }),
        );
        if (!cursor) {
          const first = chain.reconcileFromBlock;
          const opening = first > 0 ? await balanceAt(client, chain, hotAddress, first - 1) : 0n;
          await sp.execute(sql`
            insert into reconciliation_cursor (chain_id, hot_address, first_block, opening_units, next_block)
            values (${chain.chainId}, ${hot}, ${first}, ${opening.toString()}, ${first})`);
          cursor = {
            first_block: String(first),
            opening_units: opening.toString(),
            next_block: String(first),
          };
        }
        const first = Number(cursor.first_block);
        // The window below the final block is read again every run (decision 057): what a reorg deeper than the
        // confirmations changed since the last run is compared as the chain is now.
        if (asOf >= first) {
          await rereadLogs(
            sp,
            client,
            chain,
            hotAddress,
            { firstBlock: first, nextBlock: Number(cursor.next_block) },
            asOf,
          );
          await sp.execute(sql`
            update reconciliation_cursor set next_block = ${asOf + 1}, updated_at = now()
            where chain_id = ${chain.chainId} and hot_address = ${hot}`);
        }
        const readTo = Math.max(asOf, first - 1);
        const onChain = readTo >= 0 ? await balanceAt(client, chain, hotAddress, readTo) : 0n;
        const { items, expected } = await compare(
          sp,
          chain,
          hot,
          { firstBlock: first, openingUnits: BigInt(cursor.opening_units) },
          readTo,
          onChain,
        );
        if (readTo >= 0) items.push(...(await compareDepositAddresses(sp, client, chain, first, readTo)));
        const found = await recordFindings(sp, chain.chainId, reportId, readTo, items);
        await sp.execute(sql`
          update reconciliation_reports
          set status = ${found.differences > 0 ? "differences" : "clean"}, as_of_block = ${readTo}, head_block = ${head},
              hot_onchain_units = ${onChain.toString()}, hot_expected_units = ${expected.toString()},
              differences = ${found.differences}, new_differences = ${found.fresh}, resolved = ${found.resolved},
              awaiting = ${found.awaiting}, finished_at = now()
          where id = ${reportId}`);
      });
    } catch (err) {
      options.log?.error({ err, report: reportId }, "reconciliation failed");
      const message = (err as Error).message.split("\n")[0]!.slice(0, 500);
      await tx.execute(sql`
        update reconciliation_reports set status = 'error', error = ${message}, finished_at = now()
        where id = ${reportId}`);
    }
    const [done] = await queryRows(
      tx,
      sql`select status, differences, new_differences as "newDifferences", resolved, awaiting
          from reconciliation_reports where id = ${reportId}`,
      z.object({
        status: z.enum(["clean", "differences", "error"]),
        differences: z.number(),
        newDifferences: z.number(),
        resolved: z.number(),
        awaiting: z.number(),
      }),
    );
    // Logged (and alerted on) once per difference: a difference still open is counted in /metrics, not logged again.
    if (done!.newDifferences > 0) {
      options.log?.error(
        { report: reportId, newDifferences: done!.newDifferences, open: done!.differences },
        "reconciliation found new differences between the chain and the ledger",
      );
    }
    return { reportId, ...done! };
  });
}

/**
 * Scheduled reconciliation as a loop of the jobs room: hourly, the first a minute after start. Any number of
 * instances run it; runReconciliation's advisory lock lets one reconcile a chain at a time.
 */
export function reconciliationLoop(
  db: Db,
  chain: ChainConfig,
  log: FastifyBaseLogger,
  intervalMs = 60 * 60_000,
  firstAfterMs = 60_000,
): LoopSpec {
  const client = chainClient(chain);
  return {
    name: "reconciliation",
    everyMs: intervalMs,
    firstAfterMs,
    async pass() {
      const result = await runReconciliation(db, chain, { trigger: "scheduled", client, log });
      return result ? 1 : 0;
    },
  };
}
