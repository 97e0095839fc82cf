import { sql } from "drizzle-orm";
import { z } from "zod";
import type { SettlementAlert, SettlementHealth } from "@/contract/settlement";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { gwei } from "@/server/features/settlement/fee-policy";
import type { ChainConfig } from "@/server/lib/chain-config";

/** A deposit still pending after this long means the watcher or the node is behind (confirmations take minutes). */
const DEPOSIT_PENDING_ALERT_SECONDS = 3600;

const healthRow = z.object({
  oldest_pending_deposit: z.number().nullable(),
  oldest_unsent_payout: z.number().nullable(),
  oldest_stuck_payout: z.number().nullable(),
  paused_fee_ceiling: z.number(),
  paused_nonce_used_outside: z.number(),
  usdc_units: z.string().nullable(),
  gas_wei: z.string().nullable(),
  base_fee_wei: z.string().nullable(),
  market_max_fee_wei: z.string().nullable(),
  nonce_alert: z.enum(["gap", "used_outside"]).nullable(),
  nonce_alert_nonce: z.string().nullable(),
  observed_at: z.number().nullable(),
});
export type HealthRow = z.output<typeof healthRow>;

/**
 * Everything /metrics and the Settlement tab's alerts need in one query (decision 058): how long the oldest
 * pending deposit, unsent payout (queued or signed) and stuck payout (sent, not mined) have waited, the payouts
 * paused by the fee ceiling or a nonce used outside Pillar, and the hot wallet as the payout worker last saw it.
 */
export async function readSettlementHealth(db: DbOrTx, chain: ChainConfig): Promise<HealthRow> {
  const address = chain.signer.address.toLowerCase();
  const [row] = await queryRows(
    db,
    sql`select
          (select floor(extract(epoch from now() - min(seen_at)))::int from chain_deposits
            where chain_id = ${chain.chainId} and status = 'pending') as oldest_pending_deposit,
          (select floor(extract(epoch from now() - min(created_at)))::int from payouts
            where chain_id = ${chain.chainId} and status in ('queued', 'signed')) as oldest_unsent_payout,
          (select floor(extract(epoch from now() - min(coalesce(signed_at, created_at))))::int from payouts
            where chain_id = ${chain.chainId} and status = 'sent' and mined_block is null) as oldest_stuck_payout,
          (select count(*)::int from payouts where chain_id = ${chain.chainId}
            and status in ('queued', 'signed', 'sent') and waiting_reason = 'fee_ceiling') as paused_fee_ceiling,
          (select count(*)::int from payouts where chain_id = ${chain.chainId}
            and status in ('signed', 'sent') and waiting_reason = 'nonce_used_outside') as paused_nonce_used_outside,
          s.usdc_units::text, s.gas_wei::text, s.base_fee_wei::text, s.market_max_fee_wei::text, s.nonce_alert,
          s.nonce_alert_nonce::text, extract(epoch from s.observed_at)::float8 as observed_at
        from (select 1) one
        left join hot_wallet_status s on s.chain_id = ${chain.chainId} and s.address = ${address}`,
    healthRow,
  );
  return row!;
}

function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function settlementHealth(row: HealthRow, chain: ChainConfig): SettlementHealth {
  const asGwei = (wei: string | null) => (wei === null ? null : gwei(BigInt(wei)));
  return {
    ceiling: asGwei(chain.maxFeePerGasWei ?? null),
    baseFee: asGwei(row.base_fee_wei),
    marketMaxFee: asGwei(row.market_max_fee_wei),
    observedAt: row.observed_at === null ? null : new Date(row.observed_at * 1000).toISOString(),
    oldestPendingDepositSeconds: row.oldest_pending_deposit,
    oldestUnsentPayoutSeconds: row.oldest_unsent_payout,
    oldestStuckPayoutSeconds: row.oldest_stuck_payout,
  };
}

/** The alerts the Settlement tab shows, most urgent first: each says what happened and what staff can do. */
export function settlementAlerts(row: HealthRow, chain: ChainConfig): SettlementAlert[] {
  const alerts: SettlementAlert[] = [];
  const nonce = row.nonce_alert_nonce;
  if (row.nonce_alert === "used_outside" || row.paused_nonce_used_outside > 0) {
    const waiting =
      row.paused_nonce_used_outside > 0
        ? ` ${plural(row.paused_nonce_used_outside, "payout waits", "payouts wait")} for staff: Pillar never sends one at another nonce, since that transaction may have paid it. Find out what it paid, then record the payout as settled outside Pillar.`
        : " No payout of Pillar's was at that nonce; find out who holds the hot key.";
    alerts.push({
      kind: "nonce_used_outside",
      message: `Nonce ${nonce ?? "unknown"} of the hot wallet was used by a transaction Pillar did not sign.${waiting}`,
    });
  }
  if (row.nonce_alert === "gap") {
    alerts.push({
      kind: "nonce_gap",
      message: `Nonce ${nonce} of the hot wallet is missing: no transaction of Pillar's holds it, so every payout above it waits. A transaction from the hot wallet at nonce ${nonce} (0 ETH to itself) fills it.`,
    });
  }
  if (row.paused_fee_ceiling > 0) {
    const asked = row.market_max_fee_wei === null ? "more" : gwei(BigInt(row.market_max_fee_wei));
    const ceiling = chain.maxFeePerGasWei ? gwei(BigInt(chain.maxFeePerGasWei)) : "the ceiling";
    alerts.push({
      kind: "fee_ceiling",
      message: `${plural(row.paused_fee_ceiling, "payout is", "payouts are")} paused: the chain asks ${asked} per gas, above the ${ceiling} ceiling (CHAIN_MAX_FEE_GWEI). ${row.paused_fee_ceiling === 1 ? "It goes" : "They go"} when the fee falls; raise the ceiling to send ${row.paused_fee_ceiling === 1 ? "it" : "them"} now.`,
    });
  }
  const late = chain.payoutReplaceAfterMs / 1000;
  if (row.oldest_stuck_payout !== null && row.oldest_stuck_payout >= late) {
    alerts.push({
      kind: "payout_stuck",
      message: `The oldest payout sent and not yet mined has waited ${age(row.oldest_stuck_payout)}.`,
    });
  }
  if (row.oldest_unsent_payout !== null && row.oldest_unsent_payout >= late) {
    alerts.push({
      kind: "payout_unsent",
      message: `The oldest approved payout not yet sent has waited ${age(row.oldest_unsent_payout)}.`,
    });
  }
  if (row.oldest_pending_deposit !== null && row.oldest_pending_deposit >= DEPOSIT_PENDING_ALERT_SECONDS) {
    alerts.push({
      kind: "deposit_pending",
      message: `The oldest pending deposit has waited ${age(row.oldest_pending_deposit)}: check that the deposit watcher runs and the node answers.`,
    });
  }
  return alerts;
}
