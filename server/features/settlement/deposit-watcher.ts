import { and, asc, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  type Address,
  decodeEventLog,
  type GetLogsReturnType,
  getAddress,
  type Hex,
  HttpRequestError,
  type PublicClient,
  parseAbiItem,
  TimeoutError,
} from "viem";
import { z } from "zod";
import { formatMoney, MAX_CENTS } from "@/contract/money";
import { UNITS_PER_CENT } from "@/contract/settlement";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import { chainDeposits, chainWatchState, depositAddresses, transactions } from "@/server/db/schema";
import { screenDepositSender } from "@/server/features/compliance/held-deposits";
import { lockReceivingCustomer } from "@/server/features/credits/receiving-customer";
import { monitorMoneyIn } from "@/server/features/monitoring/monitor-event";
import { chainClient, receiptOf } from "@/server/features/settlement/chain-config";
import { positionInTransaction } from "@/server/features/settlement/chain-logs";
import { reverseDeposit } from "@/server/features/settlement/deposit-reversal";
import type { LoopSpec } from "@/server/jobs/loop";
import type { ChainConfig } from "@/server/lib/chain-config";
import { creditFromSystemAccount, lockWallet, placeHold } from "@/server/lib/ledger";
import { notify } from "@/server/lib/notifications";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
type TransferLog = GetLogsReturnType<typeof TRANSFER>[number];
/** Any fixed number: with the chain id it names the watcher's advisory lock, so one instance reads a chain. */
const WATCH_LOCK = 7_310_029;
/** Blocks re-read below the last one finished on every pass, so a reorg's new logs are never skipped. */
export const reorgMargin = (confirmations: number) => confirmations + 10;
const BLOCKS_PER_QUERY = 2_000;
const ADDRESSES_PER_QUERY = 500;

/** Whole cents and the units below a cent (decision 028: the dust is recorded, never credited). */
export function splitUnits(units: bigint): { cents: bigint; dust: number } {
  return { cents: units / UNITS_PER_CENT, dust: Number(units % UNITS_PER_CENT) };
}

export interface WatchReport {
  head: number;
  fromBlock: number;
  seen: number;
  credited: number;
  /** Booked with a hold under a compliance case: the sender is on the sanctions list (decision 039). */
  held: number;
  /** Pending ones a reorg removed before their credit. */
  dropped: number;
  /** Booked ones a reorg deeper than the confirmations removed: their credit taken back (decision 056). */
  reversed: number;
  /** Reversed ones whose transaction was mined again: pending, to be credited once more. */
  returned: number;
  failed: number;
}

type DepositRow = typeof chainDeposits.$inferSelect;
type Receipt = Awaited<ReturnType<typeof receiptOf>>;
type ReceiptLog = NonNullable<Receipt>["logs"][number];

/**
 * How far below the head booked deposits are re-read on every pass (decision 056): deeper than any reorg the chain
 * allows in practice. Where the node answers `finalized`, everything above that block is re-read as well.
 */
export const reorgWindow = (confirmations: number) => Math.max(128, 2 * confirmations);

/**
 * The node's `finalized` block number, or null where it does not know that tag. A node that does not answer at all
 * fails the pass instead: a timeout must not let a large deposit through on the count alone.
 */
async function finalizedBlock(client: PublicClient): Promise<number | null> {
  try {
    const block = await client.getBlock({ blockTag: "finalized" });
    return block.number === null ? null : Number(block.number);
  } catch (err) {
    if (err instanceof HttpRequestError || err instanceof TimeoutError) throw err;
    return null;
  }
}

/** Whether a receipt log is the token's Transfer of `units` to `to`. */
function isTransferTo(contract: Address, log: ReceiptLog, to: string, units: string) {
  if (log.address.toLowerCase() !== contract.toLowerCase()) return false;
  try {
    const { args } = decodeEventLog({ abi: [TRANSFER], data: log.data, topics: log.topics });
    return args.to.toLowerCase() === to && args.value.toString() === units;
  } catch {
    return false;
  }
}

/**
 * Where the canonical chain has the row's log now: the log at its place within its transaction (not the block's
 * log index, which a reorg that mines the transaction elsewhere changes), with the same recipient and value.
 */
