import { useQuery } from "@tanstack/react-query";
import { Bell } from "lucide-react";
import { Link } from "wouter";
import { UNREAD_NOTIFICATIONS_CAP } from "@/contract/notification-cap";
import { Button } from "@/web/components/ui/button";
import { callEndpoint } from "@/web/lib/api";
import { livePoll } from "@/web/lib/live-updates";

export const UNREAD_NOTIFICATIONS_KEY = ["/api/notifications/unread"] as const;
/** Only while the pushed stream is down (decision 034): a new notification arrives as a notice. */
const UNREAD_NOTIFICATIONS_POLL_MS = 10_000;

/** The top bar's bell: the unread count, linking to /notifications. On every signed-in customer page. */
export function NotificationBell() {
  const { data } = useQuery({
    queryKey: UNREAD_NOTIFICATIONS_KEY,
    queryFn: ({ signal }) => callEndpoint("GET /api/notifications/unread", {}, { signal }),
    refetchInterval: livePoll(UNREAD_NOTIFICATIONS_POLL_MS),
  });
  const unread = data?.unread ?? 0;
  // The server counts up to the cap (decision 066): from there the badge and the label say "99+".
  const shown = unread >= UNREAD_NOTIFICATIONS_CAP ? `${UNREAD_NOTIFICATIONS_CAP - 1}+` : String(unread);
  const label = unread > 0 ? `Notifications, ${shown} unread` : "Notifications";
  return (
    <Button asChild variant="ghost" size="sm" className="relative">
      <Link href="/notifications" aria-label={label} title={label}>
        <Bell aria-hidden />
        {unread > 0 ? (
          <span
            aria-hidden
            className="absolute -top-0.5 right-0.5 min-w-4 rounded-full bg-brand-600 px-1 text-center text-[10px] leading-4 font-semibold text-white tabular-nums"
          >
            {shown}
          </span>
        ) : null}
      </Link>
    </Button>
  );
}
