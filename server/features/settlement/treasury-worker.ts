import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  type Address,
  decodeEventLog,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  parseAbiItem,
} from "viem";
import { z } from "zod";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import {
  chainDeposits,
  hotWalletNonces,
  treasuryMovementAttempts,
  treasuryMovements,
} from "@/server/db/schema";
import { chainClient, receiptOf } from "@/server/features/settlement/chain-config";
import { depositForwarderFactoryAbi } from "@/server/features/settlement/contracts/deposit-forwarders.artifact";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { unminedOutflowUnits } from "@/server/features/settlement/hot-wallet-outflows";
import type { LoopSpec } from "@/server/jobs/loop";
import type { ChainConfig } from "@/server/lib/chain-config";

/**
 * Gas for a sweep, fixed like a payout's: the first sweep of an address deploys its forwarder (about 150k with
 * the transfer); later ones cost about 50k. A sweep the factory refuses must be mined and seen to revert.
 */
export const SWEEP_GAS = 300_000n;
/** Gas for a token transfer out of the hot wallet (to cold, a return): the payout worker's figure. */
const TRANSFER_GAS = 100_000n;
const FEE_BUMP_PERCENT = 25n;
const BATCH = 20;
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

/** Where a pass may be stopped in the tests that SIGKILL it (tests/chain/treasury.chain.test.ts). */
export type TreasuryStep = "before_sign" | "after_sign" | "after_broadcast" | "after_mined";

export interface TreasuryPassOptions {
  client?: PublicClient;
  log?: FastifyBaseLogger;
  at?: (step: TreasuryStep, movementId: string) => Promise<void> | void;
  now?: () => number;
}

export interface TreasuryPassReport {
  queued: number;
  signed: number;
  broadcast: number;
  rebroadcast: number;
  replaced: number;
  reorged: number;
  completed: number;
  failed: number;
  /** Why movements wait: the chain's fee above SWEEP_MAX_GAS_GWEI, or the hot wallet short of USDC or gas. */
  waiting: "gas_price" | "usdc" | "gas" | null;
}

type MovementRow = typeof treasuryMovements.$inferSelect;
type AttemptRow = typeof treasuryMovementAttempts.$inferSelect;

interface Context {
  db: Db;
  chain: ChainConfig;
  client: PublicClient;
  options: TreasuryPassOptions;
  report: TreasuryPassReport;
  hot: Address;
}

const isAlreadyThere = (err: unknown) =>
  /already known|nonce too low|known transaction|already imported|transaction already exists/i.test(
    String((err as Error)?.message ?? err),
  );

const now = (ctx: Context) => ctx.options.now?.() ?? Date.now();

const usdcOf = (ctx: Context, address: Address) =>
  ctx.client.readContract({
    address: ctx.chain.usdcContract,
    abi: pillarUsdAbi,
    functionName: "balanceOf",
    args: [address],
  });

/**
 * Queues a sweep for each CREATE2 deposit address the policy allows (decision 060): it holds at least
 * SWEEP_MIN_USDC on chain, its oldest deposit credited since its last sweep is SWEEP_MIN_AGE old, and the chain's
 * fee is at or below SWEEP_MAX_GAS_GWEI. One open sweep per address (a unique index), so two instances planning
 * at once queue it once; and a second sweep could only move what is there to the hot wallet, never elsewhere.
 */
async function planSweeps(ctx: Context, maxFee: bigint) {
  const { treasury } = ctx.chain;
  if (!treasury.depositFactory) return;
  const before = new Date(now(ctx) - treasury.sweepMinAgeMs);
  const candidates = await queryRows(
    ctx.db,
    sql`select a.address, a.salt from deposit_addresses a
        where a.kind = 'create2' and a.factory = ${treasury.depositFactory.toLowerCase()}
          and not exists (select 1 from treasury_movements m where m.chain_id = ${ctx.chain.chainId}
                            and m.kind = 'sweep' and m.from_address = a.address
                            and m.status in ('queued', 'signed', 'sent'))
          and exists (select 1 from chain_deposits d where d.chain_id = ${ctx.chain.chainId}
                        and d.to_address = a.address and d.status = 'credited' and d.credited_at <= ${before.toISOString()}::timestamptz
                        and d.block_number > coalesce((select max(m.mined_block) from treasury_movements m
                              where m.chain_id = d.chain_id and m.kind = 'sweep' and m.from_address = a.address
                                and m.status = 'completed'), -1))
        order by a.derivation_index limit ${BATCH}`,
    z.object({ address: z.string(), salt: z.string() }),
  );
  if (candidates.length === 0) return;
  if (maxFee > BigInt(treasury.sweepMaxFeeWei)) {
    ctx.report.waiting = "gas_price";
    return;
  }
  for (const c of candidates) {
    const units = await usdcOf(ctx, getAddress(c.address));
    if (units < BigInt(treasury.sweepMinCents) * 10_000n) continue;
    const [row] = await queryRows(
      ctx.db,
      sql`insert into treasury_movements (chain_id, kind, from_address, to_address, salt, units)
          values (${ctx.chain.chainId}, 'sweep', ${c.address}, ${ctx.hot.toLowerCase()}, ${c.salt}, ${units.toString()})
          on conflict do nothing returning id`,
      z.object({ id: z.string() }),
    );
    if (row) ctx.report.queued += 1;
  }
}

