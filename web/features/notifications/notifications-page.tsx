import {
  ArrowRightLeft,
  Bell,
  CheckCheck,
  FileText,
  MessagesSquare,
  ShieldAlert,
  Wallet,
} from "lucide-react";
import { useState } from "react";
import { useLocation } from "wouter";
import {
  NOTIFICATION_MESSAGES,
  type NotificationItem,
  type NotificationKind,
} from "@/contract/notifications";
import { LoadErrorNote } from "@/web/components/load-error";
import { SignedInPage } from "@/web/components/signed-in-page";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import {
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useNotifications,
} from "@/web/features/notifications/api/find-notifications";
import { cn } from "@/web/lib/cn";
import { useSignedInUser } from "@/web/lib/current-user";
import { formatDateTime } from "@/web/lib/format";
import { useDocumentTitle } from "@/web/lib/use-document-title";

const ICONS: Record<NotificationKind, typeof Bell> = {
  transfer_status: ArrowRightLeft,
  money_in: Wallet,
  security: ShieldAlert,
  chat_reply: MessagesSquare,
  statement_ready: FileText,
  account_decision: CheckCheck,
  // An icon these pages already load: a new one was folded into an icon group the landing page loads (vite.config.ts).
  money_request: ArrowRightLeft,
};

function NotificationRow({ item }: { item: NotificationItem }) {
  const [, navigate] = useLocation();
  const markRead = useMarkNotificationRead();
  const Icon = ICONS[item.kind] ?? Bell;
  const open = () => {
    if (!item.isRead) markRead.mutate(item.id);
    if (item.link) navigate(item.link);
  };
  return (
    <li>
      <button
        type="button"
        onClick={open}
        className="flex w-full gap-3 rounded-md px-2 py-3 text-left hover:bg-canvas focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <Icon className="size-4" aria-hidden />
        </span>
        <span className="grid min-w-0 flex-1 gap-0.5">
          <span className={cn("text-sm text-ink", item.isRead ? "font-normal" : "font-semibold")}>
            {item.title}
            {item.isRead ? null : <span className="sr-only"> (unread)</span>}
          </span>
          {item.body ? <span className="text-sm break-words text-ink-muted">{item.body}</span> : null}
          <time dateTime={item.createdAt} className="text-xs text-ink-subtle tabular-nums">
            {formatDateTime(item.createdAt)}
          </time>
        </span>
        {item.isRead ? null : <span aria-hidden className="mt-2 size-2 shrink-0 rounded-full bg-brand-600" />}
      </button>
    </li>
  );
}

/** /notifications: the notification centre, newest first, unread in bold, a page at a time. */
export default function NotificationsPage() {
  useDocumentTitle("Notifications");
  const user = useSignedInUser();
  const [onlyUnread, setOnlyUnread] = useState(false);
  const query = useNotifications(onlyUnread);
  const markAll = useMarkAllNotificationsRead();
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <SignedInPage
      user={user}
      back={{ href: "/dashboard", label: "Back to dashboard" }}
      title="Notifications"
      description="Transfers, money in, security, support replies and decisions on your account."
      className="max-w-3xl"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <fieldset className="flex gap-1">
          <legend className="sr-only">Show</legend>
          <Button
            variant={onlyUnread ? "ghost" : "secondary"}
            size="sm"
            aria-pressed={!onlyUnread}
            onClick={() => setOnlyUnread(false)}
          >
            All
          </Button>
          <Button
            variant={onlyUnread ? "secondary" : "ghost"}
            size="sm"
            aria-pressed={onlyUnread}
            onClick={() => setOnlyUnread(true)}
          >
            Unread
          </Button>
        </fieldset>
        <Button
          variant="secondary"
          size="sm"
          disabled={markAll.isPending}
          onClick={() =>
            markAll.mutate(undefined, {
              onSuccess: () => toast({ title: NOTIFICATION_MESSAGES.markedAllRead }),
            })
          }
        >
          <CheckCheck aria-hidden />
          Mark all as read
        </Button>
      </div>
      <Card>
        <CardContent className="grid gap-2 pt-4">
          {query.isPending ? (
            <div className="grid gap-3" role="status" aria-label="Loading notifications">
              {[0, 1, 2].map((i) => (
                <div key={i} className="flex items-center gap-3">
                  <Skeleton className="size-9 rounded-full" />
                  <Skeleton className="h-4 flex-1" />
                </div>
              ))}
            </div>
          ) : query.isError ? (
            <LoadErrorNote what="your notifications" onRetry={() => void query.refetch()} />
          ) : items.length === 0 ? (
            <p className="py-6 text-center text-sm text-ink-muted">
              {onlyUnread ? "You're all caught up." : "No notifications yet."}
            </p>
          ) : (
            <ul className="divide-y divide-line" aria-label="Notifications">
              {items.map((item) => (
                <NotificationRow key={item.id} item={item} />
              ))}
            </ul>
          )}
          {query.hasNextPage ? (
            <Button
              variant="ghost"
              size="sm"
              className="justify-self-center"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              Load older notifications
            </Button>
          ) : null}
        </CardContent>
      </Card>
    </SignedInPage>
  );
}
