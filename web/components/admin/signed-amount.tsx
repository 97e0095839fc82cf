import { formatMoney } from "@/contract/money";
import { cn } from "@/web/lib/cn";

/**
 * A list amount as the style guide wants it: tabular figures with a sign as well as a colour. Colour
 * only once the money has moved (green incoming / red outgoing, only when completed).
 */
export function SignedAmount({
  cents,
  direction,
  isSettled,
  className,
}: {
  cents: number;
  direction: "in" | "out";
  isSettled: boolean;
  className?: string;
}) {
  return (
    <span
      className={cn(
        "whitespace-nowrap font-semibold tabular-nums",
        isSettled ? (direction === "in" ? "text-positive" : "text-negative") : "text-ink",
        className,
      )}
    >
      {direction === "in" ? "+" : "−"}
      {formatMoney(Math.abs(cents))}
    </span>
  );
}
