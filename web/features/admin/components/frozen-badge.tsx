import { Snowflake } from "lucide-react";
import { Badge } from "@/web/components/ui/badge";
import { formatDateTime } from "@/web/lib/format";

/** "This wasn't me" froze the account at `frozenAt`; the time is in the label so a screen reader hears it too. */
export function FrozenBadge({ frozenAt, showTime = false }: { frozenAt: string; showTime?: boolean }) {
  const when = formatDateTime(frozenAt);
  return (
    <Badge tone="negative" className="whitespace-nowrap" title={`Frozen ${when}`}>
      <Snowflake className="size-3" aria-hidden />
      {showTime ? `Frozen ${when}` : "Frozen"}
      {showTime ? null : <span className="sr-only"> since {when}</span>}
    </Badge>
  );
}
