import { ArrowDownLeft, ArrowUpRight, Download, Receipt, Search } from "lucide-react";
import { type ReactNode, useMemo, useState } from "react";
import { Link } from "wouter";
import { formatMoney } from "@/contract/money";
import {
  CATEGORIES,
  type Category,
  OWN_ACCOUNTS_CATEGORY,
  OWN_ACCOUNTS_LABEL,
} from "@/contract/transaction-categories";
import type { Transaction } from "@/contract/transactions";
import { isUnsentTransfer, UNSENT_SHORT } from "@/contract/transfer-figures";
import { Amount } from "@/web/components/amount";
import { LoadError } from "@/web/components/load-error";
import { NativeSelect } from "@/web/components/native-select";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import {
  filterTransactions,
  matchCountText,
  STATUS_FILTERS,
  type StatusFilter,
  type TransactionFilters,
  TYPE_FILTERS,
  type TypeFilter,
} from "@/web/features/accounts/filter-transactions";
import { hrefOf } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { formatDateTime } from "@/web/lib/format";
import { useRecentTransactions } from "@/web/lib/recent-transactions";
import { confirmationDepth, directionOf, STATUS_VIEW } from "@/web/lib/transaction-display";

const STATUS_LABELS: Record<StatusFilter, string> = {
  all: "All statuses",
  completed: "Completed",
  pending: "Pending",
  processing: "Processing",
  failed: "Failed",
};
const TYPE_LABELS: Record<TypeFilter, string> = {
  all: "All types",
  incoming: "Incoming",
  outgoing: "Outgoing",
};

const categoryLabel = (category: string) =>
  category === OWN_ACCOUNTS_CATEGORY
    ? OWN_ACCOUNTS_LABEL
    : (CATEGORIES[category as Category]?.label ?? CATEGORIES.other.label);

/**
 * The on-chain transaction, shortened (0x1234…abcd), linked to the explorer when one is configured, and how many
 * blocks confirm it.
 */
function ChainHash({ tx, hash }: { tx: Transaction; hash: string }) {
  const url = tx.chainTxUrl ?? null;
  const short = <code className="font-mono">{`${hash.slice(0, 6)}…${hash.slice(-4)}`}</code>;
  const required = tx.chainConfirmationsRequired;
  const depth =
    required && tx.chainConfirmations != null ? confirmationDepth(tx.chainConfirmations, required) : null;
  return (
    <p className="text-xs text-ink-muted" title={hash}>
      Transaction{" "}
      {url ? (
        <a
          href={url}
          target="_blank"
          rel="noreferrer"
          className="text-brand-700 underline-offset-2 hover:underline"
        >
          {short}
          <span className="sr-only"> {hash}, opens the block explorer</span>
        </a>
      ) : (
        <>
          {short}
          <span className="sr-only"> {hash}</span>
        </>
      )}
      {depth ? (
        <>
          <span aria-hidden> · </span>
          <span className="sr-only">, </span>
          {tx.chainConfirmations === 0 ? depth : `${depth} confirmations`}
        </>
      ) : null}
    </p>
  );
}

function TransactionRow({ tx }: { tx: Transaction }) {
  const direction = directionOf(tx.type);
  const status = STATUS_VIEW[tx.status];
  const isCompleted = tx.status === "completed";
  const isUnsent = direction === "out" && isUnsentTransfer(tx.status);
  const Icon = direction === "out" ? ArrowUpRight : ArrowDownLeft;
  return (
    <li className="flex items-start gap-3 py-4">
      <span
        className={cn(
          "mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full",
          !isCompleted
            ? "bg-canvas text-ink-subtle"
            : direction === "out"
              ? "bg-negative-soft text-negative"
              : "bg-positive-soft text-positive",
        )}
      >
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate text-sm font-medium text-ink">
          {tx.transferRequestId ? (
            <Link href={`/transfers/${tx.transferRequestId}`} className="hover:underline">
              {tx.description}
            </Link>
          ) : (
            tx.description
          )}
        </p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-ink-muted">
          <time dateTime={tx.date}>{formatDateTime(tx.date)}</time>
          <span aria-hidden>·</span>
          <span>{categoryLabel(tx.category)}</span>
          <Badge tone={status.tone}>{status.label}</Badge>
        </p>
        {isUnsent ? <p className="text-xs text-ink-muted">{UNSENT_SHORT}</p> : null}
        {tx.chainTxHash ? <ChainHash tx={tx} hash={tx.chainTxHash} /> : null}
      </div>
      <div className="grid shrink-0 justify-items-end gap-0.5 text-right">
        <Amount
          cents={tx.amountCents}
          direction={direction}
          colored={isCompleted}
          className={cn("text-sm font-semibold", !isCompleted && "text-ink")}
        />
        {/* A failed or cancelled transfer charged nothing: its fee and net were never taken or sent. */}
        {!isUnsent && tx.feeCents > 0 ? (
          <span className="text-xs text-ink-muted tabular-nums">Fee: {formatMoney(tx.feeCents)}</span>
        ) : null}
        {!isUnsent && tx.netAmountCents !== tx.amountCents ? (
          <span className="text-xs text-ink-muted tabular-nums">Net: {formatMoney(tx.netAmountCents)}</span>
        ) : null}
      </div>
    </li>
  );
}

