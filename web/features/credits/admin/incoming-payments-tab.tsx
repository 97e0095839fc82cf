import { ArrowDownToLine, type LucideIcon, ReceiptText } from "lucide-react";
import type { ReactNode } from "react";
import { INCOMING_PAYMENT_STATUSES, type IncomingPayment } from "@/contract/credits";
import { CATEGORIES, type Category } from "@/contract/transaction-categories";
import { TRANSACTION_STATUSES } from "@/contract/transactions";
import { type AdminListFilter, useListFilter } from "@/web/components/admin/admin-list";
import { FinalMarker } from "@/web/components/admin/final-marker";
import { ListSearch, StatusSelect } from "@/web/components/admin/list-controls";
import { ListHeader, type ListQuery, ListStates } from "@/web/components/admin/list-states";
import { SignedAmount } from "@/web/components/admin/signed-amount";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Card, CardContent } from "@/web/components/ui/card";
import { AddIncomingTransactionDialog } from "@/web/features/credits/admin/add-incoming-transaction-dialog";
import {
  type AdminTransaction,
  useAdminTransactions,
} from "@/web/features/credits/admin/api/get-admin-transactions";
import { useIncomingPayments } from "@/web/features/credits/admin/api/get-incoming-payments";
import { CreateIncomingPaymentDialog } from "@/web/features/credits/admin/create-incoming-payment-dialog";
import { CreateTransactionPreviewDialog } from "@/web/features/credits/admin/create-transaction-preview-dialog";
import { EditIncomingPaymentDialog } from "@/web/features/credits/admin/edit-incoming-payment-dialog";
import {
  INCOMING_PAYMENT_STATUS_BADGES,
  TRANSACTION_STATUS_BADGES,
} from "@/web/features/credits/admin/payment-statuses";
import { UpdateTransactionStatusDialog } from "@/web/features/credits/admin/update-transaction-status-dialog";
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

/**
 * A card with a searched, status-filtered list: the two lists of this tab differ only in their words, query and
 * rows.
 */
function StatusListCard<F extends string, T>({
  title,
  description,
  action,
  idPrefix,
  what,
  placeholder,
  filters,
  labelOf,
  useItems,
  emptyIcon,
  emptyText,
  row,
}: {
  title: string;
  description: string;
  action: ReactNode;
  /** "admin-payment" names the search "admin-payment-search" and the status "admin-payment-status". */
  idPrefix: string;
  what: string;
  placeholder: string;
  /** The first is where the list opens. */
  filters: readonly F[];
  labelOf: (value: F) => string;
  useItems: (filter: AdminListFilter) => { query: ListQuery; items: T[] };
  emptyIcon: LucideIcon;
  /** What the empty list says before any search or filter. */
  emptyText: string;
  row: (item: T) => ReactNode;
}) {
  const { status, setStatus, search, isFiltered } = useListFilter<F>(filters[0] as F);
  const { query, items } = useItems({ q: search.q, status });
  return (
    <Card>
      <ListHeader title={title} description={description} action={action}>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <ListSearch
            id={`${idPrefix}-search`}
            label={`Search ${what}`}
            placeholder={placeholder}
            value={search.text}
            onChange={search.setText}
          />
          <StatusSelect
            id={`${idPrefix}-status`}
            label={`Show ${what} with status`}
            options={filters}
            labelOf={labelOf}
            value={status}
            onChange={setStatus}
          />
        </div>
      </ListHeader>
      <CardContent className="grid gap-4">
        <ListStates
          query={query}
          items={items}
          what={what}
          loadingLabel={`Loading ${what}`}
          empty={{
            icon: emptyIcon,
            title: isFiltered ? `No ${what} match` : `No ${what} yet`,
            text: isFiltered ? "Try another search or status." : emptyText,
          }}
          listClassName="-my-4"
          row={row}
        />
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

/** /admin 'Incoming Payments': incoming payments, then admin credits and every transaction. */
export default function IncomingPaymentsTab() {
  return (
    <div className="grid gap-6">
      <StatusListCard
        title="Incoming Payments"
        description="Money arriving for customers from outside, newest first"
        action={<CreateIncomingPaymentDialog />}
        idPrefix="admin-payment"
        what="incoming payments"
        placeholder="Search customer, description or sender"
        filters={PAYMENT_FILTERS}
        labelOf={paymentLabel}
        useItems={useIncomingPayments}
        emptyIcon={ArrowDownToLine}
        emptyText="Create one when money arrives for a customer; completing it credits their balance."
        row={(p) => <PaymentRow key={p.id} payment={p} />}
      />
      <StatusListCard
        title="Transactions"
        description="Every customer's transactions, newest first"
        action={
          <div className="flex flex-wrap gap-2">
            <AddIncomingTransactionDialog />
            <CreateTransactionPreviewDialog />
          </div>
        }
        idPrefix="admin-transaction"
        what="transactions"
        placeholder="Search customer or description"
        filters={TRANSACTION_FILTERS}
        labelOf={transactionLabel}
        useItems={useAdminTransactions}
        emptyIcon={ReceiptText}
        emptyText="Credits, payments and transfers of every customer appear here."
        row={(t) => <TransactionRow key={t.id} transaction={t} />}
      />
    </div>
  );
}
