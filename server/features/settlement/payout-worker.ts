import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  zeroAddress,
} from "viem";
import { z } from "zod";
import { PAYOUT_MESSAGES } from "@/contract/settlement";
import { hasNoChecksum } from "@/contract/transfers";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import {
  depositAddresses,
  hotWalletNonces,
  payoutAttempts,
  payouts,
  transferRequests,
} from "@/server/db/schema";
import { findSanctionsHits, hasComplianceHold, recordHits } from "@/server/features/compliance/screen";
import { chainClient, chainName, receiptOf } from "@/server/features/settlement/chain-config";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import {
  type Fees,
  gwei,
  isFeeTooLow,
  marketMovedPast,
  type Priced,
  priceTransaction,
  readMarket,
  SPEED_UP_BUMP_PERCENT,
} from "@/server/features/settlement/fee-policy";
import { unminedOutflowUnits } from "@/server/features/settlement/hot-wallet-outflows";
import { observeHotWallet } from "@/server/features/settlement/hot-wallet-status";
import { moveTransferStatus } from "@/server/features/transfers/update-transfer-status";
import type { LoopSpec } from "@/server/jobs/loop";
import type { ChainConfig } from "@/server/lib/chain-config";
import { AppError } from "@/server/lib/errors";
import { wakeMailWorker } from "@/server/lib/mail/outbox";

/**
 * Gas for one token transfer, fixed rather than estimated: an ERC-20 transfer costs 35–60k, and a transfer the
 * token will refuse (paused, blacklisted) must still be mined and seen to revert, not fail estimation forever.
 */
export const PAYOUT_GAS = 100_000n;
const CANCEL_GAS = 21_000n;
const BATCH = 20;

/** Where a worker may be stopped in the tests that SIGKILL it (tests/chain/payouts.chain.test.ts). */
export type PayoutStep = "before_sign" | "after_sign" | "after_broadcast" | "after_mined";

export interface PayoutPassOptions {
  client?: PublicClient;
  log?: FastifyBaseLogger;
  /** Sanctions name threshold (SANCTIONS_NAME_THRESHOLD) for the screening right before signing. */
  sanctionsThreshold: number;
  /** Called at each step, for the kill tests; production passes none. */
  at?: (step: PayoutStep, payoutId: string) => Promise<void> | void;
  now?: () => number;
}

export interface PayoutPassReport {
  autoApproved: number;
  signed: number;
  broadcast: number;
  rebroadcast: number;
  replaced: number;
  reorged: number;
  completed: number;
  failed: number;
  held: number;
  /** Node refused the bytes for their fee (a base-fee spike): re-signed at the same nonce at today's fee. */
  resigned: number;
  /** Not signed, re-signed or replaced because the market asks more than CHAIN_MAX_FEE_GWEI. */
  paused: number;
  /** A payout's nonce was mined by a transaction Pillar did not sign: it waits for staff. */
  usedOutside: number;
  /** The hot wallet is short: "usdc" or "gas" (payouts wait, never fail). */
  waiting: "usdc" | "gas" | null;
}

type PayoutRow = typeof payouts.$inferSelect;
type AttemptRow = typeof payoutAttempts.$inferSelect;

interface Context {
  db: Db;
  chain: ChainConfig;
  client: PublicClient;
  options: PayoutPassOptions;
  report: PayoutPassReport;
  hot: Address;
  /** CHAIN_MAX_FEE_GWEI in wei, or null. */
  ceiling: bigint | null;
  /** The chain's mined nonce count, read once a pass when a sent payout is followed. */
  latestNonce?: number;
}

const ceilingOf = (chain: ChainConfig) => (chain.maxFeePerGasWei ? BigInt(chain.maxFeePerGasWei) : null);

/**
 * Marks a payout paused by the fee ceiling (or clears that), with an error log the first time: staff see it in
 * the Settlement tab and /metrics `payouts_paused{reason="fee_ceiling"}`; it resumes when the market falls.
 */