function ListSkeleton() {
  return (
    <ul aria-hidden className="divide-y divide-line">
      {[0, 1, 2, 3].map((i) => (
        <li key={i} className="flex items-center gap-3 py-4">
          <Skeleton className="size-9 rounded-full" />
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-48 max-w-full" />
            <Skeleton className="h-3 w-32" />
          </div>
          <Skeleton className="h-4 w-20" />
        </li>
      ))}
    </ul>
  );
}

function EmptyState({ text, hint }: { text: string; hint?: string }) {
  return (
    <div className="flex flex-col items-center gap-2 py-10 text-center">
      <span className="flex size-11 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Receipt className="size-5" aria-hidden />
      </span>
      <p className="text-sm font-medium text-ink">{text}</p>
      {hint ? <p className="text-xs text-ink-muted">{hint}</p> : null}
    </div>
  );
}

/** The payments history with search, status and type filters, polled every 5 s. */
export function PaymentsHistory({ title }: { title: string }) {
  const transactions = useRecentTransactions({ poll: true });
  const [filters, setFilters] = useState<TransactionFilters>({ search: "", status: "all", type: "all" });
  const visible = useMemo(
    () => (transactions.data ? filterTransactions(transactions.data, filters) : []),
    [transactions.data, filters],
  );
  const isFiltered = filters.search.trim() !== "" || filters.status !== "all" || filters.type !== "all";

  let body: ReactNode;
  if (transactions.isPending) {
    body = <ListSkeleton />;
  } else if (transactions.isError && !transactions.data) {
    body = (
      <LoadError what="your transactions" onRetry={() => void transactions.refetch()} className="py-6" />
    );
  } else if (transactions.data.length === 0) {
    body = <EmptyState text="No transactions yet" hint="Money you receive or send will show up here." />;
  } else if (visible.length === 0) {
    body = <EmptyState text="No transactions found matching your filters" />;
  } else {
    body = (
      <ul className="divide-y divide-line">
        {visible.map((tx) => (
          <TransactionRow key={tx.id} tx={tx} />
        ))}
      </ul>
    );
  }

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle>{title}</CardTitle>
          <CardDescription>Payments history · updates automatically</CardDescription>
        </div>
        <Button asChild variant="secondary" size="sm">
          <a href={hrefOf("GET /api/transactions/export.csv", {})} download>
            <Download aria-hidden />
            Download CSV
          </a>
        </Button>
      </CardHeader>
      <CardContent className="grid gap-2">
        <div className="grid gap-3 sm:grid-cols-[1fr_11rem_10rem]">
          <div className="relative">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-subtle"
              aria-hidden
            />
            <Input
              type="search"
              name="search"
              aria-label="Search transactions"
              placeholder="Search description or amount"
              className="pl-9"
              value={filters.search}
              onChange={(e) => setFilters((f) => ({ ...f, search: e.target.value }))}
            />
          </div>
          <NativeSelect
            name="status"
            aria-label="Filter by status"
            value={filters.status}
            onChange={(e) => setFilters((f) => ({ ...f, status: e.target.value as StatusFilter }))}
          >
            {STATUS_FILTERS.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </NativeSelect>
          <NativeSelect
            name="type"
            aria-label="Filter by type"
            value={filters.type}
            onChange={(e) => setFilters((f) => ({ ...f, type: e.target.value as TypeFilter }))}
          >
            {TYPE_FILTERS.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div aria-live="polite" className="sr-only">
          {isFiltered && transactions.data ? matchCountText(visible.length) : ""}
        </div>
        {body}
      </CardContent>
    </Card>
  );
}
