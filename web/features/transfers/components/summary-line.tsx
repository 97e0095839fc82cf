import type { ReactNode } from "react";

/** One label–amount row of a transfer summary (the review step and the receipt), inside a `<dl>`. */
export function SummaryLine({
  label,
  children,
  strong,
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
}) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-2">
      <dt className="text-ink-muted">{label}</dt>
      <dd
        className={
          strong ? "text-right font-semibold text-ink tabular-nums" : "text-right text-ink tabular-nums"
        }
      >
        {children}
      </dd>
    </div>
  );
}