async function markFeeCeiling(ctx: Context, tx: Tx, payout: PayoutRow, priced: Priced) {
  if ("paused" in priced) {
    if (payout.waitingReason !== "fee_ceiling") {
      ctx.options.log?.error(
        {
          payout: payout.id,
          asked: priced.paused.askedWei.toString(),
          ceiling: priced.paused.ceilingWei.toString(),
        },
        `payout paused: the chain asks ${gwei(priced.paused.askedWei)} per gas, above CHAIN_MAX_FEE_GWEI (${gwei(priced.paused.ceilingWei)}); it resumes when the fee falls`,
      );
      await tx
        .update(payouts)
        .set({ waitingReason: "fee_ceiling", updatedAt: new Date() })
        .where(eq(payouts.id, payout.id));
    }
    ctx.report.paused += 1;
    return true;
  }
  if (payout.waitingReason === "fee_ceiling") {
    await tx
      .update(payouts)
      .set({ waitingReason: null, updatedAt: new Date() })
      .where(eq(payouts.id, payout.id));
  }
  return false;
}

const isAlreadyThere = (err: unknown) =>
  /already known|nonce too low|known transaction|already imported|transaction already exists/i.test(
    String((err as Error)?.message ?? err),
  );

/**
 * The destination checks, before signing and again before broadcasting: an EVM address, its EIP-55 checksum
 * (an all-lowercase address the customer confirmed on the review step was stored in its EIP-55 form, decision
 * 044, so one without capitals here was never confirmed: refused), not the zero address, not the token, not one
 * of Pillar's own, not blacklisted by the issuer.
 * Answers the plain words the customer reads, or the checksummed address.
 */
async function checkDestination(
  ctx: Context,
  tx: Tx,
  toAddress: string,
): Promise<{ to: Address } | { why: string }> {
  const name = chainName(ctx.chain.chainId);
  if (!/^0x[0-9a-fA-F]{40}$/.test(toAddress)) return { why: PAYOUT_MESSAGES.notOnChain(name) };
  // Its EIP-55 form, or refused: small letters only were never confirmed; any other case is a typing mistake.
  // (Capitals only can be right: some addresses' checksums capitalise every letter.)
  const to = getAddress(toAddress.toLowerCase());
  if (to !== toAddress) {
    return { why: hasNoChecksum(toAddress) ? PAYOUT_MESSAGES.noChecksum : PAYOUT_MESSAGES.badChecksum };
  }
  if (to === zeroAddress) return { why: PAYOUT_MESSAGES.zeroAddress };
  if (to === ctx.chain.usdcContract) return { why: PAYOUT_MESSAGES.tokenContract };
  if (to === ctx.hot) return { why: PAYOUT_MESSAGES.ownAddress };
  const [own] = await tx
    .select({ index: depositAddresses.derivationIndex })
    .from(depositAddresses)
    .where(eq(depositAddresses.address, to.toLowerCase()));
  if (own) return { why: PAYOUT_MESSAGES.ownAddress };
  const blacklisted = await ctx.client.readContract({
    address: ctx.chain.usdcContract,
    abi: pillarUsdAbi,
    functionName: "isBlacklisted",
    args: [to],
  });
  if (blacklisted) return { why: PAYOUT_MESSAGES.blacklisted };
  return { to };
}

/** Fails the transfer (hold released, customer told why) and the payout, in the caller's transaction. */
async function failPayout(ctx: Context, tx: Tx, payout: PayoutRow, why: string) {
  const [request] = await tx
    .select({ id: transferRequests.id, userId: transferRequests.userId })
    .from(transferRequests)
    .where(eq(transferRequests.id, payout.transferRequestId));
  await moveTransferStatus(
    tx,
    null,
    request!,
    { status: "failed" },
    { payoutSettles: { why }, auditAction: "payout.failed" },
  );
  await tx
    .update(payouts)
    .set({ status: "failed", failureReason: why, settledAt: new Date(), updatedAt: new Date() })
    .where(eq(payouts.id, payout.id));
  ctx.report.failed += 1;
  ctx.options.log?.warn({ payout: payout.id, why }, "payout failed");
}

/** Staff-free approval of pending transfers at or below PAYOUT_AUTO_LIMIT that nothing holds. */
async function autoApprove(ctx: Context) {
  const limit = ctx.chain.payoutAutoLimitCents;
  if (limit <= 0) return;
  const candidates = await queryRows(
    ctx.db,
    sql`select r.id, r.user_id from transfer_requests r
        where r.status = 'pending' and r.amount <= ${limit} and r.flagged_at is null and r.user_id is not null
          and not exists (select 1 from payouts p where p.transfer_request_id = r.id)
        order by r.created_at limit ${BATCH}`,
    z.object({ id: z.string(), user_id: z.string().nullable() }),
  );
  for (const c of candidates) {
    try {
      await ctx.db.transaction((tx) =>
        moveTransferStatus(
          tx,
          null,
          { id: c.id, userId: c.user_id },
          { status: "approved" },
          { chain: { chainId: ctx.chain.chainId }, refuseHeld: true, auditAction: "payout.auto_approve" },
        ),
      );
      ctx.report.autoApproved += 1;
    } catch (err) {
      // Held (flagged, frozen, a compliance case), already moved, or queued by another instance: staff decide.
      if (!(err instanceof AppError)) throw err;
    }
  }
}

