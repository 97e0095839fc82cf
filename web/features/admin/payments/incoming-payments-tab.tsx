import { ArrowDownToLine, ReceiptText } from "lucide-react";
import { useState } from "react";
import { INCOMING_PAYMENT_STATUSES, type IncomingPayment } from "@/contract/payments";
import { CATEGORIES, type Category, TRANSACTION_STATUSES } from "@/contract/transactions";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { useSearch } from "@/web/features/admin/lists/admin-list";
import { ListSearch, LoadMore, StatusSelect } from "@/web/features/admin/lists/list-controls";
import { AddIncomingTransactionDialog } from "@/web/features/admin/payments/add-incoming-transaction-dialog";
import {
  type AdminTransaction,
  useAdminTransactions,
} from "@/web/features/admin/payments/api/get-admin-transactions";
import { useIncomingPayments } from "@/web/features/admin/payments/api/get-incoming-payments";
import { CreateIncomingPaymentDialog } from "@/web/features/admin/payments/create-incoming-payment-dialog";
import { CreateTransactionPreviewDialog } from "@/web/features/admin/payments/create-transaction-preview-dialog";
import { EditIncomingPaymentDialog } from "@/web/features/admin/payments/edit-incoming-payment-dialog";
import { FinalMarker } from "@/web/features/admin/payments/final-marker";
import { ListEmpty, ListError, ListSkeleton } from "@/web/features/admin/payments/list-states";
import {
  INCOMING_PAYMENT_STATUS_BADGES,
  TRANSACTION_STATUS_BADGES,
} from "@/web/features/admin/payments/payment-statuses";
import { SignedAmount } from "@/web/features/admin/payments/signed-amount";
import { UpdateTransactionStatusDialog } from "@/web/features/admin/payments/update-transaction-status-dialog";
import { formatDateTime } from "@/web/lib/format";

/** Completed, failed and cancelled are final for payments and transactions alike (the server answers 409). */
const TERMINAL_STATUSES: readonly string[] = ["completed", "failed", "cancelled"];
const isTerminal = (status: string) => TERMINAL_STATUSES.includes(status);

const ROW =
  "grid gap-3 py-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_8.5rem_6.5rem] lg:items-center lg:gap-5";

/** Status left and amount right on phones; amount over status, right-aligned, on wide screens. */
function AmountAndStatus({
  cents,
  direction,
  badge,
  isSettled,
}: {
  cents: number;
  direction: "in" | "out";
  badge: { label: string; tone: BadgeProps["tone"] };
  isSettled: boolean;
}) {
  return (
    <div className="flex items-center justify-between gap-3 lg:grid lg:justify-items-end lg:gap-1">
      <Badge tone={badge.tone} className="lg:order-2">
        {badge.label}
      </Badge>
      <SignedAmount cents={cents} direction={direction} isSettled={isSettled} className="lg:order-1" />
    </div>
  );
}

function PaymentRow({ payment }: { payment: IncomingPayment }) {
  const badge = INCOMING_PAYMENT_STATUS_BADGES[payment.status];
  const customer = payment.user ? `${payment.user.firstName} ${payment.user.lastName}` : "Deleted user";
  return (
    <li className={ROW}>
      <div className="grid min-w-0 gap-0.5">
        <p className="truncate text-sm font-medium text-ink">{customer}</p>
        <p className="truncate text-xs text-ink-muted">
          {payment.user?.email ?? "—"} · {formatDateTime(payment.created_at)}
        </p>
      </div>
      <div className="grid min-w-0 gap-0.5">
        <p className="truncate text-sm text-ink">{payment.description}</p>
        <p className="truncate text-xs text-ink-muted">
          For {payment.paymentFor} · from {payment.fromAccount}
        </p>
      </div>
      <AmountAndStatus
        cents={payment.amountCents}
        direction="in"
        badge={badge}
        isSettled={payment.status === "completed"}
      />
      <div className="flex justify-end">
        {isTerminal(payment.status) ? <FinalMarker /> : <EditIncomingPaymentDialog payment={payment} />}
      </div>
    </li>
  );
}

const PAYMENT_FILTERS = ["all", ...INCOMING_PAYMENT_STATUSES] as const;
const TRANSACTION_FILTERS = ["all", ...TRANSACTION_STATUSES] as const;
const paymentLabel = (value: (typeof PAYMENT_FILTERS)[number]) =>
  value === "all" ? "All statuses" : INCOMING_PAYMENT_STATUS_BADGES[value].label;
const transactionLabel = (value: (typeof TRANSACTION_FILTERS)[number]) =>
  value === "all" ? "All statuses" : TRANSACTION_STATUS_BADGES[value].label;

