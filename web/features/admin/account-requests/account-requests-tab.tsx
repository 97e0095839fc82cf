import { AlertCircle, Landmark } from "lucide-react";
import { useMemo, useState } from "react";
import type { AdminAccountRequest } from "@/contract/admin-onboarding";
import { ACCOUNT_REQUEST_STATUSES, type AccountRequestStatus } from "@/contract/kyc";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useAccountRequests } from "@/web/features/admin/account-requests/api/get-account-requests";
import {
  ACCOUNT_REQUEST_STATUS_LABELS,
  ManageAccountRequestDialog,
} from "@/web/features/admin/account-requests/manage-account-request-dialog";
import { cn } from "@/web/lib/cn";
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

/** Spec §2 /admin 'Account Requests' tab: every checking-account request, each managed in a dialog. */
export default function AccountRequestsTab() {
  const requests = useAccountRequests();
  const [filter, setFilter] = useState<Filter>("all");
  const counts = useMemo(() => {
    const all = requests.data ?? [];
    const result: Record<Filter, number> = {
      all: all.length,
      pending: 0,
      in_review: 0,
      approved: 0,
      rejected: 0,
    };
    for (const r of all) result[r.status] += 1;
    return result;
  }, [requests.data]);
  const visible = (requests.data ?? []).filter((r) => filter === "all" || r.status === filter);
  const label = (value: Filter) => (value === "all" ? "All" : ACCOUNT_REQUEST_STATUS_LABELS[value]);

  return (
    <Card>
      <CardHeader className="gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="grid gap-1">
          <CardTitle>Account Requests</CardTitle>
          <CardDescription>
            {requests.data ? (
              <span className="tabular-nums">
                {counts.pending + counts.in_review} awaiting a decision · {counts.all} in all
              </span>
            ) : (
              "Checking-account applications"
            )}
          </CardDescription>
        </div>
        <fieldset className="flex flex-wrap gap-1">
          <legend className="sr-only">Show requests</legend>
          {(["all", ...ACCOUNT_REQUEST_STATUSES] as const).map((value) => (
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
          <div className="flex flex-col items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-negative">
            <p className="flex items-center gap-2">
              <AlertCircle className="size-4" aria-hidden />
              We couldn't load the account requests. Check your connection and try again.
            </p>
            <Button variant="secondary" size="sm" onClick={() => requests.refetch()}>
              Try again
            </Button>
          </div>
        ) : visible.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-10 text-center">
            <Landmark className="size-8 text-ink-subtle" aria-hidden />
            <p className="text-sm font-medium text-ink">
              {counts.all === 0 ? "No account requests yet" : `No ${label(filter).toLowerCase()} requests`}
            </p>
            <p className="text-sm text-ink-muted">
              {counts.all === 0
                ? "Requests appear here when customers apply for a checking account."
                : "Choose another filter to see the rest."}
            </p>
          </div>
        ) : (
          <ul className="-my-4 divide-y divide-line">
            {visible.map((r) => (
              <RequestRow key={r.id} request={r} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
