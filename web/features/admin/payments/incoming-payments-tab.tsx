import { ArrowDownToLine, ReceiptText } from "lucide-react";
import type { IncomingPayment } from "@/contract/payments";
import { CATEGORIES, type Category } from "@/contract/transactions";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { AddIncomingTransactionDialog } from "@/web/features/admin/payments/add-incoming-transaction-dialog";
import {
  type AdminTransaction,
  useAdminTransactions,
} from "@/web/features/admin/payments/api/get-admin-transactions";
import { useIncomingPayments } from "@/web/features/admin/payments/api/get-incoming-payments";
import { CreateIncomingPaymentDialog } from "@/web/features/admin/payments/create-incoming-payment-dialog";
import { CreateTransactionPreviewDialog } from "@/web/features/admin/payments/create-transaction-preview-dialog";
import { EditIncomingPaymentDialog } from "@/web/features/admin/payments/edit-incoming-payment-dialog";
import { ListEmpty, ListError, ListSkeleton } from "@/web/features/admin/payments/list-states";
import {
  INCOMING_PAYMENT_STATUS_BADGES,
  TRANSACTION_STATUS_BADGES,
} from "@/web/features/admin/payments/payment-statuses";
import { SignedAmount } from "@/web/features/admin/payments/signed-amount";
import { UpdateTransactionStatusDialog } from "@/web/features/admin/payments/update-transaction-status-dialog";
import { formatDateTime } from "@/web/lib/format";

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
        <EditIncomingPaymentDialog payment={payment} />
      </div>
    </li>
  );
}

function IncomingPaymentsCard() {
  const payments = useIncomingPayments();
  const open = (payments.data ?? []).filter(
    (p) => p.status === "pending" || p.status === "processing",
  ).length;
  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <CardTitle>Incoming Payments</CardTitle>
          <CardDescription>
            {payments.data ? (
              <span className="tabular-nums">
                {open} waiting to complete · {payments.data.length} in all
              </span>
            ) : (
              "Money arriving for customers from outside"
            )}
          </CardDescription>
        </div>
        <CreateIncomingPaymentDialog />
      </CardHeader>
      <CardContent>
        {payments.isPending ? (
          <ListSkeleton label="Loading incoming payments" />
        ) : payments.isError ? (
          <ListError what="incoming payments" onRetry={() => payments.refetch()} />
        ) : payments.data.length === 0 ? (
          <ListEmpty
            icon={ArrowDownToLine}
            title="No incoming payments yet"
            text="Create one when money arrives for a customer; completing it credits their balance."
          />
        ) : (
          <ul className="-my-4 divide-y divide-line">
            {payments.data.map((p) => (
              <PaymentRow key={p.id} payment={p} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** Money in for credits and payments; out for debits (transfers, downward adjustments). */
const isMoneyIn = (t: AdminTransaction) => t.type !== "debit";
/** Only admin credits that have not moved money yet can change here; the server re-checks. */
const canUpdateStatus = (t: AdminTransaction) =>
  t.type === "credit" && !["completed", "failed", "cancelled"].includes(t.status);

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
        {canUpdateStatus(transaction) ? <UpdateTransactionStatusDialog transaction={transaction} /> : null}
      </div>
    </li>
  );
}

function TransactionsCard() {
  const transactions = useAdminTransactions();
  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <CardTitle>Transactions</CardTitle>
          <CardDescription>
            {transactions.data ? (
              <span className="tabular-nums">Latest {transactions.data.length} across all customers</span>
            ) : (
              "Every customer's latest transactions"
            )}
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <AddIncomingTransactionDialog />
          <CreateTransactionPreviewDialog />
        </div>
      </CardHeader>
      <CardContent>
        {transactions.isPending ? (
          <ListSkeleton label="Loading transactions" />
        ) : transactions.isError ? (
          <ListError what="transactions" onRetry={() => transactions.refetch()} />
        ) : transactions.data.length === 0 ? (
          <ListEmpty
            icon={ReceiptText}
            title="No transactions yet"
            text="Credits, payments and transfers of every customer appear here."
          />
        ) : (
          <ul className="-my-4 divide-y divide-line">
            {transactions.data.map((t) => (
              <TransactionRow key={t.id} transaction={t} />
            ))}
          </ul>
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