function stillOnChain(
  row: DepositRow,
  contract: Address,
  receipt: Receipt,
): { blockNumber: number; blockHash: string; logIndex: number } | null {
  if (receipt?.status !== "success" || row.txLogIndex === null) return null;
  const log = receipt.logs[row.txLogIndex];
  if (!log || log.logIndex === null || !isTransferTo(contract, log, row.toAddress, row.units)) return null;
  return {
    blockNumber: Number(receipt.blockNumber),
    blockHash: receipt.blockHash.toLowerCase(),
    logIndex: log.logIndex,
  };
}

/**
 * Rows recorded before migration 0046 have no place within their transaction: it is read from the receipt, at the
 * block log index the row names when the receipt is of the block the row saw, else the only Transfer of the row's
 * value to its address in that transaction. Left null when the receipt is gone (the re-check then finds the log gone)
 * or the place is ambiguous (logged for staff).
 */
async function fillTxLogIndexes(tx: Tx, chain: ChainConfig, client: PublicClient, log?: FastifyBaseLogger) {
  const rows = await tx
    .select()
    .from(chainDeposits)
    .where(and(eq(chainDeposits.chainId, chain.chainId), isNull(chainDeposits.txLogIndex)))
    .limit(200)
    .for("update");
  for (const row of rows) {
    const receipt = await receiptOf(client, row.txHash as Hex);
    if (!receipt) continue;
    let at: number | null = null;
    if (receipt.blockHash.toLowerCase() === row.blockHash)
      at = positionInTransaction(receipt.logs, row.logIndex);
    else {
      const candidates = receipt.logs
        .map((l, i) => (isTransferTo(chain.usdcContract, l, row.toAddress, row.units) ? i : -1))
        .filter((i) => i >= 0);
      if (candidates.length === 1) at = candidates[0]!;
    }
    if (at === null) {
      log?.warn({ deposit: row.id, txHash: row.txHash }, "chain deposit's place in its transaction unknown");
      continue;
    }
    await tx.update(chainDeposits).set({ txLogIndex: at }).where(eq(chainDeposits.id, row.id));
  }
}

/**
 * Credits one confirmed deposit inside a savepoint: `usdc_deposits` → the customer's wallet, a completed
 * "USDC deposit" credit, and the row marked credited, all or nothing. The row was locked and read as pending
 * by the caller, and the update repeats the condition, so a log is credited at most once. A customer who can
 * no longer receive (staff, account closed, deleted) leaves it pending for staff, with a warning.
 *
 * A sender on the sanctions list (decision 039): the same entry is posted, with an open hold for the whole
 * amount, the credit stays pending and the row is marked held on the customer's case, so nothing of it is
 * available until compliance clears the case (releaseHeldDeposits). The customer reads only "under review".
 */
async function creditDeposit(
  tx: Tx,
  row: DepositRow,
  log?: FastifyBaseLogger,
): Promise<"credited" | "held" | null> {
  if (!row.userId) {
    log?.warn(
      { deposit: row.id, txHash: row.txHash },
      "chain deposit to a deleted customer's address: left pending",
    );
    return null;
  }
  try {
    return await tx.transaction(async (sp) => {
      // The case is locked before the customer and the wallet: the order a case decision takes them in.
      const caseId = await screenDepositSender(sp, {
        id: row.id,
        userId: row.userId!,
        fromAddress: row.fromAddress,
      });
      await lockReceivingCustomer(sp, row.userId!);
      const { entryId } = await creditFromSystemAccount(sp, "usdc_deposits", row.userId!, {
        kind: "usdc_deposit",
        description: `USDC deposit ${row.txHash}`,
        referenceType: "chain_deposit",
        referenceId: row.id,
        amount: row.amountCents,
      });
      const [credit] = await sp
        .insert(transactions)
        .values({
          userId: row.userId,
          type: "credit",
          amount: row.amountCents,
          fee: 0,
          netAmount: row.amountCents,
          description: "USDC deposit",
          category: "other",
          status: caseId ? "pending" : "completed",
          adminNotes: `tx ${row.txHash} log ${row.logIndex}`,
          sourceType: "usdc_deposit",
          sourceId: row.id,
          entryId,
        })
        .returning({ id: transactions.id });
      const holdId = caseId
        ? await placeHold(sp, await lockWallet(sp, row.userId!), row.amountCents, {
            type: "chain_deposit",
            id: row.id,
          })
        : null;
      const updated = await sp
        .update(chainDeposits)
        .set(
          caseId
            ? { status: "held", entryId, transactionId: credit!.id, holdId, caseId }
            : { status: "credited", entryId, transactionId: credit!.id, creditedAt: new Date() },
        )
        .where(and(eq(chainDeposits.id, row.id), eq(chainDeposits.status, "pending")))
        .returning({ id: chainDeposits.id });
      if (updated.length !== 1) throw new Error(`deposit ${row.id} is no longer pending`);
      // In-app only: no e-mail template for deposits exists yet, and the deposit page already shows it.
      await notify(
        sp,
        row.userId!,
        "money_in",
        caseId
          ? {
              title: `${formatMoney(row.amountCents)} received`,
              body: "USDC deposit under review",
              link: "/add-money",
            }
          : { title: `${formatMoney(row.amountCents)} arrived`, body: "USDC deposit", link: "/dashboard" },
      );
      await monitorMoneyIn(sp, row.userId!, {
        kind: "deposit",
        id: credit!.id,
        amountCents: row.amountCents,
      });
      return caseId ? "held" : "credited";
    });
  } catch (err) {
    log?.warn({ err, deposit: row.id, txHash: row.txHash }, "chain deposit not credited: left pending");
    return null;
  }
}