/**
 * Queues the surplus above HOT_WALLET_CEILING to COLD_WALLET_ADDRESS: the hot wallet's USDC less what payouts and
 * movements already signed will take, above the ceiling. One open movement to cold at a time (a unique index).
 */
async function planToCold(ctx: Context) {
  const { treasury } = ctx.chain;
  if (!treasury.coldWallet || treasury.hotWalletCeilingCents === null) return;
  const open = await queryRows(
    ctx.db,
    sql`select id from treasury_movements where chain_id = ${ctx.chain.chainId} and kind = 'to_cold'
          and status in ('queued', 'signed', 'sent') limit 1`,
    z.object({ id: z.string() }),
  );
  if (open.length > 0) return;
  const balance = await usdcOf(ctx, ctx.hot);
  const promised = await ctx.db.transaction((tx) => unminedOutflowUnits(tx));
  const ceiling = BigInt(treasury.hotWalletCeilingCents) * 10_000n;
  const surplus = balance - promised - ceiling;
  // Whole cents only: the dust stays, so the cold wallet's figure is one finance can book.
  const units = surplus - (surplus % 10_000n);
  if (units <= 0n) return;
  const [row] = await queryRows(
    ctx.db,
    sql`insert into treasury_movements (chain_id, kind, from_address, to_address, units)
        values (${ctx.chain.chainId}, 'to_cold', ${ctx.hot.toLowerCase()}, ${treasury.coldWallet.toLowerCase()}, ${units.toString()})
        on conflict do nothing returning id`,
    z.object({ id: z.string() }),
  );
  if (row) {
    ctx.report.queued += 1;
    ctx.options.log?.info(
      { units: units.toString(), cold: treasury.coldWallet },
      "hot wallet above its ceiling",
    );
  }
}

/** The transaction a movement signs: the factory's sweep(salt), or a token transfer out of the hot wallet. */
function callOf(ctx: Context, row: MovementRow): { to: Address; data: Hex; gas: bigint } {
  if (row.kind === "sweep") {
    return {
      to: ctx.chain.treasury.depositFactory!,
      data: encodeFunctionData({
        abi: depositForwarderFactoryAbi,
        functionName: "sweep",
        args: [row.salt as Hex],
      }),
      gas: SWEEP_GAS,
    };
  }
  return {
    to: ctx.chain.usdcContract,
    data: encodeFunctionData({
      abi: pillarUsdAbi,
      functionName: "transfer",
      args: [getAddress(row.toAddress), BigInt(row.units)],
    }),
    gas: TRANSFER_GAS,
  };
}

async function wait(ctx: Context, tx: Tx, row: MovementRow, reason: "gas_price" | "usdc" | "gas") {
  if (row.waitingReason !== reason) {
    ctx.options.log?.warn({ movement: row.id, kind: row.kind, reason }, "treasury movement waits");
    await tx
      .update(treasuryMovements)
      .set({ waitingReason: reason, updatedAt: new Date() })
      .where(eq(treasuryMovements.id, row.id));
  }
  ctx.report.waiting = reason;
}

/**
 * Claims one queued movement (FOR UPDATE SKIP LOCKED) and signs it: the nonce is taken under the hot wallet's
 * nonce row lock, the same row the payout worker locks, so a movement and a payout never share a nonce; the
 * signed bytes and hash are stored in the claiming transaction. Nothing is broadcast here.
 */
