import { ArrowUpFromLine, Check, ShieldAlert, X } from "lucide-react";
import { useMemo, useState } from "react";
import { formatMoney } from "@/contract/money";
import { type AdminTransferRequest, TRANSFER_STATUSES, type TransferStatus } from "@/contract/transfers";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { ListEmpty, ListError, ListSkeleton } from "@/web/features/admin/payments/list-states";
import { SignedAmount } from "@/web/features/admin/payments/signed-amount";
import { useTransferRequests } from "@/web/features/admin/transfers/api/get-transfer-requests";
import { useUpdateTransferRequest } from "@/web/features/admin/transfers/api/update-transfer-request";
import { ReviewTransferDialog } from "@/web/features/admin/transfers/review-transfer-dialog";
import { TRANSFER_STATUS_BADGES } from "@/web/features/admin/transfers/transfer-statuses";
import { toastTransferFailed, toastTransferUpdated } from "@/web/features/admin/transfers/transfer-toasts";
import { cn } from "@/web/lib/cn";
import { formatDateTime } from "@/web/lib/format";

type Filter = TransferStatus | "all";

/** Spec §4: Quick Approve and Reject appear on pending requests only. */
function QuickActions({ request, name }: { request: AdminTransferRequest; name: string }) {
  const update = useUpdateTransferRequest();
  const [sending, setSending] = useState<"approved" | "rejected" | null>(null);
  if (request.status !== "pending") return null;
  const decide = (status: "approved" | "rejected") => {
    setSending(status);
    update.mutate(
      { id: request.id, input: { status, adminNotes: request.adminNotes } },
      { onSuccess: toastTransferUpdated, onError: toastTransferFailed, onSettled: () => setSending(null) },
    );
  };
  return (
    <>
      <Button
        size="sm"
        disabled={update.isPending}
        aria-label={`Approve transfer request from ${name}`}
        onClick={() => decide("approved")}
      >
        <Check aria-hidden />
        {sending === "approved" ? "Approving…" : "Approve"}
      </Button>
      <Button
        size="sm"
        variant="secondary"
        className="text-negative"
        disabled={update.isPending}
        aria-label={`Reject transfer request from ${name}`}
        onClick={() => decide("rejected")}
      >
        <X aria-hidden />
        {sending === "rejected" ? "Rejecting…" : "Reject"}
      </Button>
    </>
  );
}

function TransferRow({ request }: { request: AdminTransferRequest }) {
  const name = request.user ? `${request.user.firstName} ${request.user.lastName}` : "Deleted user";
  const badge = TRANSFER_STATUS_BADGES[request.status];
  return (
    <li className="grid gap-3 py-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)_8.5rem_19.5rem] lg:items-center lg:gap-5">
      <div className="grid min-w-0 gap-0.5">
        <div className="flex min-w-0 items-center gap-2">
          <p className="truncate text-sm font-medium text-ink">{name}</p>
          {request.flaggedAt ? (
            <Badge
              tone="negative"
              className="shrink-0 gap-1"
              title={`Flagged ${formatDateTime(request.flaggedAt)}`}
            >
              <ShieldAlert className="size-3" aria-hidden="true" />
              Flagged<span className="sr-only">: the customer reported "This wasn't me"</span>
            </Badge>
          ) : null}
        </div>
        <p className="truncate text-xs text-ink-muted">
          {request.user?.email ?? "—"} · {formatDateTime(request.createdAt)}
        </p>
      </div>
      <div className="grid min-w-0 gap-0.5">
        <p className="truncate text-sm text-ink">
          To {request.recipientName} <span className="text-ink-muted">· {request.purpose}</span>
        </p>
        <p className="truncate font-mono text-xs text-ink-subtle" title={request.cryptoAddress}>
          {request.paymentMethod === "crypto"
            ? request.cryptoAddress
            : `ACH ${request.recipientAccount ?? ""}`}
        </p>
      </div>
      <div className="flex items-center justify-between gap-3 lg:grid lg:justify-items-end lg:gap-0.5">
        <Badge tone={badge.tone} className="lg:order-2">
          {badge.label}
        </Badge>
        <div className="grid justify-items-end lg:order-1">
          <SignedAmount
            cents={request.amountCents}
            direction="out"
            isSettled={request.status === "completed"}
          />
          <span className="text-xs text-ink-subtle tabular-nums">fee {formatMoney(request.feeCents)}</span>
        </div>
      </div>
      <div
        className={cn(
          "lg:flex lg:justify-end lg:gap-2",
          request.status === "pending"
            ? "grid grid-cols-3 gap-2 [&>button]:px-2 lg:[&>button]:px-3"
            : "flex justify-end",
        )}
      >
        <QuickActions request={request} name={name} />
        <ReviewTransferDialog request={request} />
      </div>
    </li>
  );
}

/** Spec §2 /admin 'Outgoing Pays': customers' USDC transfer requests, decided here. */
export default function OutgoingPaysTab() {
  const requests = useTransferRequests();
  const [filter, setFilter] = useState<Filter>("all");
  const counts = useMemo(() => {
    const result = { all: 0, pending: 0, processing: 0, completed: 0, failed: 0, cancelled: 0 };
    for (const r of requests.data ?? []) {
      result.all += 1;
      result[r.status] += 1;
    }
    return result;
  }, [requests.data]);
  const visible = (requests.data ?? []).filter((r) => filter === "all" || r.status === filter);
  const label = (value: Filter) => (value === "all" ? "All" : TRANSFER_STATUS_BADGES[value].label);

  return (
    <Card>
      <CardHeader className="gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="grid gap-1">
          <CardTitle>Outgoing Pays</CardTitle>
          <CardDescription>
            {requests.data ? (
              <span className="tabular-nums">
                {counts.pending} awaiting approval · {counts.all} in all
              </span>
            ) : (
              "Customers' USDC transfer requests"
            )}
          </CardDescription>
        </div>
        <fieldset className="flex flex-wrap gap-1">
          <legend className="sr-only">Show transfer requests</legend>
          {(["all", ...TRANSFER_STATUSES] as const).map((value) => (
            <Button
              key={value}
              size="sm"
              variant={filter === value ? "primary" : "ghost"}
              aria-pressed={filter === value}
              onClick={() => setFilter(value)}
            >
              {label(value)}
              <span className={cn("tabular-nums", filter === value ? "text-white/80" : "text-ink-subtle")}>
                {counts[value]}
              </span>
            </Button>
          ))}
        </fieldset>
      </CardHeader>
      <CardContent>
        {requests.isPending ? (
          <ListSkeleton label="Loading transfer requests" />
        ) : requests.isError ? (
          <ListError what="transfer requests" onRetry={() => requests.refetch()} />
        ) : visible.length === 0 ? (
          <ListEmpty
            icon={ArrowUpFromLine}
            title={
              counts.all === 0 ? "No transfer requests yet" : `No ${label(filter).toLowerCase()} requests`
            }
            text={
              counts.all === 0
                ? "Requests appear here when customers send money out."
                : "Choose another filter to see the rest."
            }
          />
        ) : (
          <ul className="-my-4 divide-y divide-line">
            {visible.map((r) => (
              <TransferRow key={r.id} request={r} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
