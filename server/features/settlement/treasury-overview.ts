import { sql } from "drizzle-orm";
import { formatGwei, type PublicClient } from "viem";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import {
  type TreasuryAlert,
  type TreasuryMovement,
  type TreasuryOverview,
  treasuryMovementKind,
  treasuryMovementStatus,
} from "@/contract/treasury";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import type { ChainConfig } from "@/server/lib/chain-config";

const LISTED = 50;
const centsOf = (units: bigint) => units / 10_000n;
/** A queued movement waiting longer than this is stuck even without a waiting reason. */
const QUEUED_TOO_LONG_MS = 10 * 60_000;

/**
 * The figures the Settlement tab and /metrics share (decision 060): sweeps waiting, movements stuck, and how many
 * hours the hot wallet's USDC lasts at the last day's payout outflow. `usdc` is the hot wallet's balance (null:
 * the node did not answer; the forecast is then unknown).
 */
export async function treasuryFigures(db: DbOrTx, chain: ChainConfig, usdc: bigint | null, now = Date.now()) {
  const id = chain.chainId;
  const [row] = await queryRows(
    db,
    sql`select
          (select count(*)::int from deposit_addresses a where a.kind = 'create2'
             and exists (select 1 from chain_deposits d where d.chain_id = ${id} and d.to_address = a.address
                           and d.status = 'credited'
                           and d.block_number > coalesce((select max(m.mined_block) from treasury_movements m
                                 where m.chain_id = ${id} and m.kind = 'sweep' and m.from_address = a.address
                                   and m.status = 'completed'), -1))) as sweeps_waiting,
          (select count(*)::int from treasury_movements m where m.chain_id = ${id} and (
             (m.status = 'queued' and (m.waiting_reason is not null
                or m.created_at < ${new Date(now - QUEUED_TOO_LONG_MS).toISOString()}::timestamptz))
             or (m.status in ('signed', 'sent') and m.mined_block is null
                and m.signed_at < ${new Date(now - chain.payoutRebroadcastAfterMs).toISOString()}::timestamptz))) as stuck,
          (select coalesce(sum(units), 0)::text from payouts where chain_id = ${id} and status = 'completed'
             and settled_at >= ${new Date(now - 86_400_000).toISOString()}::timestamptz) as last_day,
          ((select coalesce(sum(units), 0) from payouts where status in ('signed', 'sent') and mined_block is null)
            + (select coalesce(sum(units), 0) from treasury_movements where kind in ('to_cold', 'return')
                 and status in ('signed', 'sent') and mined_block is null))::text as promised,
          (select count(distinct a.address)::int from deposit_addresses a join chain_deposits d
             on d.to_address = a.address and d.chain_id = ${id} and d.status = 'credited'
            where a.kind = 'xpub') as xpub_addresses,
          (select coalesce(sum(d.amount_cents), 0)::text from deposit_addresses a join chain_deposits d
             on d.to_address = a.address and d.chain_id = ${id} and d.status = 'credited'
            where a.kind = 'xpub') as xpub_cents`,
    z.object({
      sweeps_waiting: z.number(),
      stuck: z.number(),
      last_day: z.string(),
      promised: z.string(),
      xpub_addresses: z.number(),
      xpub_cents: z.string(),
    }),
  );
  const lastDay = BigInt(row!.last_day);
  const available = usdc === null ? null : usdc - BigInt(row!.promised);
  const hoursLeft =
    available === null || lastDay === 0n
      ? null
      : Math.max(0, Math.floor((Number(available) * 24 * 10) / Number(lastDay)) / 10);
  return {
    sweepsWaiting: row!.sweeps_waiting,
    stuck: row!.stuck,
    lastDayUnits: lastDay,
    available,
    hoursLeft,
    notSweepable: { addresses: row!.xpub_addresses, cents: BigInt(row!.xpub_cents) },
  };
}

/** The hot wallet's USDC, or null when the node does not answer. */
export async function hotWalletUsdc(chain: ChainConfig, client: PublicClient): Promise<bigint | null> {
  try {
    return await client.readContract({
      address: chain.usdcContract,
      abi: pillarUsdAbi,
      functionName: "balanceOf",
      args: [chain.signer.address],
    });
  } catch {
    return null;
  }
}