/**
 * Claims one queued payout (or a held one whose customer's case is decided) with FOR UPDATE SKIP LOCKED,
 * checks and screens it, and signs it: the signed transaction and its hash are stored, with the nonce taken
 * under the nonce row's lock, in the transaction that claimed it. Nothing is broadcast here.
 */
async function signOne(ctx: Context, skip: string[]): Promise<"signed" | "none" | "skipped"> {
  return ctx.db.transaction(async (tx) => {
    const [payout] = await queryRows(
      tx,
      sql`select p.id from payouts p join transfer_requests r on r.id = p.transfer_request_id
          where p.chain_id = ${ctx.chain.chainId}
            and (p.status = 'queued' or (p.status = 'held' and not compliance_hold(r.user_id)))
            and ${notIn(sql`p.id`, skip) ?? sql`true`}
            -- Staff propose it was paid outside Pillar: not signed while a second member decides (decision 040).
            and not exists (select 1 from approvals a where a.kind = 'payout_settled_outside'
                              and a.status = 'pending' and a.target_key = p.id::text)
          order by p.created_at
          limit 1
          for update of p skip locked`,
      z.object({ id: z.string() }),
    );
    if (!payout) return "none";
    skip.push(payout.id);
    const [row] = await tx.select().from(payouts).where(eq(payouts.id, payout.id));
    const [request] = await tx
      .select()
      .from(transferRequests)
      .where(eq(transferRequests.id, row!.transferRequestId));

    // Screened right before signing, and first: the list may have changed since the transfer was made or
    // approved, and a listed address is held under review, never failed back to the customer with a reason.
    const hits = await findSanctionsHits(
      tx,
      { names: [{ value: request!.recipientName, type: null }], addresses: [row!.toAddress] },
      ctx.options.sanctionsThreshold,
    );
    if (hits.length > 0 && request!.userId) {
      await recordHits(tx, {
        userId: request!.userId,
        point: "payout_signing",
        hits,
        transferId: request!.id,
      });
    }
    if (await hasComplianceHold(tx, request!.userId)) {
      if (row!.status !== "held") {
        await tx
          .update(payouts)
          .set({ status: "held", updatedAt: new Date() })
          .where(eq(payouts.id, row!.id));
        ctx.report.held += 1;
      }
      return "skipped";
    }

    const checked = await checkDestination(ctx, tx, row!.toAddress);
    if ("why" in checked) {
      await failPayout(ctx, tx, row!, checked.why);
      return "skipped";
    }
    // The market's fee, or none above the ceiling: the payout stays queued until the fee falls.
    const priced = priceTransaction(await readMarket(ctx.client), ctx.ceiling);
    if ("paused" in priced) {
      await markFeeCeiling(ctx, tx, row!, priced);
      return "skipped";
    }
    const { fees } = priced;
    // The hot wallet must hold this payout besides every one already signed and not yet mined, and the gas.
    const units = BigInt(row!.units);
    const [usdc, gasBalance] = await Promise.all([
      ctx.client.readContract({
        address: ctx.chain.usdcContract,
        abi: pillarUsdAbi,
        functionName: "balanceOf",
        args: [ctx.hot],
      }),
      ctx.client.getBalance({ address: ctx.hot }),
    ]);
    const short =
      usdc < units + (await unminedOutflowUnits(tx))
        ? "usdc"
        : gasBalance < PAYOUT_GAS * fees.maxFeePerGas
          ? "gas"
          : null;
    if (short) {
      if (row!.waitingReason !== short) {
        ctx.options.log?.error(
          { payout: row!.id, hotWallet: ctx.hot, short },
          `hot wallet short of ${short === "usdc" ? "USDC" : "gas"}: payouts wait until it is funded`,
        );
      }
      await tx
        .update(payouts)
        .set({ status: "queued", waitingReason: short, updatedAt: new Date() })
        .where(eq(payouts.id, row!.id));
      ctx.report.waiting = short;
      return "skipped";
    }

    await ctx.options.at?.("before_sign", row!.id);
    // The nonce: under this row's lock, the larger of what Pillar handed out and what the chain has mined.
    await tx
      .insert(hotWalletNonces)
      .values({ chainId: ctx.chain.chainId, address: ctx.hot.toLowerCase(), nextNonce: 0 })
      .onConflictDoNothing();
    const [counter] = await tx
      .select()
      .from(hotWalletNonces)
      .where(
        and(
          eq(hotWalletNonces.chainId, ctx.chain.chainId),
          eq(hotWalletNonces.address, ctx.hot.toLowerCase()),
        ),
      )
      .for("update");
    const mined = await ctx.client.getTransactionCount({ address: ctx.hot, blockTag: "latest" });
    const nonce = Math.max(counter!.nextNonce, mined);
    const raw = await ctx.chain.signer.signTransaction({
      type: "eip1559",
      chainId: ctx.chain.chainId,
      nonce,
      to: ctx.chain.usdcContract,
      data: encodeFunctionData({ abi: pillarUsdAbi, functionName: "transfer", args: [checked.to, units] }),
      gas: PAYOUT_GAS,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      value: 0n,
    });
    await tx.insert(payoutAttempts).values({
      payoutId: row!.id,
      kind: "transfer",
      nonce,
      txHash: keccak256(raw),
      rawTx: raw,
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    });
    await tx
      .update(hotWalletNonces)
      .set({ nextNonce: nonce + 1, updatedAt: new Date() })
      .where(
        and(
          eq(hotWalletNonces.chainId, ctx.chain.chainId),
          eq(hotWalletNonces.address, ctx.hot.toLowerCase()),
        ),
      );
    await tx
      .update(payouts)
      .set({
        status: "signed",
        nonce,
        fromAddress: ctx.hot.toLowerCase(),
        waitingReason: null,
        signedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(payouts.id, row!.id));
    ctx.report.signed += 1;
    return "signed";
  });
}

/** `and id not in (…)`: rows this pass already handled. */
const notIn = (column: SQL | typeof payouts.id, ids: string[]) =>
  ids.length > 0
    ? sql`${column} not in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : undefined;

const latestAttempt = (attempts: AttemptRow[]) => attempts[attempts.length - 1]!;

async function attemptsOf(tx: Tx, payoutId: string) {
  return tx
    .select()
    .from(payoutAttempts)
    .where(eq(payoutAttempts.payoutId, payoutId))
    .orderBy(asc(payoutAttempts.createdAt), asc(payoutAttempts.id));
}

/**
 * Signs, at the payout's nonce and a higher fee than its last attempt, either the same transfer (a
 * replacement) or a 0-value transaction to the hot wallet itself (a cancel), and stores it. Whichever of the
 * payout's attempts is mined counts.
 */
async function signAgain(
  ctx: Context,
  tx: Tx,
  payout: PayoutRow,
  kind: AttemptRow["kind"],
  { maxFeePerGas, maxPriorityFeePerGas }: Fees,
) {
  const transfer = kind === "transfer";
  const raw = await ctx.chain.signer.signTransaction({
    type: "eip1559",
    chainId: ctx.chain.chainId,
    nonce: payout.nonce!,
    to: transfer ? ctx.chain.usdcContract : ctx.hot,
    data: transfer
      ? encodeFunctionData({
          abi: pillarUsdAbi,
          functionName: "transfer",
          args: [getAddress(payout.toAddress), BigInt(payout.units)],
        })
      : undefined,
    gas: transfer ? PAYOUT_GAS : CANCEL_GAS,
    maxFeePerGas,
    maxPriorityFeePerGas,
    value: 0n,
  });
  const [stored] = await tx
    .insert(payoutAttempts)
    .values({
      payoutId: payout.id,
      kind,
      nonce: payout.nonce!,
      txHash: keccak256(raw),
      rawTx: raw,
      maxFeePerGas: maxFeePerGas.toString(),
      maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
    })
    .returning();
  return stored!;
}

/** The fees an attempt was signed with. */
const feesOf = (attempt: AttemptRow): Fees => ({
  maxFeePerGas: BigInt(attempt.maxFeePerGas),
  maxPriorityFeePerGas: BigInt(attempt.maxPriorityFeePerGas),
});

/**
 * Sends stored bytes: "sent" when the node took them or already has (or mined) them, "fee_too_low" when it
 * refused them for their fee (a base-fee spike since signing), "refused" otherwise (retried next pass).
 */
async function broadcast(ctx: Context, attempt: AttemptRow): Promise<"sent" | "fee_too_low" | "refused"> {
  try {
    await ctx.client.sendRawTransaction({ serializedTransaction: attempt.rawTx as Hex });
    return "sent";
  } catch (err) {
    if (isAlreadyThere(err)) return "sent";
    if (isFeeTooLow(err)) {
      ctx.options.log?.warn(
        { txHash: attempt.txHash },
        "payout refused for its fee; re-signed at today's fee",
      );
      return "fee_too_low";
    }
    ctx.options.log?.warn({ err, txHash: attempt.txHash }, "payout broadcast refused; retried next pass");
    return "refused";
  }
}

async function markBroadcast(tx: Tx, payoutId: string, attempt: AttemptRow) {
  const now = new Date();
  await tx
    .update(payoutAttempts)
    .set({ firstBroadcastAt: sql`coalesce(${payoutAttempts.firstBroadcastAt}, ${now})` })
    .where(eq(payoutAttempts.id, attempt.id));
  // Only a payout still on its way: one settled (outside Pillar, say) between the send and this never moves back.
  await tx
    .update(payouts)
    .set({
      status: "sent",
      lastBroadcastAt: now,
      updatedAt: now,
      waitingReason: sql`nullif(${payouts.waitingReason}, 'fee_ceiling')`,
    })
    .where(and(eq(payouts.id, payoutId), inArray(payouts.status, ["signed", "sent"])));
}

/**
 * Broadcasts one signed payout after checking its destination again. A check that now fails does not drop the
 * payout (its bytes may have left before a crash): a cancel at its nonce is signed, stored and sent instead.
 */
async function broadcastOne(ctx: Context, skip: string[]): Promise<boolean> {
  // A cancel, or a re-signing after the node refused the bytes' fee: stored in the claim, sent after it commits.
  let cancel: { payoutId: string; attempt: AttemptRow } | null = null;
  const found = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(payouts)
      .where(
        and(eq(payouts.chainId, ctx.chain.chainId), eq(payouts.status, "signed"), notIn(payouts.id, skip)),
      )
      .orderBy(asc(payouts.nonce))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return false;
    skip.push(row.id);
    const latest = latestAttempt(await attemptsOf(tx, row.id));
    if (row.voidReason && latest.kind === "cancel") {
      cancel = { payoutId: row.id, attempt: latest };
      return true;
    }
    const checked = await checkDestination(ctx, tx, row.toAddress);
    if ("why" in checked) {
      // Stopping money to an address the issuer blocked is worth any fee: a cancel ignores the ceiling.
      const market = await readMarket(ctx.client);
      const priced = priceTransaction(market, null, feesOf(latest), SPEED_UP_BUMP_PERCENT);
      const attempt = await signAgain(ctx, tx, row, "cancel", (priced as { fees: Fees }).fees);
      await tx
        .update(payouts)
        .set({ voidReason: checked.why, updatedAt: new Date() })
        .where(eq(payouts.id, row.id));
      cancel = { payoutId: row.id, attempt };
      return true;
    }
    const attempt = latest;
    const sent = await broadcast(ctx, attempt);
    if (sent === "fee_too_low") {
      // The base fee rose past the signed fee before the bytes left: the same nonce at today's fee, stored
      // before it is sent, so the payouts signed after it are not left waiting behind a nonce nobody sends.
      const priced = priceTransaction(await readMarket(ctx.client), ctx.ceiling, feesOf(attempt));
      if (await markFeeCeiling(ctx, tx, row, priced)) return true;
      const again = await signAgain(ctx, tx, row, "transfer", (priced as { fees: Fees }).fees);
      ctx.report.resigned += 1;
      cancel = { payoutId: row.id, attempt: again };
      return true;
    }
    if (sent === "refused") return true;
    await ctx.options.at?.("after_broadcast", row.id);
    await markBroadcast(tx, row.id, attempt);
    ctx.report.broadcast += 1;
    return true;
  });
  const pending = cancel as { payoutId: string; attempt: AttemptRow } | null;
  if (pending && (await broadcast(ctx, pending.attempt)) === "sent") {
    await ctx.db.transaction((tx) => markBroadcast(tx, pending.payoutId, pending.attempt));
  }
  return found;
}

/** Why the token refused a mined transfer, in words for the customer. */
async function revertReason(ctx: Context, payout: PayoutRow): Promise<string> {
  const read = async (functionName: "paused" | "isBlacklisted", args?: readonly [Address]) =>
    ctx.client
      .readContract({ address: ctx.chain.usdcContract, abi: pillarUsdAbi, functionName, args } as never)
      .then((v) => v === true)
      .catch(() => false);
  if (await read("paused")) return PAYOUT_MESSAGES.paused;
  if (await read("isBlacklisted", [getAddress(payout.toAddress)])) return PAYOUT_MESSAGES.blacklisted;
  return PAYOUT_MESSAGES.reverted;
}

/**
 * Follows one sent payout: whichever of its attempts is mined counts. Mined and CHAIN_CONFIRMATIONS deep →
 * the capture (a success) or the failure (a revert, or the cancel) runs once, in the transaction that marks the
 * payout settled. Mined but gone again (a reorg) → back to sent and broadcast again. Not mined after
 * PAYOUT_REBROADCAST_AFTER → the same bytes again; after PAYOUT_REPLACE_AFTER → a replacement, higher fee.
 */
async function followOne(ctx: Context, skip: string[]): Promise<boolean> {
  let send: AttemptRow | null = null;
  let payoutId = "";
  const found = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(payouts)
      .where(and(eq(payouts.chainId, ctx.chain.chainId), eq(payouts.status, "sent"), notIn(payouts.id, skip)))
      .orderBy(asc(payouts.nonce))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return false;
    skip.push(row.id);
    payoutId = row.id;
    const attempts = await attemptsOf(tx, row.id);
    const head = Number(await ctx.client.getBlockNumber());
    let mined: { attempt: AttemptRow; receipt: NonNullable<Awaited<ReturnType<typeof receiptOf>>> } | null =
      null;
    for (const attempt of attempts) {
      const receipt = await receiptOf(ctx.client, attempt.txHash as Hex);
      if (receipt) mined = { attempt, receipt };
    }
    const now = ctx.options.now?.() ?? Date.now();
    if (!mined) {
      const last = latestAttempt(attempts);
      if (row.minedHash) {
        // A reorg took it out before it was deep enough: back to waiting for it, and the same bytes go again.
        await tx
          .update(payouts)
          .set({
            minedHash: null,
            minedBlock: null,
            minedBlockHash: null,
            confirmations: 0,
            updatedAt: new Date(),
          })
          .where(eq(payouts.id, row.id));
        ctx.report.reorged += 1;
        ctx.options.log?.warn({ payout: row.id, txHash: row.minedHash }, "payout reorged out before depth");
        send = last;
        return true;
      }
      // Its nonce mined, and by none of its attempts: a transaction Pillar did not sign used it. Sending again
      // or at another nonce could pay the customer twice (the hot key may have paid them by hand): it waits for
      // staff, who record it as settled outside Pillar or have it paid (decision 058).
      ctx.latestNonce ??= await ctx.client.getTransactionCount({ address: ctx.hot, blockTag: "latest" });
      if (row.nonce! < ctx.latestNonce) {
        if (row.waitingReason !== "nonce_used_outside") {
          ctx.options.log?.error(
            { payout: row.id, nonce: row.nonce, hotWallet: ctx.hot },
            `payout's nonce ${row.nonce} was used by a transaction Pillar did not sign: it waits for staff`,
          );
          await tx
            .update(payouts)
            .set({ waitingReason: "nonce_used_outside", updatedAt: new Date() })
            .where(eq(payouts.id, row.id));
        }
        ctx.report.usedOutside += 1;
        return true;
      }
      if (row.waitingReason === "nonce_used_outside") {
        // A reorg took the other transaction out: Pillar's bytes can be mined again.
        await tx
          .update(payouts)
          .set({ waitingReason: null, updatedAt: new Date() })
          .where(eq(payouts.id, row.id));
      }
      const sinceSigned = now - last.createdAt.getTime();
      const sinceBroadcast = now - (row.lastBroadcastAt?.getTime() ?? 0);
      let replaced = false;
      if (sinceSigned >= ctx.chain.payoutReplaceAfterMs) {
        // A replacement only when the market moved past the signed fee; in a flat market, or behind a nonce
        // that blocks it, a higher fee buys nothing: the same bytes go again (decision 058).
        const market = await readMarket(ctx.client);
        if (marketMovedPast(feesOf(last), market, ctx.ceiling)) {
          const priced = priceTransaction(market, ctx.ceiling, feesOf(last));
          if (!(await markFeeCeiling(ctx, tx, row, priced))) {
            send = await signAgain(
              ctx,
              tx,
              row,
              row.voidReason ? "cancel" : "transfer",
              (priced as { fees: Fees }).fees,
            );
            ctx.report.replaced += 1;
            replaced = true;
          }
        } else {
          await markFeeCeiling(ctx, tx, row, { fees: feesOf(last) });
        }
      }
      if (!replaced && sinceBroadcast >= ctx.chain.payoutRebroadcastAfterMs) {
        send = last;
        ctx.report.rebroadcast += 1;
      }
      return true;
    }
    const { attempt, receipt } = mined;
    const blockHash = receipt.blockHash.toLowerCase();
    // How deep it is, for the customer's history; each change pushes a notice (user-events.sql).
    const depth = Math.min(ctx.chain.confirmations, Math.max(0, head - Number(receipt.blockNumber) + 1));
    if (row.minedHash !== attempt.txHash || row.minedBlockHash !== blockHash || row.confirmations !== depth) {
      await tx
        .update(payouts)
        .set({
          minedHash: attempt.txHash,
          minedBlock: Number(receipt.blockNumber),
          minedBlockHash: blockHash,
          confirmations: depth,
          // Its own attempt is mined after all (a node that lagged when the nonce was read): no longer waiting.
          waitingReason: sql`nullif(${payouts.waitingReason}, 'nonce_used_outside')`,
          updatedAt: new Date(),
        })
        .where(eq(payouts.id, row.id));
    }
    if (depth < ctx.chain.confirmations) return true;

    await ctx.options.at?.("after_mined", row.id);
    if (attempt.kind === "transfer" && receipt.status === "success") {
      const [request] = await tx
        .select({ id: transferRequests.id, userId: transferRequests.userId })
        .from(transferRequests)
        .where(eq(transferRequests.id, row.transferRequestId));
      await moveTransferStatus(
        tx,
        null,
        request!,
        { status: "completed" },
        { payoutSettles: {}, auditAction: "payout.completed" },
      );
      await tx
        .update(payouts)
        .set({ status: "completed", settledAt: new Date(), updatedAt: new Date() })
        .where(eq(payouts.id, row.id));
      ctx.report.completed += 1;
    } else {
      const why =
        attempt.kind === "cancel"
          ? (row.voidReason ?? PAYOUT_MESSAGES.reverted)
          : await revertReason(ctx, row);
      await failPayout(ctx, tx, row, why);
    }
    return true;
  });
  const pending = send as AttemptRow | null;
  if (pending && (await broadcast(ctx, pending)) === "sent") {
    await ctx.db.transaction((tx) => markBroadcast(tx, payoutId, pending));
  }
  return found;
}

