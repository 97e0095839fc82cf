import type { Hex, PublicClient } from "viem";
import { receiptOf } from "@/server/features/settlement/chain-config";

/**
 * A token log's identity on chain (decision 056): its transaction's hash and its place among that
 * transaction's logs. The block's log index is not one: a reorg that mines the same transaction again, in
 * another block or at another position, gives the same log another block log index, and keying on it credited
 * one deposit twice.
 */
export interface LogIdentity {
  txHash: string;
  /** 0 for the transaction's first log, 1 for its second…: the same in every block that mines it. */
  txLogIndex: number;
}

/**
 * The place of the log with block log index `logIndex` among its receipt's logs, or null when the receipt has no
 * such log (a reorg replaced the block between the log query and the receipt read: the next pass reads again).
 */
export function positionInTransaction(
  receiptLogs: readonly { logIndex: number | null }[],
  logIndex: number,
): number | null {
  const at = receiptLogs.findIndex((l) => l.logIndex === logIndex);
  return at < 0 ? null : at;
}

/**
 * Each log's place within its transaction, reading each transaction's receipt once. A log whose receipt is
 * gone or no longer holds it is left out: its block was reorged away since the query.
 */
export async function positionsOf<L extends { transactionHash: Hex | null; logIndex: number | null }>(
  client: PublicClient,
  logs: readonly L[],
): Promise<Map<L, number>> {
  const receipts = new Map<string, Awaited<ReturnType<typeof receiptOf>>>();
  const positions = new Map<L, number>();
  for (const log of logs) {
    if (log.transactionHash === null || log.logIndex === null) continue;
    const hash = log.transactionHash.toLowerCase();
    if (!receipts.has(hash)) receipts.set(hash, await receiptOf(client, log.transactionHash));
    const receipt = receipts.get(hash);
    if (!receipt) continue;
    const at = positionInTransaction(receipt.logs, log.logIndex);
    if (at !== null) positions.set(log, at);
  }
  return positions;
}
