import { centsToDecimal, formatMoney } from "@/contract/money";
import type { Transaction } from "@/contract/transactions";
import { directionOf } from "@/web/lib/transaction-display";

export const STATUS_FILTERS = ["all", "completed", "pending", "processing", "failed"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const TYPE_FILTERS = ["all", "incoming", "outgoing"] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

export interface TransactionFilters {
  search: string;
  status: StatusFilter;
  type: TypeFilter;
}

/** Display statuses group the raw ones: in review reads as pending, initiated as processing. */
const STATUS_GROUP: Record<Transaction["status"], StatusFilter | null> = {
  completed: "completed",
  pending: "pending",
  in_review: "pending",
  processing: "processing",
  initiated: "processing",
  failed: "failed",
  cancelled: null,
  blocked: null,
};

function matchesSearch(tx: Transaction, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  if (tx.description.toLowerCase().includes(needle)) return true;
  // "1250", "12.50", "$12.50" and "1,250.00" all find an amount of $1,250.00 or $12.50.
  const amountTexts = [tx.amount, centsToDecimal(tx.amountCents), formatMoney(tx.amountCents).toLowerCase()];
  const bare = needle.replace(/[$,\s]/g, "");
  return amountTexts.some(
    (text) => text.includes(needle) || (bare !== "" && text.replace(/[$,]/g, "").includes(bare)),
  );
}

/** Payment history filters: free text over description and amount, status, and money in or out. */
export function filterTransactions(transactions: Transaction[], filters: TransactionFilters): Transaction[] {
  return transactions.filter((tx) => {
    if (filters.status !== "all" && STATUS_GROUP[tx.status] !== filters.status) return false;
    if (filters.type === "incoming" && directionOf(tx.type) !== "in") return false;
    if (filters.type === "outgoing" && directionOf(tx.type) !== "out") return false;
    return matchesSearch(tx, filters.search);
  });
}

/** The screen-reader count after filtering: "1 transaction matches", "3 transactions match". */
export function matchCountText(count: number): string {
  return count === 1 ? "1 transaction matches your filters" : `${count} transactions match your filters`;
}