/** A pass's counters before it has done anything. */
const emptyReport = (): PayoutPassReport => ({
  autoApproved: 0,
  signed: 0,
  broadcast: 0,
  rebroadcast: 0,
  replaced: 0,
  reorged: 0,
  completed: 0,
  failed: 0,
  held: 0,
  resigned: 0,
  paused: 0,
  usedOutside: 0,
  waiting: null,
});

/**
 * One pass of the payout worker: approve what PAYOUT_AUTO_LIMIT allows, sign what is queued, broadcast what is
 * signed, follow what is sent. Any number of instances may run passes at once: every row is claimed with
 * FOR UPDATE SKIP LOCKED, and every step is idempotent over the stored state, so a process killed anywhere
 * leaves work the next pass finishes, never a second transfer.
 */
export async function runPayoutPass(
  db: Db,
  chain: ChainConfig,
  options: PayoutPassOptions,
): Promise<PayoutPassReport> {
  const ctx: Context = {
    db,
    chain,
    client: options.client ?? chainClient(chain),
    options,
    hot: chain.signer.address,
    report: emptyReport(),
    ceiling: ceilingOf(chain),
  };
  await autoApprove(ctx);
  const tried: string[] = [];
  for (let i = 0; i < BATCH; i += 1) {
    const outcome = await signOne(ctx, tried);
    if (outcome === "none") break;
    if (outcome === "signed") await ctx.options.at?.("after_sign", tried[tried.length - 1]!);
  }
  const broadcasted: string[] = [];
  for (let i = 0; i < BATCH && (await broadcastOne(ctx, broadcasted)); i += 1);
  const followed: string[] = [];
  for (let i = 0; i < BATCH && (await followOne(ctx, followed)); i += 1);
  if (ctx.report.completed + ctx.report.failed > 0) wakeMailWorker();
  // What /metrics and the Settlement tab read; a node that does not answer must not fail the payouts' pass.
  await observeHotWallet(db, chain, ctx.client, options.log).catch((err) =>
    options.log?.warn({ err }, "could not read the hot wallet's balances and nonces"),
  );
  return ctx.report;
}

