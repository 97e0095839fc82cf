import { ChevronRight, LifeBuoy } from "lucide-react";
import { Link } from "wouter";
import { Card } from "@/web/components/ui/card";
import { useUnreadReplies } from "@/web/features/chat/api/get-unread-replies";
import { cn } from "@/web/lib/cn";

/** The dashboard's way to support, with a badge while support has replied and the user has not read it. */
export function SupportShortcut({ className }: { className?: string }) {
  const { data } = useUnreadReplies();
  const unread = data?.unreadCount ?? 0;
  const unreadText = unread === 1 ? "1 new reply from support" : `${unread} new replies from support`;

  return (
    <Card className={cn("overflow-hidden", className)}>
      <Link
        href="/contact"
        className="flex items-center gap-3 px-6 py-4 transition-colors hover:bg-brand-50/60"
      >
        <span className="relative flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <LifeBuoy className="size-5" aria-hidden />
          {unread > 0 ? (
            <span
              aria-hidden
              className="absolute -top-1 -right-1 flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-800 px-1 text-[11px] font-semibold text-white tabular-nums ring-2 ring-surface"
            >
              {unread > 99 ? "99+" : unread}
            </span>
          ) : null}
        </span>
        <span className="grid min-w-0 flex-1 gap-0.5">
          <span className="text-sm font-semibold text-ink">Contact Support</span>
          <span
            className={cn("truncate text-xs", unread > 0 ? "font-medium text-brand-700" : "text-ink-muted")}
          >
            {unread > 0 ? unreadText : "Live chat with our team"}
          </span>
        </span>
        <ChevronRight className="size-4 shrink-0 text-ink-subtle" aria-hidden />
      </Link>
    </Card>
  );
}