async function signOne(ctx: Context, skip: string[]): Promise<"signed" | "none" | "skipped"> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(treasuryMovements)
      .where(
        and(
          eq(treasuryMovements.chainId, ctx.chain.chainId),
          eq(treasuryMovements.status, "queued"),
          skip.length > 0 ? notInArray(treasuryMovements.id, skip) : undefined,
        ),
      )
      .orderBy(asc(treasuryMovements.createdAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return "none";
    skip.push(row.id);
    const fees = await ctx.client.estimateFeesPerGas();
    const call = callOf(ctx, row);
    if (row.kind === "sweep" && fees.maxFeePerGas > BigInt(ctx.chain.treasury.sweepMaxFeeWei)) {
      await wait(ctx, tx, row, "gas_price");
      return "skipped";
    }
    const [usdc, gasBalance] = await Promise.all([
      usdcOf(ctx, ctx.hot),
      ctx.client.getBalance({ address: ctx.hot }),
    ]);
    if (row.kind !== "sweep" && usdc < BigInt(row.units) + (await unminedOutflowUnits(tx))) {
      await wait(ctx, tx, row, "usdc");
      return "skipped";
    }
    if (gasBalance < call.gas * fees.maxFeePerGas) {
      await wait(ctx, tx, row, "gas");
      return "skipped";
    }

    await ctx.options.at?.("before_sign", row.id);
    const hot = ctx.hot.toLowerCase();
    await tx
      .insert(hotWalletNonces)
      .values({ chainId: ctx.chain.chainId, address: hot, nextNonce: 0 })
      .onConflictDoNothing();
    const [counter] = await tx
      .select()
      .from(hotWalletNonces)
      .where(and(eq(hotWalletNonces.chainId, ctx.chain.chainId), eq(hotWalletNonces.address, hot)))
      .for("update");
    const mined = await ctx.client.getTransactionCount({ address: ctx.hot, blockTag: "latest" });
    const nonce = Math.max(counter!.nextNonce, mined);
    const raw = await ctx.chain.signer.signTransaction({
      type: "eip1559",
      chainId: ctx.chain.chainId,
      nonce,
      ...call,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      value: 0n,
    });
    await tx.insert(treasuryMovementAttempts).values({
      movementId: row.id,
      nonce,
      txHash: keccak256(raw),
      rawTx: raw,
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    });
    await tx
      .update(hotWalletNonces)
      .set({ nextNonce: nonce + 1, updatedAt: new Date() })
      .where(and(eq(hotWalletNonces.chainId, ctx.chain.chainId), eq(hotWalletNonces.address, hot)));
    await tx
      .update(treasuryMovements)
      .set({
        status: "signed",
        nonce,
        signerAddress: hot,
        waitingReason: null,
        signedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(treasuryMovements.id, row.id));
    ctx.report.signed += 1;
    return "signed";
  });
}

async function attemptsOf(tx: Tx, movementId: string) {
  return tx
    .select()
    .from(treasuryMovementAttempts)
    .where(eq(treasuryMovementAttempts.movementId, movementId))
    .orderBy(asc(treasuryMovementAttempts.createdAt), asc(treasuryMovementAttempts.id));
}

/** A replacement at the movement's nonce with fees 25% above its last attempt, stored before it is sent. */
async function signAgain(ctx: Context, tx: Tx, row: MovementRow): Promise<AttemptRow> {
  const attempts = await attemptsOf(tx, row.id);
  const last = attempts[attempts.length - 1]!;
  const fees = await ctx.client.estimateFeesPerGas();
  const bump = (old: string, current: bigint) => {
    const raised = (BigInt(old) * (100n + FEE_BUMP_PERCENT)) / 100n + 1n;
    return raised > current ? raised : current;
  };
  const maxPriorityFeePerGas = bump(last.maxPriorityFeePerGas, fees.maxPriorityFeePerGas);
  let maxFeePerGas = bump(last.maxFeePerGas, fees.maxFeePerGas);
  if (maxFeePerGas < maxPriorityFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
  const raw = await ctx.chain.signer.signTransaction({
    type: "eip1559",
    chainId: ctx.chain.chainId,
    nonce: row.nonce!,
    ...callOf(ctx, row),
    maxFeePerGas,
    maxPriorityFeePerGas,
    value: 0n,
  });
  const [stored] = await tx
    .insert(treasuryMovementAttempts)
    .values({
      movementId: row.id,
      nonce: row.nonce!,
      txHash: keccak256(raw),
      rawTx: raw,
      maxFeePerGas: maxFeePerGas.toString(),
      maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
    })
    .returning();
  return stored!;
}

async function broadcast(ctx: Context, attempt: AttemptRow): Promise<boolean> {
  try {
    await ctx.client.sendRawTransaction({ serializedTransaction: attempt.rawTx as Hex });
    return true;
  } catch (err) {
    if (isAlreadyThere(err)) return true;
    ctx.options.log?.warn({ err, txHash: attempt.txHash }, "treasury broadcast refused; retried next pass");
    return false;
  }
}

async function markBroadcast(tx: Tx, movementId: string, attempt: AttemptRow) {
  const at = new Date();
  await tx
    .update(treasuryMovementAttempts)
    .set({ firstBroadcastAt: sql`coalesce(${treasuryMovementAttempts.firstBroadcastAt}, ${at})` })
    .where(eq(treasuryMovementAttempts.id, attempt.id));
  await tx
    .update(treasuryMovements)
    .set({ status: "sent", lastBroadcastAt: at, updatedAt: at })
    .where(and(eq(treasuryMovements.id, movementId), inArray(treasuryMovements.status, ["signed", "sent"])));
}

/** Broadcasts one signed movement's stored bytes; marked sent in the transaction that claimed it. */
async function broadcastOne(ctx: Context, skip: string[]): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(treasuryMovements)
      .where(
        and(
          eq(treasuryMovements.chainId, ctx.chain.chainId),
          eq(treasuryMovements.status, "signed"),
          skip.length > 0 ? notInArray(treasuryMovements.id, skip) : undefined,
        ),
      )
      .orderBy(asc(treasuryMovements.nonce))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return false;
    skip.push(row.id);
    const attempts = await attemptsOf(tx, row.id);
    const latest = attempts[attempts.length - 1]!;
    if (!(await broadcast(ctx, latest))) return true;
    await ctx.options.at?.("after_broadcast", row.id);
    await markBroadcast(tx, row.id, latest);
    ctx.report.broadcast += 1;
    return true;
  });
}