/**
 * One pass of the deposit watcher, in one database transaction under an advisory lock (another instance's
 * pass in progress → null, nothing done). Reads the token's Transfer logs to deposit addresses from the first
 * block not finished, less the reorg margin, up to the node's head; records new ones as pending, keyed by
 * (chain, transaction hash, the log's place within its transaction), and moves a known one's "last seen" place
 * when a reorg mined it elsewhere. Then re-checks against their receipts every pending deposit and every booked or
 * reversed one within the reorg window (decision 056): a pending one gone is removed; a booked one gone is reversed;
 * a reversed one back is pending again; a pending one with CHAIN_CONFIRMATIONS blocks (and, above
 * CHAIN_FINALIZED_ABOVE, in a finalized block) is credited. Then records the head as finished. A process killed
 * anywhere in the pass leaves the database as before it; every move repeats its row's status in its update, so each
 * happens once.
 */
export async function watchDepositsOnce(
  db: Db,
  chain: ChainConfig,
  client: PublicClient = chainClient(chain),
  log?: FastifyBaseLogger,
): Promise<WatchReport | null> {
  return db.transaction(async (tx) => {
    const [locked] = await queryRows(
      tx,
      sql`select pg_try_advisory_xact_lock(${WATCH_LOCK}, ${chain.chainId}) as ok`,
      z.object({ ok: z.boolean() }),
    );
    if (!locked?.ok) return null;

    const head = Number(await client.getBlockNumber());
    const finalized = await finalizedBlock(client);
    const margin = reorgMargin(chain.confirmations);
    const [state] = await tx
      .select({ nextBlock: chainWatchState.nextBlock })
      .from(chainWatchState)
      .where(eq(chainWatchState.chainId, chain.chainId));
    const next = state?.nextBlock ?? Math.max(0, head + 1 - margin);
    const fromBlock = Math.max(0, Math.min(next, head + 1 - margin));
    const report: WatchReport = {
      head,
      fromBlock,
      seen: 0,
      credited: 0,
      held: 0,
      dropped: 0,
      reversed: 0,
      returned: 0,
      failed: 0,
    };

    await fillTxLogIndexes(tx, chain, client, log);
    const watched = await tx
      .select({ address: depositAddresses.address, userId: depositAddresses.userId })
      .from(depositAddresses);
    const owner = new Map(watched.map((w) => [w.address, w.userId]));
    const addresses = watched.map((w) => getAddress(w.address));

    for (let start = fromBlock; start <= head && addresses.length > 0; start += BLOCKS_PER_QUERY) {
      const end = Math.min(head, start + BLOCKS_PER_QUERY - 1);
      for (let i = 0; i < addresses.length; i += ADDRESSES_PER_QUERY) {
        const logs = await client.getLogs({
          address: chain.usdcContract,
          event: TRANSFER,
          args: { to: addresses.slice(i, i + ADDRESSES_PER_QUERY) },
          fromBlock: BigInt(start),
          toBlock: BigInt(end),
        });
        report.seen += await recordLogs(tx, chain, client, owner, logs, log);
      }
    }

    // Pending rows wherever they are; booked and reversed ones only near the head (an index on the block).
    const recheckFrom =
      Math.min(finalized === null ? head : finalized, head - reorgWindow(chain.confirmations)) + 1;
    const rows = await tx
      .select()
      .from(chainDeposits)
      .where(
        and(
          eq(chainDeposits.chainId, chain.chainId),
          or(
            and(
              eq(chainDeposits.status, "pending"),
              // Being returned to its sender, or returned (decision 060): never credited after that.
              sql`not exists (select 1 from treasury_movements m where m.deposit_id = ${chainDeposits.id}
                                and m.status <> 'failed')`,
            ),
            and(
              inArray(chainDeposits.status, ["held", "credited", "reversed"]),
              gte(chainDeposits.blockNumber, recheckFrom),
            ),
          ),
        ),
      )
      .orderBy(asc(chainDeposits.blockNumber), asc(chainDeposits.id))
      .for("update");
    for (const row of rows) {
      const receipt = await receiptOf(client, row.txHash as Hex);
      if (row.txLogIndex === null && receipt) continue; // its place is unknown: fillTxLogIndexes said why
      const found = stillOnChain(row, chain.usdcContract, receipt);
      if (!found) {
        await handleGone(tx, row, report, log);
        continue;
      }
      if (
        found.blockHash !== row.blockHash ||
        found.logIndex !== row.logIndex ||
        found.blockNumber !== row.blockNumber
      ) {
        // The same log, mined elsewhere by a reorg: it is still the one deposit, only its place moved.
        await tx
          .update(chainDeposits)
          .set({ blockNumber: found.blockNumber, blockHash: found.blockHash, logIndex: found.logIndex })
          .where(eq(chainDeposits.id, row.id));
      }
      let status = row.status;
      if (status === "reversed") {
        // Mined again after its reversal: credited once more after the confirmations, like a new deposit.
        await tx
          .update(chainDeposits)
          .set({ status: "pending" })
          .where(and(eq(chainDeposits.id, row.id), eq(chainDeposits.status, "reversed")));
        report.returned += 1;
        status = "pending";
        log?.info({ txHash: row.txHash }, "reversed chain deposit mined again: pending");
      }
      if (status !== "pending" || !isFinal(chain, row.amountCents, found.blockNumber, head, finalized))
        continue;
      const outcome = await creditDeposit(tx, { ...row, status, ...found }, log);
      if (outcome) report[outcome] += 1;
      else report.failed += 1;
    }

    await tx
      .insert(chainWatchState)
      .values({ chainId: chain.chainId, nextBlock: head + 1 })
      .onConflictDoUpdate({
        target: chainWatchState.chainId,
        set: { nextBlock: head + 1, updatedAt: new Date() },
      });
    return report;
  });
}

