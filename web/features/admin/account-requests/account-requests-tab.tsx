import { Landmark } from "lucide-react";
import { useState } from "react";
import type { AdminAccountRequest } from "@/contract/admin-onboarding";
import { ACCOUNT_REQUEST_STATUSES, type AccountRequestStatus } from "@/contract/kyc";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useAccountRequests } from "@/web/features/admin/account-requests/api/get-account-requests";
import {
  ACCOUNT_REQUEST_STATUS_LABELS,
  ManageAccountRequestDialog,
} from "@/web/features/admin/account-requests/manage-account-request-dialog";
import { useSearch } from "@/web/features/admin/lists/admin-list";
import { ListSearch, LoadMore, StatusFilter } from "@/web/features/admin/lists/list-controls";
import { ListEmpty, ListError } from "@/web/features/admin/payments/list-states";
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
 * Spec §2 /admin 'Account Requests' tab: checking-account requests, each managed in a dialog. Searched and
 * filtered on the server, a page at a time ("Load more").
 */
export default function AccountRequestsTab() {
  const [filter, setFilter] = useState<Filter>("all");
  const search = useSearch();
  const { query: requests, items } = useAccountRequests({ q: search.q, status: filter });
  const label = (value: Filter) => (value === "all" ? "All" : ACCOUNT_REQUEST_STATUS_LABELS[value]);
  const isFiltered = filter !== "all" || search.q !== "";

  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="grid gap-1">
          <CardTitle>Account Requests</CardTitle>
          <CardDescription>Checking-account applications, newest first</CardDescription>
        </div>
        <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
          <StatusFilter
            legend="Show requests"
            options={["all", ...ACCOUNT_REQUEST_STATUSES] as const}
            labelOf={label}
            value={filter}
            onChange={setFilter}
          />
          <ListSearch
            id="admin-account-request-search"
            label="Search account requests"
            placeholder="Search name, email or account"
            value={search.text}
            onChange={search.setText}
          />
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {requests.isPending ? (
          <ul className="divide-y divide-line" aria-label="Loading account requests">
            {[0, 1, 2].map((i) => (
              <li key={i} className="flex items-center gap-4 py-4">
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-4 w-44" />
                  <Skeleton className="h-3 w-64 max-w-full" />
                </div>
                <Skeleton className="h-5 w-16 rounded-full" />
                <Skeleton className="h-8 w-24" />
              </li>
            ))}
          </ul>
        ) : requests.isError ? (
          <ListError what="account requests" onRetry={() => requests.refetch()} />
        ) : items.length === 0 ? (
          <ListEmpty
            icon={Landmark}
            title={
              !isFiltered
                ? "No account requests yet"
                : search.q
                  ? "No requests match your search"
                  : `No ${label(filter).toLowerCase()} requests`
            }
            text={
              !isFiltered
                ? "Requests appear here when customers apply for a checking account."
                : "Choose another filter to see the rest."
            }
          />
        ) : (
          <>
            <ul className="-my-4 divide-y divide-line">
              {items.map((r) => (
                <RequestRow key={r.id} request={r} />
              ))}
            </ul>
            <LoadMore query={requests} what="account requests" />
          </>
        )}
      </CardContent>
    </Card>
  );
}
