import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_MESSAGES,
  type NotificationPreference,
} from "@/contract/notifications";
import { LoadErrorNote } from "@/web/components/load-error";
import { toastApiError } from "@/web/components/toast-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Switch } from "@/web/components/ui/switch";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";

const PREFERENCES_KEY = ["/api/notifications/preferences"] as const;

/** Settings → Notifications: per kind, in the app and by e-mail; security e-mails stay on. */
export function NotificationSettingsCard() {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: PREFERENCES_KEY,
    queryFn: ({ signal }) => callEndpoint("GET /api/notifications/preferences", {}, { signal }),
  });
  const save = useMutation({
    mutationFn: (choice: NotificationPreference) =>
      callEndpoint("PUT /api/notifications/preferences", { body: choice }),
    onSuccess: (next) => {
      client.setQueryData(PREFERENCES_KEY, next);
      toast({ title: NOTIFICATION_MESSAGES.preferencesSaved });
    },
    onError: (error) => toastApiError(error, "Settings not saved"),
  });
  return (
    <Card role="region" aria-labelledby="notification-settings-title">
      <CardHeader>
        <CardTitle id="notification-settings-title">Notifications</CardTitle>
        <CardDescription>
          Choose how we tell you about each kind of event. Security e-mails always go out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Loading notification settings">
            <Skeleton className="h-6" />
            <Skeleton className="h-6" />
          </div>
        ) : query.isError ? (
          <LoadErrorNote what="your notification settings" onRetry={() => void query.refetch()} />
        ) : (
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-xs text-ink-muted">
                <th scope="col" className="py-2 font-medium">
                  Kind
                </th>
                <th scope="col" className="w-20 py-2 text-center font-medium">
                  In app
                </th>
                <th scope="col" className="w-20 py-2 text-center font-medium">
                  E-mail
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {query.data.map((p) => {
                const label = NOTIFICATION_KIND_LABELS[p.kind];
                return (
                  <tr key={p.kind}>
                    <th scope="row" className="py-3 text-left font-normal text-ink">
                      {label}
                    </th>
                    <td className="py-3 text-center">
                      <Switch
                        aria-label={`${label} in the app`}
                        checked={p.inApp}
                        disabled={save.isPending}
                        onCheckedChange={(inApp) => save.mutate({ kind: p.kind, inApp, email: p.email })}
                      />
                    </td>
                    <td className="py-3 text-center">
                      <Switch
                        aria-label={p.emailLocked ? `${label} by e-mail (always on)` : `${label} by e-mail`}
                        checked={p.email}
                        disabled={p.emailLocked || save.isPending}
                        onCheckedChange={(email) => save.mutate({ kind: p.kind, inApp: p.inApp, email })}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}