/** What GET /api/admin/settlement/treasury answers in chain mode. */
export async function treasuryOverview(
  db: DbOrTx,
  chain: ChainConfig,
  client: PublicClient,
): Promise<Extract<TreasuryOverview, { mode: "chain" }>> {
  const now = Date.now();
  const usdc = await hotWalletUsdc(chain, client);
  let head: number | null = null;
  try {
    head = Number(await client.getBlockNumber());
  } catch {
    head = null;
  }
  const figures = await treasuryFigures(db, chain, usdc, now);
  const t = chain.treasury;
  const rows = await queryRows(
    db,
    sql`select m.id, m.kind, m.status, m.units::text, m.mined_units::text, m.from_address, m.to_address,
               coalesce(m.mined_hash, (select a.tx_hash from treasury_movement_attempts a where a.movement_id = m.id
                                        order by a.created_at desc, a.id desc limit 1)) as tx_hash,
               m.nonce::text, m.mined_block::text, m.waiting_reason, m.failure_reason, m.created_at, m.signed_at
        from treasury_movements m where m.chain_id = ${chain.chainId}
        order by (m.status in ('completed', 'failed')), m.created_at desc limit ${LISTED}`,
    z.object({
      id: z.string(),
      kind: treasuryMovementKind,
      status: treasuryMovementStatus,
      units: z.string(),
      mined_units: z.string().nullable(),
      from_address: z.string(),
      to_address: z.string(),
      tx_hash: z.string().nullable(),
      nonce: z.string().nullable(),
      mined_block: z.string().nullable(),
      // The column has no check: any reason the worker wrote, as before.
      waiting_reason: z.custom<TreasuryMovement["waitingReason"]>((r) => r === null || typeof r === "string"),
      failure_reason: z.string().nullable(),
      created_at: z.string(),
      signed_at: z.string().nullable(),
    }),
  );
  const counts = await queryRows(
    db,
    sql`select status, count(*)::int as count from treasury_movements where chain_id = ${chain.chainId} group by status`,
    z.object({ status: treasuryMovementStatus, count: z.number() }),
  );
  const txLink = (hash: string | null) =>
    chain.explorerUrl && hash ? `${chain.explorerUrl}/tx/${hash}` : null;
  const movements = rows.map((m): TreasuryMovement => {
    const age = now - new Date(m.created_at).getTime();
    const stuck =
      (m.status === "queued" && (m.waiting_reason !== null || age >= QUEUED_TOO_LONG_MS)) ||
      ((m.status === "signed" || m.status === "sent") &&
        m.mined_block === null &&
        m.signed_at !== null &&
        now - new Date(m.signed_at).getTime() >= chain.payoutRebroadcastAfterMs);
    return {
      id: m.id,
      kind: m.kind,
      status: m.status,
      amount: formatMoney(centsOf(BigInt(m.mined_units ?? m.units))),
      fromAddress: m.from_address,
      toAddress: m.to_address,
      txHash: m.tx_hash,
      explorerUrl: txLink(m.tx_hash),
      nonce: m.nonce === null ? null : Number(m.nonce),
      confirmations:
        head === null || m.mined_block === null
          ? 0
          : Math.min(chain.confirmations, Math.max(0, head - Number(m.mined_block) + 1)),
      ageSeconds: Math.max(0, Math.floor(age / 1000)),
      stuck,
      waitingReason: m.waiting_reason,
      failureReason: m.failure_reason,
    };
  });

  const alerts: TreasuryAlert[] = [];
  const floor = BigInt(chain.hotWalletLowUsdcCents) * 10_000n;
  if (figures.available !== null && figures.available < floor) {
    alerts.push({
      kind: "floor",
      message: `The hot wallet has ${formatMoney(centsOf(figures.available))} free, below its ${formatMoney(chain.hotWalletLowUsdcCents)} floor: payouts will wait unless it is funded or swept.`,
    });
  }
  if (figures.hoursLeft !== null && figures.hoursLeft < t.forecastWarnHours) {
    alerts.push({
      kind: "forecast",
      message: `At the last day's outflow (${formatMoney(centsOf(figures.lastDayUnits))}), the hot wallet lasts about ${figures.hoursLeft} hours: fewer than the ${t.forecastWarnHours} asked for.`,
    });
  }
  if (figures.stuck > 0) {
    alerts.push({
      kind: "movement_stuck",
      message: `${figures.stuck} treasury ${figures.stuck === 1 ? "movement is" : "movements are"} stuck: waiting or not mined in time.`,
    });
  }
  if (figures.notSweepable.addresses > 0) {
    alerts.push({
      kind: "not_sweepable",
      message: `${figures.notSweepable.addresses} older deposit ${figures.notSweepable.addresses === 1 ? "address" : "addresses"} (derived from DEPOSIT_XPUB) received ${formatMoney(figures.notSweepable.cents)}: not sweepable without the deposit keys, moved by the key holder outside the server.`,
    });
  }
  return {
    mode: "chain",
    sweepsEnabled: t.depositFactory !== null,
    policy: {
      minAmount: formatMoney(t.sweepMinCents),
      minAgeSeconds: Math.round(t.sweepMinAgeMs / 1000),
      maxGasGwei: formatGwei(BigInt(t.sweepMaxFeeWei)),
      ceiling: t.hotWalletCeilingCents === null ? null : formatMoney(t.hotWalletCeilingCents),
      coldWallet: t.coldWallet,
    },
    forecast: {
      available: figures.available === null ? null : formatMoney(centsOf(figures.available)),
      lastDayOutflow: formatMoney(centsOf(figures.lastDayUnits)),
      hoursLeft: figures.hoursLeft,
    },
    sweepsWaiting: figures.sweepsWaiting,
    notSweepable: {
      addresses: figures.notSweepable.addresses,
      amount: formatMoney(figures.notSweepable.cents),
    },
    counts: Object.fromEntries(
      (["queued", "signed", "sent", "completed", "failed"] as const).map((k) => [
        k,
        counts.find((c) => c.status === k)?.count ?? 0,
      ]),
    ) as Record<TreasuryMovement["status"], number>,
    movements,
    alerts,
  };
}
