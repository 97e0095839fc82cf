import { CATEGORIES, type Category } from "@/contract/transaction-categories";
import type { Transaction } from "@/contract/transactions";

export interface CategorySlice {
  key: string;
  label: string;
  color: string;
  cents: number;
}

export interface AnalyticsSummary {
  totalSpendingCents: number;
  count: number;
  averageCents: number;
  credits: number;
  debits: number;
  byCategory: CategorySlice[];
}

type SummaryTransaction = Pick<Transaction, "type" | "amountCents" | "status" | "category">;

// Failed and cancelled transfers never left the account, so they are not spending.
const isSpending = (tx: SummaryTransaction) =>
  tx.type === "debit" && tx.status !== "failed" && tx.status !== "cancelled";

/** The analytics cards, the donut and the transaction summary, from the recent transactions. */
export function summarizeTransactions(transactions: readonly SummaryTransaction[]): AnalyticsSummary {
  const spending = transactions.filter(isSpending);
  const totalSpendingCents = spending.reduce((sum, tx) => sum + tx.amountCents, 0);
  const totalCents = transactions.reduce((sum, tx) => sum + tx.amountCents, 0);
  const count = transactions.length;

  const totals = new Map<string, number>();
  for (const tx of spending) {
    // Spec §3: unknown categories are shown as Other, in grey.
    const key = tx.category in CATEGORIES ? tx.category : "other";
    totals.set(key, (totals.get(key) ?? 0) + tx.amountCents);
  }
  const byCategory = [...totals]
    .filter(([, cents]) => cents > 0)
    .map(([key, cents]) => ({ key, cents, ...CATEGORIES[key as Category] }))
    .sort((a, b) => b.cents - a.cents);

  return {
    totalSpendingCents,
    count,
    averageCents: count > 0 ? Math.round(totalCents / count) : 0,
    credits: transactions.filter((tx) => tx.type === "credit" || tx.type === "incoming_payment").length,
    debits: transactions.filter((tx) => tx.type === "debit").length,
    byCategory,
  };
}
