import type { ReactNode } from "react";
import { cn } from "@/web/lib/cn";

/** One label/value pair of a record's details (inside a dl): small grey label, the value under it. */
export function DetailField({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("grid min-w-0 gap-0.5", className)}>
      <dt className="text-xs text-ink-muted">{label}</dt>
      <dd className="text-sm break-words text-ink">{children}</dd>
    </div>
  );
}
