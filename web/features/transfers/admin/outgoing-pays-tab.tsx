import { ArrowUpFromLine, Check, Scale, ShieldAlert, X } from "lucide-react";
import { useState } from "react";
import { formatMoney } from "@/contract/money";
import {
  type AdminTransferRequest,
  TERMINAL_TRANSFER_STATUSES,
  TRANSFER_STATUSES,
  type TransferStatus,
} from "@/contract/transfers";
import { useListFilter } from "@/web/components/admin/admin-list";
import { FinalMarker } from "@/web/components/admin/final-marker";
import { FilterBar } from "@/web/components/admin/list-controls";
import { filteredEmpty, ListHeader, ListStates } from "@/web/components/admin/list-states";
import { SignedAmount } from "@/web/components/admin/signed-amount";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import { useTransferRequests } from "@/web/features/transfers/admin/api/get-transfer-requests";
import { useUpdateTransferRequest } from "@/web/features/transfers/admin/api/update-transfer-request";
import { ReviewTransferDialog } from "@/web/features/transfers/admin/review-transfer-dialog";
import { TRANSFER_STATUS_BADGES } from "@/web/features/transfers/admin/transfer-statuses";
import { toastTransferFailed } from "@/web/features/transfers/admin/transfer-toasts";
import { cn } from "@/web/lib/cn";
import { formatDateTime } from "@/web/lib/format";

type Filter = TransferStatus | "all";

/**
 * Quick Approve and Reject appear on pending requests only. A transfer held by compliance gets neither:
 * the server refuses its release (409), and compliance clears, rejects or blocks it on the case (decision 048).
 */
function QuickActions({ request, name }: { request: AdminTransferRequest; name: string }) {
  const update = useUpdateTransferRequest();
  const [sending, setSending] = useState<"approved" | "rejected" | null>(null);
  if (request.status !== "pending") return null;
  if (request.heldByCompliance) {
    return (
      <p className="text-xs text-ink-muted lg:max-w-40 lg:text-right">Compliance decides it on the case</p>
    );
  }
  // A reported transfer: Reject stays one click; sending it goes through Review (reason, second person).
  const isHeld = request.flaggedAt !== null;
  const decide = (status: "approved" | "rejected") => {
    setSending(status);
    // mutateAsync: the refresh drops a decided request from the pending filter before mutate's own callbacks
    // (which need this row mounted) would run, and the toast must still show.
    update
      .mutateAsync({ id: request.id, input: { status, adminNotes: request.adminNotes } })
      .catch(toastTransferFailed)
      .finally(() => setSending(null));
  };
  return (
    <>
      {isHeld ? null : (
        <Button
          size="sm"
          disabled={update.isPending}
          aria-label={`Approve transfer request from ${name}`}
          onClick={() => decide("approved")}
        >
          <Check aria-hidden />
          {sending === "approved" ? "Approving…" : "Approve"}
        </Button>
      )}
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
          {request.heldByCompliance ? (
            <Badge tone="pending" className="shrink-0 gap-1">
              <Scale className="size-3" aria-hidden="true" />
              Held by compliance
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
          "lg:flex lg:items-center lg:justify-end lg:gap-2",
          request.status === "pending" && !request.heldByCompliance
            ? "grid grid-cols-3 gap-2 [&>button]:px-2 lg:[&>button]:px-3"
            : "flex items-center justify-end gap-2",
        )}
      >
        <QuickActions request={request} name={name} />
        {TERMINAL_TRANSFER_STATUSES.includes(request.status) ? <FinalMarker /> : null}
        <ReviewTransferDialog request={request} />
      </div>
    </li>
  );
}

const FILTERS = [...TRANSFER_STATUSES, "all"] as const;

/**
 * /admin 'Outgoing Pays': customers' USDC transfer requests, decided here. It opens on pending requests
 * (what needs a decision) and pages to the end with "Load more", so no request is ever out of reach.
 */
export default function OutgoingPaysTab() {
  const filter = useListFilter<Filter>("pending");
  const { query: requests, items } = useTransferRequests({ q: filter.search.q, status: filter.status });
  const label = (value: Filter) => (value === "all" ? "All" : TRANSFER_STATUS_BADGES[value].label);

  return (
    <Card>
      <ListHeader title="Outgoing Pays" description="Customers' USDC transfer requests, newest first">
        <FilterBar
          filter={filter}
          legend="Show transfer requests"
          options={FILTERS}
          labelOf={label}
          search={{
            id: "admin-transfer-search",
            label: "Search transfer requests",
            placeholder: "Search customer, recipient or address",
          }}
        />
      </ListHeader>
      <CardContent className="grid gap-4">
        <ListStates
          query={requests}
          items={items}
          what="transfer requests"
          loadingLabel="Loading transfer requests"
          empty={filteredEmpty(filter, {
            icon: ArrowUpFromLine,
            none: "No transfer requests yet",
            noMatch: "No requests match your search",
            statusLabel: label(filter.status),
            noun: "requests",
            text: "Requests appear here when customers send money out.",
          })}
          listClassName="-my-4"
          row={(r) => <TransferRow key={r.id} request={r} />}
        />
      </CardContent>
    </Card>
  );
}
