import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Address, PublicClient } from "viem";
import { z } from "zod";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { hotWalletNonces, hotWalletStatus } from "@/server/db/schema";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { readMarket } from "@/server/features/settlement/fee-policy";
import type { ChainConfig } from "@/server/lib/chain-config";

export type HotWalletStatusRow = typeof hotWalletStatus.$inferSelect;

export interface NonceAlert {
  kind: "gap" | "used_outside";
  nonce: number;
}

/**
 * What the hot wallet's nonces say (decision 058). Pillar hands out nonces one after another, so every nonce from
 * the chain's mined count up to the highest open payout's is held by an open payout:
 * - *used outside*: a payout's nonce was mined by a transaction Pillar did not sign (none of its attempts has a
 *   receipt), or the chain mined or holds pending nonces Pillar never handed out (the hot key used elsewhere);
 * - *gap*: a nonce between the mined count and an open payout's that no open payout holds: nothing of Pillar's
 *   will ever fill it, and every payout above it waits.
 * A payout of Pillar's whose bytes the node does not hold (refused, dropped) is not an alert: the worker sends
 * it again, and the Settlement tab shows it as the stuck one.
 */
export function classifyNonces(input: {
  latest: number;
  pending: number;
  handedOut: number | null;
  open: { nonce: number; usedOutside: boolean }[];
}): NonceAlert | null {
  const outside = input.open.filter((p) => p.usedOutside).sort((a, b) => a.nonce - b.nonce)[0];
  if (outside) return { kind: "used_outside", nonce: outside.nonce };
  if (input.handedOut !== null && Math.max(input.latest, input.pending) > input.handedOut) {
    return { kind: "used_outside", nonce: input.handedOut };
  }
  const held = new Set(input.open.filter((p) => p.nonce >= input.latest).map((p) => p.nonce));
  const top = Math.max(-1, ...held);
  for (let n = input.latest; n < top; n += 1) {
    if (!held.has(n)) return { kind: "gap", nonce: n };
  }
  return null;
}

/**
 * Reads the hot wallet's balances, the market and its nonces, classifies the nonces and keeps it all in
 * hot_wallet_status (one row per chain and address), for /metrics and the Settlement tab. A new alert is
 * logged as an error once, when it first appears.
 */
export async function observeHotWallet(
  db: DbOrTx,
  chain: ChainConfig,
  client: PublicClient,
  log?: FastifyBaseLogger,
): Promise<HotWalletStatusRow> {
  const hot = chain.signer.address as Address;
  const address = hot.toLowerCase();
  const [usdc, gas, latest, pending, market] = await Promise.all([
    client.readContract({
      address: chain.usdcContract,
      abi: pillarUsdAbi,
      functionName: "balanceOf",
      args: [hot],
    }),
    client.getBalance({ address: hot }),
    client.getTransactionCount({ address: hot, blockTag: "latest" }),
    client.getTransactionCount({ address: hot, blockTag: "pending" }),
    readMarket(client),
  ]);
  const [counter] = await db
    .select({ next: hotWalletNonces.nextNonce })
    .from(hotWalletNonces)
    .where(and(eq(hotWalletNonces.chainId, chain.chainId), eq(hotWalletNonces.address, address)));
  const open = await queryRows(
    db,
    // Treasury movements (decision 060) take their nonces from the same counter: a signed sweep between two
    // payouts holds its nonce, not a gap.
    sql`select nonce::text, waiting_reason from payouts
        where chain_id = ${chain.chainId} and from_address = ${address} and status in ('signed', 'sent')
          and mined_hash is null and nonce is not null
        union all
        select nonce::text, null from treasury_movements
        where chain_id = ${chain.chainId} and signer_address = ${address} and status in ('signed', 'sent')
          and mined_hash is null and nonce is not null`,
    z.object({ nonce: z.string(), waiting_reason: z.string().nullable() }),
  );
  const alert = classifyNonces({
    latest,
    pending,
    handedOut: counter?.next ?? null,
    open: open.map((p) => ({
      nonce: Number(p.nonce),
      usedOutside: p.waiting_reason === "nonce_used_outside",
    })),
  });
  const [before] = await db
    .select({ alert: hotWalletStatus.nonceAlert, nonce: hotWalletStatus.nonceAlertNonce })
    .from(hotWalletStatus)
    .where(and(eq(hotWalletStatus.chainId, chain.chainId), eq(hotWalletStatus.address, address)));
  if (alert && (before?.alert !== alert.kind || before?.nonce !== alert.nonce)) {
    log?.error(
      { hotWallet: hot, nonce: alert.nonce, latest, pending, handedOut: counter?.next ?? null },
      alert.kind === "gap"
        ? `hot wallet nonce gap at ${alert.nonce}: no transaction of Pillar's holds it, so every payout above it waits`
        : `hot wallet nonce ${alert.nonce} was used by a transaction Pillar did not sign: the hot key is used outside Pillar`,
    );
  }
  const values = {
    usdcUnits: usdc.toString(),
    gasWei: gas.toString(),
    baseFeeWei: market.baseFeePerGas.toString(),
    marketMaxFeeWei: market.maxFeePerGas.toString(),
    latestNonce: latest,
    pendingNonce: pending,
    handedOutNonce: counter?.next ?? null,
    nonceAlert: alert?.kind ?? null,
    nonceAlertNonce: alert?.nonce ?? null,
    observedAt: new Date(),
  };
  const [row] = await db
    .insert(hotWalletStatus)
    .values({ chainId: chain.chainId, address, ...values })
    .onConflictDoUpdate({ target: [hotWalletStatus.chainId, hotWalletStatus.address], set: values })
    .returning();
  return row!;
}

export async function findHotWalletStatus(db: DbOrTx, chain: ChainConfig) {
  const [row] = await db
    .select()
    .from(hotWalletStatus)
    .where(
      and(
        eq(hotWalletStatus.chainId, chain.chainId),
        eq(hotWalletStatus.address, chain.signer.address.toLowerCase()),
      ),
    );
  return row ?? null;
}