/**
 * Deep enough to credit: CHAIN_CONFIRMATIONS blocks counting its own, and above CHAIN_FINALIZED_ABOVE also in a
 * block the node calls finalized (a node without the tag: the count alone).
 */
function isFinal(chain: ChainConfig, cents: number, block: number, head: number, finalized: number | null) {
  if (head - block + 1 < chain.confirmations) return false;
  if (chain.finalizedAboveCents === null || cents <= chain.finalizedAboveCents || finalized === null)
    return true;
  return block <= finalized;
}

/** A deposit whose log the canonical chain no longer has. */
async function handleGone(tx: Tx, row: DepositRow, report: WatchReport, log?: FastifyBaseLogger) {
  if (row.status === "reversed") return;
  if (row.status === "pending" && row.reversedAt === null) {
    // A reorg took the log away before it was credited: it was never money. If the transaction is mined again,
    // the next pass sees its log anew.
    await tx.delete(chainDeposits).where(eq(chainDeposits.id, row.id));
    report.dropped += 1;
    log?.info({ txHash: row.txHash }, "pending chain deposit removed by a reorg");
    return;
  }
  if (row.status === "pending") {
    // Mined again after a reversal, then gone again before its new credit: reversed it stays.
    await tx
      .update(chainDeposits)
      .set({ status: "reversed" })
      .where(and(eq(chainDeposits.id, row.id), eq(chainDeposits.status, "pending")));
    report.dropped += 1;
    return;
  }
  if (row.status !== "credited" && row.status !== "held") return;
  if (await reverseDeposit(tx, row, log)) report.reversed += 1;
  else report.failed += 1;
}

