import { Snowflake } from "lucide-react";
import { Badge } from "@/web/components/ui/badge";
import { formatDateTime } from "@/web/lib/format";

/**
 * "This wasn't me" froze the account at `frozenAt`. In a list row (`timeOnWideOnly`) a phone shows the word
 * alone so the row's buttons keep their room; screen readers hear the time either way.
 */
export function FrozenBadge({
  frozenAt,
  timeOnWideOnly = false,
}: {
  frozenAt: string;
  timeOnWideOnly?: boolean;
}) {
  const when = formatDateTime(frozenAt);
  return (
    <Badge tone="negative" className="whitespace-nowrap" title={`Frozen ${when}`}>
      <Snowflake className="size-3" aria-hidden="true" />
      Frozen
      {timeOnWideOnly ? (
        <>
          <span className="hidden md:inline"> {when}</span>
          <span className="sr-only md:hidden"> since {when}</span>
        </>
      ) : (
        <span> {when}</span>
      )}
    </Badge>
  );
}
