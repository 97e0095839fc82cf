import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Address, decodeEventLog, getAddress, type Hex, type PublicClient, parseAbiItem } from "viem";
import { formatMoney, MAX_CENTS } from "@/contract/money";
import { UNITS_PER_CENT } from "@/contract/settlement";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import { chainDeposits, chainWatchState, depositAddresses, transactions } from "@/server/db/schema";
import { screenDepositSender } from "@/server/features/compliance/held-deposits";
import { monitorMoneyIn } from "@/server/features/monitoring/monitor-event";
import { lockReceivingCustomer } from "@/server/features/payments/receiving-customer";
import { type ChainConfig, chainClient, receiptOf } from "@/server/features/settlement/chain-config";
import type { LoopSpec } from "@/server/jobs/loop";
import { creditFromSystemAccount, lockWallet, placeHold } from "@/server/lib/ledger";
import { notify } from "@/server/lib/notifications";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
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
  dropped: number;
  failed: number;
}

type DepositRow = typeof chainDeposits.$inferSelect;

/** The Transfer log the row describes, if the canonical chain still has it (same index, recipient and value). */
function stillOnChain(
  row: DepositRow,
  contract: Address,
  receipt: Awaited<ReturnType<typeof receiptOf>>,
): { blockNumber: number; blockHash: string } | null {
  if (receipt?.status !== "success") return null;
  const log = receipt.logs.find((l) => l.logIndex === row.logIndex);
  if (!log || log.address.toLowerCase() !== contract.toLowerCase()) return null;
  try {
    const { args } = decodeEventLog({ abi: [TRANSFER], data: log.data, topics: log.topics });
    if (args.to.toLowerCase() !== row.toAddress || args.value.toString() !== row.units) return null;
  } catch {
    return null;
  }
  return { blockNumber: Number(receipt.blockNumber), blockHash: receipt.blockHash };
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
 * block not finished, less the reorg margin, up to the node's head; records new ones as pending; re-checks
 * every pending deposit against its receipt (gone or changed → removed: a reorg took it); credits those with
 * CHAIN_CONFIRMATIONS blocks; then records the head as finished. A process killed anywhere in the pass leaves
 * the database as before it: the next pass does it again, and the unique (chain, hash, log index) and the
 * pending status make every log's credit happen once.
 */
export async function watchDepositsOnce(
  db: Db,
  chain: ChainConfig,
  client: PublicClient = chainClient(chain),
  log?: FastifyBaseLogger,
): Promise<WatchReport | null> {
  return db.transaction(async (tx) => {
    const [locked] = await queryRows<{ ok: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${WATCH_LOCK}, ${chain.chainId}) as ok`,
    );
    if (!locked?.ok) return null;

    const head = Number(await client.getBlockNumber());
    const margin = reorgMargin(chain.confirmations);
    const [state] = await tx
      .select({ nextBlock: chainWatchState.nextBlock })
      .from(chainWatchState)
      .where(eq(chainWatchState.chainId, chain.chainId));
    const next = state?.nextBlock ?? Math.max(0, head + 1 - margin);
    const fromBlock = Math.max(0, Math.min(next, head + 1 - margin));
    const report: WatchReport = { head, fromBlock, seen: 0, credited: 0, held: 0, dropped: 0, failed: 0 };

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
        for (const l of logs) {
          if (l.removed || l.transactionHash === null || l.logIndex === null || l.blockNumber === null)
            continue;
          const to = l.args.to!.toLowerCase();
          if (!owner.has(to)) continue;
          const units = l.args.value!;
          const { cents, dust } = splitUnits(units);
          if (cents > BigInt(MAX_CENTS)) {
            log?.error(
              { txHash: l.transactionHash },
              "chain deposit larger than a wallet can hold: not recorded",
            );
            continue;
          }
          const inserted = await tx
            .insert(chainDeposits)
            .values({
              chainId: chain.chainId,
              txHash: l.transactionHash.toLowerCase(),
              logIndex: l.logIndex,
              blockNumber: Number(l.blockNumber),
              blockHash: l.blockHash!.toLowerCase(),
              fromAddress: l.args.from!.toLowerCase(),
              toAddress: to,
              userId: owner.get(to) ?? null,
              units: units.toString(),
              amountCents: Number(cents),
              dustUnits: dust,
              status: cents === 0n ? "below_cent" : "pending",
            })
            .onConflictDoNothing({
              target: [chainDeposits.chainId, chainDeposits.txHash, chainDeposits.logIndex],
            })
            .returning({ id: chainDeposits.id });
          report.seen += inserted.length;
        }
      }
    }

    const pending = await tx
      .select()
      .from(chainDeposits)
      .where(
        and(
          eq(chainDeposits.chainId, chain.chainId),
          eq(chainDeposits.status, "pending"),
          // Being returned to its sender, or returned (decision 060): never credited after that.
          sql`not exists (select 1 from treasury_movements m where m.deposit_id = ${chainDeposits.id}
                            and m.status <> 'failed')`,
        ),
      )
      .for("update");
    for (const row of pending) {
      const found = stillOnChain(row, chain.usdcContract, await receiptOf(client, row.txHash as Hex));
      if (!found) {
        // A reorg took the log away before it was credited: it was never money. If the transaction is mined
        // again, the next pass sees its log anew.
        await tx.delete(chainDeposits).where(eq(chainDeposits.id, row.id));
        report.dropped += 1;
        log?.info({ txHash: row.txHash }, "pending chain deposit removed by a reorg");
        continue;
      }
      if (found.blockHash !== row.blockHash) {
        await tx
          .update(chainDeposits)
          .set({ blockNumber: found.blockNumber, blockHash: found.blockHash.toLowerCase() })
          .where(eq(chainDeposits.id, row.id));
      }
      if (head - found.blockNumber + 1 < chain.confirmations) continue;
      const outcome = await creditDeposit(tx, row, log);
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
      if (report && (report.seen || report.credited || report.held || report.dropped))
        log.info({ deposits: report }, "chain watcher pass");
      return report ? report.credited + report.held : 0;
    },
  };
}