/**
 * Records the logs not seen before as pending deposits, each keyed by its transaction and its place within it;
 * a known one seen at another place has its "last seen" moved. Answers how many were new.
 */
async function recordLogs(
  tx: Tx,
  chain: ChainConfig,
  client: PublicClient,
  owner: Map<string, string | null>,
  logs: readonly TransferLog[],
  log?: FastifyBaseLogger,
): Promise<number> {
  const fresh = logs.filter(
    (l) => !l.removed && l.transactionHash !== null && l.logIndex !== null && l.blockNumber !== null,
  );
  if (fresh.length === 0) return 0;
  const hashes = [...new Set(fresh.map((l) => l.transactionHash!.toLowerCase()))];
  const known = await tx
    .select({
      txHash: chainDeposits.txHash,
      logIndex: chainDeposits.logIndex,
      blockHash: chainDeposits.blockHash,
    })
    .from(chainDeposits)
    .where(and(eq(chainDeposits.chainId, chain.chainId), inArray(chainDeposits.txHash, hashes)));
  const seenAt = new Set(known.map((k) => `${k.txHash}:${k.logIndex}:${k.blockHash}`));
  const receipts = new Map<string, Receipt>();
  let inserted = 0;
  for (const l of fresh) {
    const hash = l.transactionHash!.toLowerCase();
    const blockHash = l.blockHash!.toLowerCase();
    // Already recorded where it is now: no receipt to read (the margin is re-read on every pass).
    if (seenAt.has(`${hash}:${l.logIndex}:${blockHash}`)) continue;
    const to = l.args.to!.toLowerCase();
    if (!owner.has(to)) continue;
    const units = l.args.value!;
    const { cents, dust } = splitUnits(units);
    if (cents > BigInt(MAX_CENTS)) {
      log?.error({ txHash: l.transactionHash }, "chain deposit larger than a wallet can hold: not recorded");
      continue;
    }
    if (!receipts.has(hash)) receipts.set(hash, await receiptOf(client, l.transactionHash!));
    const receipt = receipts.get(hash);
    // The receipt must be of the block the log came from: a reorg between the two reads, and the next pass reads again.
    if (!receipt || receipt.blockHash.toLowerCase() !== blockHash) continue;
    const txLogIndex = positionInTransaction(receipt.logs, l.logIndex!);
    if (txLogIndex === null) continue;
    const place = { logIndex: l.logIndex!, blockNumber: Number(l.blockNumber), blockHash };
    const [row] = await tx
      .insert(chainDeposits)
      .values({
        chainId: chain.chainId,
        txHash: hash,
        txLogIndex,
        ...place,
        fromAddress: l.args.from!.toLowerCase(),
        toAddress: to,
        userId: owner.get(to) ?? null,
        units: units.toString(),
        amountCents: Number(cents),
        dustUnits: dust,
        status: cents === 0n ? "below_cent" : "pending",
      })
      .onConflictDoUpdate({
        target: [chainDeposits.chainId, chainDeposits.txHash, chainDeposits.txLogIndex],
        set: place,
      })
      .returning({ isNew: sql<boolean>`(xmax = 0)` });
    if (row?.isNew) inserted += 1;
  }
  return inserted;
}

/**
 * The watcher as a loop of the jobs room: a pass every `intervalMs` after the last ended. Any number of instances
 * run it; the pass's advisory lock lets one read a chain at a time.
 */
export function depositWatcherLoop(
  db: Db,
  chain: ChainConfig,
  log: FastifyBaseLogger,
  intervalMs = 2_000,
): LoopSpec {
  const client = chainClient(chain);
  return {
    name: "deposit-watcher",
    everyMs: intervalMs,
    async pass() {
      const report = await watchDepositsOnce(db, chain, client, log);
      if (
        report &&
        (report.seen ||
          report.credited ||
          report.held ||
          report.dropped ||
          report.reversed ||
          report.returned)
      )
        log.info({ deposits: report }, "chain watcher pass");
      return report ? report.credited + report.held : 0;
    },
  };
}
