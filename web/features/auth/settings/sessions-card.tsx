import { Laptop, LogOut } from "lucide-react";
import type { SessionInfo } from "@/contract/auth";
import { LoadErrorNote } from "@/web/components/load-error";
import { toastApiError } from "@/web/components/toast-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import { useSessions } from "@/web/features/auth/api/get-sessions";
import { useRevokeOtherSessions } from "@/web/features/auth/api/revoke-other-sessions";
import { useRevokeSession } from "@/web/features/auth/api/revoke-session";
import { formatRelativeTime } from "@/web/lib/format";

function SessionRow({ session }: { session: SessionInfo }) {
  const revoke = useRevokeSession();
  const onRevoke = () =>
    revoke.mutate(session.id, {
      onSuccess: () => toast({ title: "Session signed out", description: session.browser }),
      onError: (error) => toastApiError(error, "Failed to sign out session"),
    });
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Laptop className="size-4" aria-hidden />
      </span>
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
          <span className="truncate">{session.browser}</span>
          {session.current ? <Badge tone="positive">This device</Badge> : null}
        </p>
        <p className="text-xs text-ink-muted">
          <span className="tabular-nums">{session.ip ?? "Unknown IP"}</span> · Last seen{" "}
          {formatRelativeTime(session.lastSeenAt)}
        </p>
      </div>
      {session.current ? null : (
        <Button
          variant="ghost"
          size="sm"
          onClick={onRevoke}
          disabled={revoke.isPending}
          aria-label={`Sign out ${session.browser}`}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

export function SessionsCard() {
  const sessions = useSessions();
  const revokeOthers = useRevokeOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  const onRevokeOthers = () =>
    revokeOthers.mutate(undefined, {
      onSuccess: () =>
        toast({ title: "Signed out other sessions", description: "Only this device stays signed in." }),
      onError: (error) => toastApiError(error, "Failed to sign out other sessions"),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Active Sessions</CardTitle>
        <CardDescription>Devices signed in to your account.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {sessions.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Loading sessions">
            {[0, 1].map((i) => (
              <div key={i} className="flex items-center gap-3">
                <Skeleton className="size-9 rounded-full" />
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-4 w-1/2" />
                  <Skeleton className="h-3 w-2/3" />
                </div>
              </div>
            ))}
          </div>
        ) : sessions.isError ? (
          <LoadErrorNote what="your sessions" onRetry={() => void sessions.refetch()} />
        ) : sessions.data.length === 0 ? (
          <p className="text-sm text-ink-muted">No active sessions.</p>
        ) : (
          <ul className="divide-y divide-line">
            {sessions.data.map((s) => (
              <SessionRow key={s.id} session={s} />
            ))}
          </ul>
        )}
        {others > 0 ? (
          <Button
            variant="secondary"
            className="sm:justify-self-start"
            onClick={onRevokeOthers}
            disabled={revokeOthers.isPending}
          >
            <LogOut aria-hidden />
            Sign out all other sessions
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