/**
 * Staff's "speed up" for a stuck payout: the worker's own same-nonce replacement (signAgain, a fee 25% above its
 * last attempt or the market's, stored before it is sent), signed now instead of after PAYOUT_REPLACE_AFTER.
 * Only a payout signed or sent with no mined attempt can be sped up (409 payout_not_stuck otherwise): a signed
 * one may be the one the node refused after a base-fee spike, which every later payout waits behind. Above
 * CHAIN_MAX_FEE_GWEI: 409 fee_ceiling. `audit` runs in the transaction that stores the new attempt.
 */
export async function speedUpPayout(
  db: Db,
  chain: ChainConfig,
  payoutId: string,
  audit: (tx: Tx, payout: PayoutRow, txHash: string) => Promise<void>,
  client: PublicClient = chainClient(chain),
): Promise<{ txHash: string; nonce: number; broadcast: boolean }> {
  const ctx: Context = {
    db,
    chain,
    client,
    options: { sanctionsThreshold: 1 },
    hot: chain.signer.address,
    report: emptyReport(),
    ceiling: ceilingOf(chain),
  };
  const attempt = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(payouts)
      .where(and(eq(payouts.id, payoutId), eq(payouts.chainId, chain.chainId)))
      .for("update");
    if (!row) throw new AppError("NOT_FOUND", "No such payout");
    const notStuck = () =>
      new AppError(
        "payout_not_stuck",
        "Only a payout sent and not yet mined can be sped up; this one is not waiting on the chain",
      );
    if (!["signed", "sent"].includes(row.status) || row.minedHash) throw notStuck();
    const attempts = await attemptsOf(tx, row.id);
    for (const a of attempts) {
      if (await receiptOf(client, a.txHash as Hex)) throw notStuck();
    }
    if (row.waitingReason === "nonce_used_outside") {
      throw new AppError(
        "payout_not_stuck",
        `This payout's nonce (${row.nonce}) was used by a transaction Pillar did not sign: a replacement can never be mined. Record it as settled outside Pillar, or find out what that transaction paid.`,
      );
    }
    const priced = priceTransaction(
      await readMarket(client),
      ctx.ceiling,
      feesOf(latestAttempt(attempts)),
      SPEED_UP_BUMP_PERCENT,
    );
    if ("paused" in priced) {
      throw new AppError(
        "fee_ceiling",
        `Speeding it up would pay ${gwei(priced.paused.askedWei)} per gas, above the ${gwei(priced.paused.ceilingWei)} ceiling (CHAIN_MAX_FEE_GWEI): it goes when the fee falls`,
      );
    }
    const stored = await signAgain(ctx, tx, row, row.voidReason ? "cancel" : "transfer", priced.fees);
    await audit(tx, row, stored.txHash);
    return stored;
  });
  const sent = (await broadcast(ctx, attempt)) === "sent";
  if (sent) await db.transaction((tx) => markBroadcast(tx, payoutId, attempt));
  return { txHash: attempt.txHash, nonce: attempt.nonce, broadcast: sent };
}

/**
 * The worker as a loop of the jobs room: a pass every `intervalMs` after the last ended. Any number of instances
 * run it; runPayoutPass claims each payout with SKIP LOCKED and takes its nonce under the nonce row's lock.
 */
export function payoutWorkerLoop(
  db: Db,
  chain: ChainConfig,
  log: FastifyBaseLogger,
  sanctionsThreshold: number,
  intervalMs = 2_000,
): LoopSpec {
  const client = chainClient(chain);
  return {
    name: "payout-worker",
    everyMs: intervalMs,
    async pass() {
      const report = await runPayoutPass(db, chain, { client, log, sanctionsThreshold });
      const { waiting, ...counts } = report;
      const done = Object.values(counts).reduce((sum, n) => sum + n, 0);
      if (done > 0) log.info({ payouts: report }, "payout worker pass");
      return done;
    },
  };
}