/** The units the mined transaction moved from the movement's source to its destination (its Transfer logs). */
function movedUnits(
  row: MovementRow,
  contract: Address,
  logs: readonly { address: string; data: Hex; topics: readonly Hex[] }[],
) {
  let units = 0n;
  for (const log of logs) {
    if (log.address.toLowerCase() !== contract.toLowerCase()) continue;
    try {
      const { args } = decodeEventLog({ abi: [TRANSFER], data: log.data, topics: log.topics as never });
      if (args.from.toLowerCase() === row.fromAddress && args.to.toLowerCase() === row.toAddress)
        units += args.value;
    } catch {
      // Not a Transfer.
    }
  }
  return units;
}

/**
 * Follows one sent movement: whichever attempt is mined counts. CHAIN_CONFIRMATIONS deep → completed (with the
 * units its Transfer log moved) or failed (reverted), in one transaction; a return also marks its deposit
 * returned. Mined and gone again (a reorg) → back to waiting, the same bytes again. Not mined in time → the same
 * bytes (PAYOUT_REBROADCAST_AFTER), then a replacement at the same nonce (PAYOUT_REPLACE_AFTER).
 */
async function followOne(ctx: Context, skip: string[]): Promise<boolean> {
  let send: AttemptRow | null = null;
  let movementId = "";
  const found = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(treasuryMovements)
      .where(
        and(
          eq(treasuryMovements.chainId, ctx.chain.chainId),
          eq(treasuryMovements.status, "sent"),
          skip.length > 0 ? notInArray(treasuryMovements.id, skip) : undefined,
        ),
      )
      .orderBy(asc(treasuryMovements.nonce))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return false;
    skip.push(row.id);
    movementId = row.id;
    const attempts = await attemptsOf(tx, row.id);
    const head = Number(await ctx.client.getBlockNumber());
    let mined: { attempt: AttemptRow; receipt: NonNullable<Awaited<ReturnType<typeof receiptOf>>> } | null =
      null;
    for (const attempt of attempts) {
      const receipt = await receiptOf(ctx.client, attempt.txHash as Hex);
      if (receipt) mined = { attempt, receipt };
    }
    const last = attempts[attempts.length - 1]!;
    if (!mined) {
      if (row.minedHash) {
        await tx
          .update(treasuryMovements)
          .set({
            minedHash: null,
            minedBlock: null,
            minedBlockHash: null,
            confirmations: 0,
            updatedAt: new Date(),
          })
          .where(eq(treasuryMovements.id, row.id));
        ctx.report.reorged += 1;
        ctx.options.log?.warn({ movement: row.id, txHash: row.minedHash }, "treasury movement reorged out");
        send = last;
        return true;
      }
      const t = now(ctx);
      if (t - last.createdAt.getTime() >= ctx.chain.payoutReplaceAfterMs) {
        send = await signAgain(ctx, tx, row);
        ctx.report.replaced += 1;
      } else if (t - (row.lastBroadcastAt?.getTime() ?? 0) >= ctx.chain.payoutRebroadcastAfterMs) {
        send = last;
        ctx.report.rebroadcast += 1;
      }
      return true;
    }
    const { attempt, receipt } = mined;
    const blockHash = receipt.blockHash.toLowerCase();
    const depth = Math.min(ctx.chain.confirmations, Math.max(0, head - Number(receipt.blockNumber) + 1));
    if (row.minedHash !== attempt.txHash || row.minedBlockHash !== blockHash || row.confirmations !== depth) {
      await tx
        .update(treasuryMovements)
        .set({
          minedHash: attempt.txHash,
          minedBlock: Number(receipt.blockNumber),
          minedBlockHash: blockHash,
          confirmations: depth,
          updatedAt: new Date(),
        })
        .where(eq(treasuryMovements.id, row.id));
    }
    if (depth < ctx.chain.confirmations) return true;

    await ctx.options.at?.("after_mined", row.id);
    if (receipt.status === "success") {
      const units = movedUnits(row, ctx.chain.usdcContract, receipt.logs as never);
      await tx
        .update(treasuryMovements)
        .set({
          status: "completed",
          minedUnits: units.toString(),
          settledAt: new Date(),
          updatedAt: new Date(),
        })
        .where(eq(treasuryMovements.id, row.id));
      if (row.kind === "return" && row.depositId) {
        await tx.update(chainDeposits).set({ returnedBy: row.id }).where(eq(chainDeposits.id, row.depositId));
      }
      ctx.report.completed += 1;
    } else {
      await tx
        .update(treasuryMovements)
        .set({
          status: "failed",
          failureReason: "The transaction was mined and reverted",
          settledAt: new Date(),
          updatedAt: new Date(),
        })
        .where(eq(treasuryMovements.id, row.id));
      ctx.report.failed += 1;
      ctx.options.log?.error({ movement: row.id, txHash: attempt.txHash }, "treasury movement reverted");
    }
    return true;
  });
  const pending = send as AttemptRow | null;
  if (pending && (await broadcast(ctx, pending))) {
    await ctx.db.transaction((tx) => markBroadcast(tx, movementId, pending));
  }
  return found;
}

