import { Eye, FileText, MessagesSquare, ShieldCheck, UserCog } from "lucide-react";
import { AUDIT_MESSAGES, type DataAccessEntry, READ_ACTIONS } from "@/contract/audit";
import { STAFF_ROLE_LABELS } from "@/contract/staff";
import { LoadErrorNote } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useDataAccess } from "@/web/features/audit/api/get-data-access";
import { formatDateTime } from "@/web/lib/format";

const ICONS = {
  [READ_ACTIONS.ssnRevealed]: Eye,
  [READ_ACTIONS.documentOpened]: FileText,
  [READ_ACTIONS.chatOpened]: MessagesSquare,
} as Record<string, typeof Eye>;

function AccessRow({ entry }: { entry: DataAccessEntry }) {
  const Icon = ICONS[entry.action] ?? UserCog;
  return (
    <li className="flex gap-3 py-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p className="text-sm font-medium text-ink">{entry.description}</p>
        <p className="text-xs text-ink-muted">
          <span>Pillar {STAFF_ROLE_LABELS[entry.role]} team</span> ·{" "}
          <time dateTime={entry.createdAt} className="tabular-nums">
            {formatDateTime(entry.createdAt)}
          </time>
        </p>
        {entry.reason ? (
          <p className="text-sm break-words text-ink-muted">
            <span className="text-ink-subtle">Reason: </span>
            {entry.reason}
          </p>
        ) : null}
      </div>
    </li>
  );
}

/** Settings → "Access to your data": each staff read of the customer's SSN, documents or chat, and staff actions. */
export function DataAccessCard() {
  const { query, items } = useDataAccess();
  return (
    <Card role="region" aria-labelledby="data-access-title">
      <CardHeader>
        <CardTitle id="data-access-title">Access to your data</CardTitle>
        <CardDescription>
          Each time our staff viewed your SSN, opened your documents or chat, or acted on your account, with
          their role and reason.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {query.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Loading access history">
            {[0, 1].map((i) => (
              <div key={i} className="flex items-center gap-3">
                <Skeleton className="size-9 rounded-full" />
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-4 w-2/3" />
                  <Skeleton className="h-3 w-1/2" />
                </div>
              </div>
            ))}
          </div>
        ) : query.isError && items.length === 0 ? (
          <LoadErrorNote what="your access history" onRetry={() => void query.refetch()} />
        ) : items.length === 0 ? (
          <p className="flex items-start gap-2 text-sm text-ink-muted">
            <ShieldCheck className="mt-0.5 size-4 shrink-0 text-positive" aria-hidden />
            {AUDIT_MESSAGES.dataAccessEmpty}
          </p>
        ) : (
          <>
            <ul className="-my-3 divide-y divide-line" aria-label="Access to your data, newest first">
              {items.map((entry) => (
                <AccessRow key={entry.id} entry={entry} />
              ))}
            </ul>
            {query.hasNextPage ? (
              <Button
                variant="secondary"
                size="sm"
                className="justify-self-start"
                disabled={query.isFetchingNextPage}
                onClick={() => query.fetchNextPage()}
              >
                {query.isFetchingNextPage
                  ? "Loading…"
                  : query.isFetchNextPageError
                    ? "Try again"
                    : "Show more"}
              </Button>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