function IncomingPaymentsCard() {
  const [status, setStatus] = useState<(typeof PAYMENT_FILTERS)[number]>("all");
  const search = useSearch();
  const { query: payments, items } = useIncomingPayments({ q: search.q, status });
  const isFiltered = status !== "all" || search.q !== "";
  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div className="grid gap-1">
            <CardTitle>Incoming Payments</CardTitle>
            <CardDescription>Money arriving for customers from outside, newest first</CardDescription>
          </div>
          <CreateIncomingPaymentDialog />
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <ListSearch
            id="admin-payment-search"
            label="Search incoming payments"
            placeholder="Search customer, description or sender"
            value={search.text}
            onChange={search.setText}
          />
          <StatusSelect
            id="admin-payment-status"
            label="Show incoming payments with status"
            options={PAYMENT_FILTERS}
            labelOf={paymentLabel}
            value={status}
            onChange={setStatus}
          />
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {payments.isPending ? (
          <ListSkeleton label="Loading incoming payments" />
        ) : payments.isError ? (
          <ListError what="incoming payments" onRetry={() => payments.refetch()} />
        ) : items.length === 0 ? (
          <ListEmpty
            icon={ArrowDownToLine}
            title={isFiltered ? "No incoming payments match" : "No incoming payments yet"}
            text={
              isFiltered
                ? "Try another search or status."
                : "Create one when money arrives for a customer; completing it credits their balance."
            }
          />
        ) : (
          <>
            <ul className="-my-4 divide-y divide-line">
              {items.map((p) => (
                <PaymentRow key={p.id} payment={p} />
              ))}
            </ul>
            <LoadMore query={payments} what="incoming payments" />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Money in for credits and payments; out for debits (transfers, downward adjustments). */
const isMoneyIn = (t: AdminTransaction) => t.type !== "debit";
/** Only admin credits that have not moved money yet can change here; the server re-checks. */
const canUpdateStatus = (t: AdminTransaction) => t.type === "credit" && !isTerminal(t.status);

function TransactionRow({ transaction }: { transaction: AdminTransaction }) {
  const badge = TRANSACTION_STATUS_BADGES[transaction.status];
  const category = CATEGORIES[transaction.category as Category]?.label ?? "Other";
  return (
    <li className={ROW}>
      <div className="grid min-w-0 gap-0.5">
        <p className="truncate text-sm font-medium text-ink">{transaction.description}</p>
        <p className="truncate text-xs text-ink-muted">{transaction.userEmail ?? "Deleted user"}</p>
      </div>
      <p className="truncate text-xs text-ink-muted">
        <span className="capitalize">{transaction.type.replace("_", " ")}</span> · {category} ·{" "}
        {formatDateTime(transaction.date)}
      </p>
      <AmountAndStatus
        cents={transaction.amountCents}
        direction={isMoneyIn(transaction) ? "in" : "out"}
        badge={badge}
        isSettled={transaction.status === "completed"}
      />
      <div className="flex justify-end empty:hidden">
        {canUpdateStatus(transaction) ? (
          <UpdateTransactionStatusDialog transaction={transaction} />
        ) : isTerminal(transaction.status) ? (
          <FinalMarker />
        ) : null}
      </div>
    </li>
  );
}

function TransactionsCard() {
  const [status, setStatus] = useState<(typeof TRANSACTION_FILTERS)[number]>("all");
  const search = useSearch();
  const { query: transactions, items } = useAdminTransactions({ q: search.q, status });
  const isFiltered = status !== "all" || search.q !== "";
  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div className="grid gap-1">
            <CardTitle>Transactions</CardTitle>
            <CardDescription>Every customer's transactions, newest first</CardDescription>
          </div>
          <div className="flex flex-wrap gap-2">
            <AddIncomingTransactionDialog />
            <CreateTransactionPreviewDialog />
          </div>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <ListSearch
            id="admin-transaction-search"
            label="Search transactions"
            placeholder="Search customer email or description"
            value={search.text}
            onChange={search.setText}
          />
          <StatusSelect
            id="admin-transaction-status"
            label="Show transactions with status"
            options={TRANSACTION_FILTERS}
            labelOf={transactionLabel}
            value={status}
            onChange={setStatus}
          />
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {transactions.isPending ? (
          <ListSkeleton label="Loading transactions" />
        ) : transactions.isError ? (
          <ListError what="transactions" onRetry={() => transactions.refetch()} />
        ) : items.length === 0 ? (
          <ListEmpty
            icon={ReceiptText}
            title={isFiltered ? "No transactions match" : "No transactions yet"}
            text={
              isFiltered
                ? "Try another search or status."
                : "Credits, payments and transfers of every customer appear here."
            }
          />
        ) : (
          <>
            <ul className="-my-4 divide-y divide-line">
              {items.map((t) => (
                <TransactionRow key={t.id} transaction={t} />
              ))}
            </ul>
            <LoadMore query={transactions} what="transactions" />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Spec §2 /admin 'Incoming Payments': incoming payments, then admin credits and every transaction. */
export default function IncomingPaymentsTab() {
  return (
    <div className="grid gap-6">
      <IncomingPaymentsCard />
      <TransactionsCard />
    </div>
  );
}
