import { CATEGORIES, type Category, OWN_ACCOUNTS_CATEGORY } from "@/contract/transaction-categories";
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

// Failed and cancelled items never moved money, and a move between the customer's own checking and savings is
// neither spending nor income: they are not counted, averaged or spent.
const isCounted = (tx: SummaryTransaction) =>
  tx.status !== "failed" && tx.status !== "cancelled" && tx.category !== OWN_ACCOUNTS_CATEGORY;

/** The analytics cards, the donut and the transaction summary, from the recent transactions. */
export function summarizeTransactions(transactions: readonly SummaryTransaction[]): AnalyticsSummary {
  const counted = transactions.filter(isCounted);
  const spending = counted.filter((tx) => tx.type === "debit");
  const totalSpendingCents = spending.reduce((sum, tx) => sum + tx.amountCents, 0);
  const totalCents = counted.reduce((sum, tx) => sum + tx.amountCents, 0);
  const count = counted.length;

  const totals = new Map<string, number>();
  for (const tx of spending) {
    // Unknown categories are shown as Other, in grey.
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
    credits: counted.filter((tx) => tx.type === "credit" || tx.type === "incoming_payment").length,
    debits: spending.length,
    byCategory,
  };
}
