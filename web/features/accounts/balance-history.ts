import type { Transaction } from "@/contract/transactions";
import { formatDate, formatDateTime } from "@/web/lib/format";

export interface BalancePoint {
  label: string;
  balanceCents: number;
  /** The transaction this point's balance came just before (its real date and description), if any. */
  before?: { date: string; description: string };
  /** The label is the real date and time of `before` (points sharing a day), not the spec's "N days ago". */
  isDateLabel?: true;
}

export interface BalanceHistory {
  points: BalancePoint[];
  /** Current balance minus the point before it. */
  changeCents: number;
  /** Percent change against the previous point; 0 when that point is 0 or less. */
  changePercent: number;
}

/** The history goes back over at most the 7 most recent transactions. */
export const HISTORY_DEPTH = 7;

type HistoryTransaction = Pick<Transaction, "type" | "amountCents" | "status"> &
  Partial<Pick<Transaction, "date" | "description">>;

/** What a transaction did to the balance: credits raised it, debits lowered it. */
function effectOf(tx: HistoryTransaction): number {
  // Only a completed transaction has moved the balance; a pending debit is a hold, not a posting.
  if (tx.status !== "completed") return 0;
  if (tx.type === "credit" || tx.type === "incoming_payment") return tx.amountCents;
  if (tx.type === "debit") return -tx.amountCents;
  return 0;
}

const daysAgo = (n: number) => (n === 1 ? "1 day ago" : `${n} days ago`);

/**
 * The bank's (New York) calendar day of an ISO time, the day the labels show (one rule:
 * docs/architecture.md "Design notes").
 */
const dayOf = (iso: string) => formatDate(iso);

/** "Nov 26, 12:40:03 PM ET": with seconds, for two points in the same minute. */
function withSeconds(iso: string): string {
  const date = new Date(iso);
  return formatDateTime(date).replace(
    / ([AP]M)( ET)?$/,
    `:${String(date.getSeconds()).padStart(2, "0")} $1$2`,
  );
}

/**
 * Balance history: start at the current balance and walk back over up to the 7 most recent
 * transactions (newest first in, oldest point first out), undoing each one — a credit is subtracted, a
 * debit added — floored at 0. The last point is 'Today'; with no transactions, 'Last Week' and 'Today'.
 * Failed and cancelled items moved nothing, so they are skipped rather than drawn as flat points. The spec's
 * 'N days ago' counts transactions, not days: when two points fall on the same day, every point is labelled
 * with its real date and time instead (to the second when two share a minute).
 */
export function deriveBalanceHistory(
  currentCents: number,
  transactionsNewestFirst: readonly HistoryTransaction[],
): BalanceHistory {
  const recent = transactionsNewestFirst
    .filter((tx) => tx.status !== "failed" && tx.status !== "cancelled")
    .slice(0, HISTORY_DEPTH);
  const points: BalancePoint[] = [{ label: "Today", balanceCents: currentCents }];
  if (recent.length === 0) {
    points.unshift({ label: "Last Week", balanceCents: currentCents });
  } else {
    const days = recent.flatMap((tx) => (tx.date ? [dayOf(tx.date)] : []));
    const isDated = days.length === recent.length && new Set(days).size < days.length;
    const minutes = recent.map((tx) => (tx.date ? formatDateTime(tx.date) : ""));
    const dateLabel = new Set(minutes).size < minutes.length ? withSeconds : formatDateTime;
    let running = currentCents;
    recent.forEach((tx, index) => {
      running = Math.max(0, running - effectOf(tx));
      const before = tx.date ? { date: tx.date, description: tx.description ?? "" } : undefined;
      if (isDated && tx.date) {
        points.unshift({
          label: dateLabel(tx.date),
          balanceCents: running,
          before: before!,
          isDateLabel: true,
        });
      } else {
        points.unshift({ label: daysAgo(index + 1), balanceCents: running, ...(before ? { before } : {}) });
      }
    });
  }
  const previous = points[points.length - 2].balanceCents;
  const changeCents = currentCents - previous;
  const changePercent = previous > 0 ? (changeCents / previous) * 100 : 0;
  return { points, changeCents, changePercent };
}

/**
 * The tooltip's heading for a point: its label, then the transaction it precedes and, unless the label is
 * already that date, the real date (the spec's labels count transactions, not days).
 */
export function balancePointHeading(point: BalancePoint): string {
  if (!point.before) return point.label;
  const what = point.before.description ? ` ${point.before.description}` : " a transaction";
  if (point.isDateLabel) return `${point.label} · before${what}`;
  return `${point.label} · before${what} on ${formatDateTime(point.before.date)}`;
}
