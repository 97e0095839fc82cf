import { useEffect, useState } from "react";
import { Badge } from "@/web/components/ui/badge";
import { isSupportOpen } from "@/web/features/chat/support-hours";

const RECHECK_MS = 60_000;

/** Whether support is staffed now, re-checked every minute while the page is open. */
export function useSupportOpen(): boolean {
  const [isOpen, setOpen] = useState(() => isSupportOpen(new Date()));
  useEffect(() => {
    const timer = setInterval(() => setOpen(isSupportOpen(new Date())), RECHECK_MS);
    return () => clearInterval(timer);
  }, []);
  return isOpen;
}

/** The Live Chat badge: 'Online' only during the support hours the page states. */
export function SupportStatusBadge({ isOpen }: { isOpen: boolean }) {
  return isOpen ? (
    <Badge tone="positive">
      <span className="size-1.5 rounded-full bg-positive" aria-hidden />
      Online
    </Badge>
  ) : (
    <Badge tone="neutral">
      <span className="size-1.5 rounded-full bg-ink-subtle" aria-hidden />
      Offline
    </Badge>
  );
}
