import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ReconciliationArea, ReconciliationOutcome } from "@/contract/settlement";
import { queryRows, type Tx } from "@/server/db/client";

/** One finding of a run: a difference for staff to explain, or something confirmed that a worker settles next. */
export interface Item {
  area: ReconciliationArea;
  kind: string;
  outcome: Exclude<ReconciliationOutcome, "resolved">;
  txHash?: string | null;
  reference?: string | null;
  chainUnits?: bigint | string | null;
  ledgerUnits?: bigint | string | null;
  detail: string;
}

/** Balances: the same address with another gap is another difference (a new outflow moves it). */
const GAP_KINDS = new Set(["balance", "address_balance"]);

/**
 * What makes two runs' findings the same difference (decision 057): its area, kind, transaction and reference,
 * and for a balance the gap between chain and ledger (the balance itself moves with every payout).
 */
export function differenceKey(item: Item): string {
  const base = `${item.area}|${item.kind}|${item.txHash ?? ""}|${item.reference ?? ""}`;
  if (!GAP_KINDS.has(item.kind)) return base;
  return `${base}|${BigInt(item.chainUnits ?? 0) - BigInt(item.ledgerUnits ?? 0)}`;
}

const text = (v: bigint | string | null | undefined) => (v === null || v === undefined ? null : v.toString());

export interface Recorded {
  /** Differences found by this run, new or still open. */
  differences: number;
  /** Of them, those no earlier run found. */
  fresh: number;
  resolved: number;
  awaiting: number;
}

/**
 * Keeps a run's findings: each difference once in reconciliation_differences, from the run that first found it
 * (its as-of block) until a run no longer finds it (resolved, at that run's block). Every run's report lists
 * what it found (each difference with its first-seen block, so a still-open one is not new) and what it found
 * resolved. A new difference that an acknowledgment of decision 040 names by fingerprint starts acknowledged.
 */
export async function recordFindings(
  tx: Tx,
  chainId: number,
  reportId: string,
  asOf: number,
  items: readonly Item[],
): Promise<Recorded> {
  const open = new Map(
    (
      await queryRows(
        tx,
        sql`select id::text, key from reconciliation_differences
            where chain_id = ${chainId} and resolved_at is null for update`,
        z.object({ id: z.string(), key: z.string() }),
      )
    ).map((d) => [d.key, d.id]),
  );
  const found = new Set<string>();
  const recorded: Recorded = { differences: 0, fresh: 0, resolved: 0, awaiting: 0 };
  const insertItem = (item: Item, differenceId: string | null) =>
    queryRows(
      tx,
      sql`insert into reconciliation_items
            (report_id, area, kind, outcome, tx_hash, reference, chain_units, ledger_units, detail, difference_id)
          values (${reportId}, ${item.area}, ${item.kind}, ${item.outcome}, ${item.txHash ?? null},
                  ${item.reference ?? null}, ${text(item.chainUnits)}, ${text(item.ledgerUnits)}, ${item.detail},
                  ${differenceId}::bigint)
          returning id::text`,
      z.object({ id: z.string() }),
    );

  for (const item of items) {
    if (item.outcome === "awaiting") {
      await insertItem(item, null);
      recorded.awaiting += 1;
      continue;
    }
    const key = differenceKey(item);
    if (found.has(key)) continue;
    found.add(key);
    recorded.differences += 1;
    let id = open.get(key);
    if (id) {
      await tx.execute(sql`
        update reconciliation_differences
        set last_report_id = ${reportId}, last_seen_block = ${asOf}, chain_units = ${text(item.chainUnits)},
            ledger_units = ${text(item.ledgerUnits)}, detail = ${item.detail}
        where id = ${id}::bigint`);
      await insertItem(item, id);
      continue;
    }
    recorded.fresh += 1;
    const [created] = await queryRows(
      tx,
      sql`insert into reconciliation_differences
            (chain_id, key, area, kind, tx_hash, reference, chain_units, ledger_units, detail,
             first_report_id, first_seen_block, last_report_id, last_seen_block)
          values (${chainId}, ${key}, ${item.area}, ${item.kind}, ${item.txHash ?? null}, ${item.reference ?? null},
                  ${text(item.chainUnits)}, ${text(item.ledgerUnits)}, ${item.detail},
                  ${reportId}, ${asOf}, ${reportId}, ${asOf})
          returning id::text`,
      z.object({ id: z.string() }),
    );
    id = created!.id;
    const [row] = await insertItem(item, id);
    // Acknowledged before differences were kept (decision 040, by fingerprint): it stays acknowledged.
    await tx.execute(sql`
      update reconciliation_differences d
      set acknowledged_by = k.acknowledged_by, acknowledged_at = k.acknowledged_at, acknowledgment_reason = k.reason
      from reconciliation_items i
      join reconciliation_acknowledgments k on k.chain_id = ${chainId} and k.fingerprint = i.fingerprint
      where i.id = ${row!.id}::bigint and d.id = ${id}::bigint`);
  }

  for (const [key, id] of open) {
    if (found.has(key)) continue;
    recorded.resolved += 1;
    await tx.execute(sql`
      update reconciliation_differences
      set resolved_report_id = ${reportId}, resolved_block = ${asOf}, resolved_at = now()
      where id = ${id}::bigint`);
    await tx.execute(sql`
      insert into reconciliation_items
        (report_id, area, kind, outcome, tx_hash, reference, chain_units, ledger_units, detail, difference_id)
      select ${reportId}, area, kind, 'resolved', tx_hash, reference, chain_units, ledger_units, detail, id
      from reconciliation_differences where id = ${id}::bigint`);
  }
  return recorded;
}
