import { centsToDecimal } from "@/contract/money";
import type { Transaction } from "@/contract/transactions";
import type { transactions } from "@/server/db/schema";

type TransactionRow = typeof transactions.$inferSelect;

export function toTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    userId: row.userId,
    type: row.type,
    amount: centsToDecimal(row.amount),
    fee: centsToDecimal(row.fee),
    netAmount: centsToDecimal(row.netAmount),
    amountCents: row.amount,
    feeCents: row.fee,
    netAmountCents: row.netAmount,
    description: row.description,
    category: row.category,
    status: row.status,
    date: row.createdAt.toISOString(),
    transferRequestId: row.sourceType === "transfer_request" ? row.sourceId : null,
  };
}
