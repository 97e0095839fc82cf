import { Landmark } from "lucide-react";
import type { AdminAccountRequest } from "@/contract/admin-onboarding";
import { ACCOUNT_REQUEST_STATUSES, type AccountRequestStatus } from "@/contract/kyc";
import { useListFilter } from "@/web/components/admin/admin-list";
import { FilterBar } from "@/web/components/admin/list-controls";
import { filteredEmpty, ListHeader, ListStates } from "@/web/components/admin/list-states";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Card, CardContent } from "@/web/components/ui/card";
import { useAccountRequests } from "@/web/features/kyc/admin/api/get-account-requests";
import {
  ACCOUNT_REQUEST_STATUS_LABELS,
  ManageAccountRequestDialog,
} from "@/web/features/kyc/admin/manage-account-request-dialog";
import { formatDate } from "@/web/lib/format";

type Filter = AccountRequestStatus | "all";

const STATUS_TONES: Record<AccountRequestStatus, NonNullable<BadgeProps["tone"]>> = {
  pending: "pending",
  in_review: "pending",
  approved: "positive",
  rejected: "negative",
};

function RequestRow({ request }: { request: AdminAccountRequest }) {
  const name = `${request.user.firstName} ${request.user.lastName}`;
  return (
    <li className="grid gap-3 py-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_minmax(0,1fr)_auto] md:items-center md:gap-4">
      <div className="grid min-w-0 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
          <span className="truncate">{name}</span>
          <Badge tone={request.accountType === "business" ? "brand" : "neutral"}>
            {request.accountType === "business" ? "Business" : "Personal"}
          </Badge>
          {request.isCurrent ? null : <Badge tone="neutral">Superseded</Badge>}
        </p>
        <p className="truncate text-xs text-ink-muted">
          {request.user.email} · requested {formatDate(request.createdAt)}
        </p>
      </div>
      <div className="grid min-w-0 gap-0.5 text-xs">
        {request.accountNumber ? (
          <p className="text-ink tabular-nums">
            <span className="text-ink-muted">Account </span>
            {request.accountNumber}
            <span className="text-ink-muted"> · Routing </span>
            {request.routingNumber}
          </p>
        ) : (
          <p className="text-ink-muted">No account number yet</p>
        )}
        {request.statusMessage ? <p className="truncate text-ink-muted">“{request.statusMessage}”</p> : null}
      </div>
      <div>
        <Badge tone={STATUS_TONES[request.status]}>{ACCOUNT_REQUEST_STATUS_LABELS[request.status]}</Badge>
      </div>
      <div className="flex md:justify-end">
        {request.isCurrent ? <ManageAccountRequestDialog request={request} /> : null}
      </div>
    </li>
  );
}

/**
 * /admin 'Account Requests' tab: checking-account requests, each managed in a dialog. Searched and
 * filtered on the server, a page at a time ("Load more").
 */
export default function AccountRequestsTab() {
  const filter = useListFilter<Filter>("all");
  const { query: requests, items } = useAccountRequests({ q: filter.search.q, status: filter.status });
  const label = (value: Filter) => (value === "all" ? "All" : ACCOUNT_REQUEST_STATUS_LABELS[value]);

  return (
    <Card>
      <ListHeader title="Account Requests" description="Checking-account applications, newest first">
        <FilterBar
          filter={filter}
          legend="Show requests"
          options={["all", ...ACCOUNT_REQUEST_STATUSES] as const}
          labelOf={label}
          search={{
            id: "admin-account-request-search",
            label: "Search account requests",
            placeholder: "Search name, email or account",
          }}
        />
      </ListHeader>
      <CardContent className="grid gap-4">
        <ListStates
          query={requests}
          items={items}
          what="account requests"
          loadingLabel="Loading account requests"
          empty={filteredEmpty(filter, {
            icon: Landmark,
            none: "No account requests yet",
            noMatch: "No requests match your search",
            statusLabel: label(filter.status),
            noun: "requests",
            text: "Requests appear here when customers apply for a checking account.",
          })}
          listClassName="-my-4"
          row={(r) => <RequestRow key={r.id} request={r} />}
        />
      </CardContent>
    </Card>
  );
}
