import { formatMoney } from "@/contract/money";
import { cn } from "@/web/lib/cn";
import type { Direction } from "@/web/lib/transaction-display";

const SIGN: Record<Direction, string> = { in: "+", out: "−", none: "" };

/**
 * A money amount as the style guide wants it: tabular figures, a sign as well as a colour. Colour is
 * green for money in and red for money out, and only when `colored` (completed transactions only).
 */
export function Amount({
  cents,
  direction = "none",
  colored = false,
  className,
}: {
  cents: number;
  direction?: Direction;
  colored?: boolean;
  className?: string;
}) {
  const text = formatMoney(Math.abs(cents));
  const sign = direction === "none" && cents < 0 ? "−" : SIGN[direction];
  return (
    <span
      className={cn(
        "whitespace-nowrap tabular-nums",
        colored && direction === "in" && "text-positive",
        colored && direction === "out" && "text-negative",
        className,
      )}
    >
      {sign}
      {text}
    </span>
  );
}