const emptyReport = (): TreasuryPassReport => ({
  queued: 0,
  signed: 0,
  broadcast: 0,
  rebroadcast: 0,
  replaced: 0,
  reorged: 0,
  completed: 0,
  failed: 0,
  waiting: null,
});

/**
 * One pass of the treasury worker: queue what the sweep policy and the ceiling ask for, sign what is queued,
 * broadcast what is signed, follow what is sent. Every row is claimed with FOR UPDATE SKIP LOCKED and every step
 * works from the stored state, so a process killed anywhere leaves work the next pass finishes.
 */
export async function runTreasuryPass(
  db: Db,
  chain: ChainConfig,
  options: TreasuryPassOptions = {},
): Promise<TreasuryPassReport> {
  const ctx: Context = {
    db,
    chain,
    client: options.client ?? chainClient(chain),
    options,
    hot: chain.signer.address,
    report: emptyReport(),
  };
  const fees = await ctx.client.estimateFeesPerGas();
  await planSweeps(ctx, fees.maxFeePerGas);
  await planToCold(ctx);
  const signed: string[] = [];
  for (let i = 0; i < BATCH; i += 1) {
    const outcome = await signOne(ctx, signed);
    if (outcome === "none") break;
    if (outcome === "signed") await ctx.options.at?.("after_sign", signed[signed.length - 1]!);
  }
  const broadcasted: string[] = [];
  for (let i = 0; i < BATCH && (await broadcastOne(ctx, broadcasted)); i += 1);
  const followed: string[] = [];
  for (let i = 0; i < BATCH && (await followOne(ctx, followed)); i += 1);
  return ctx.report;
}

/** The worker as a loop of the jobs room (server/jobs/loops.ts): a pass every `intervalMs` after the last. */
export function treasuryWorkerLoop(
  db: Db,
  chain: ChainConfig,
  log: FastifyBaseLogger,
  intervalMs = 5_000,
): LoopSpec {
  const client = chainClient(chain);
  const child = log.child({ component: "treasury" });
  return {
    name: "treasury-worker",
    everyMs: intervalMs,
    async pass() {
      const report = await runTreasuryPass(db, chain, { client, log: child });
      const { waiting, ...counts } = report;
      const done = Object.values(counts).reduce((sum, n) => sum + n, 0);
      if (done > 0) child.info({ treasury: report }, "treasury pass");
      return done;
    },
  };
}
