import { AlertCircle, type LucideIcon } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";

/** The three designed states every fetched admin list shares: loading, error, empty. */
export function ListSkeleton({ label }: { label: string }) {
  return (
    <ul className="divide-y divide-line" aria-label={label}>
      {[0, 1, 2].map((i) => (
        <li key={i} className="flex items-center gap-4 py-4">
          <div className="grid flex-1 gap-1.5">
            <Skeleton className="h-4 w-44" />
            <Skeleton className="h-3 w-64 max-w-full" />
          </div>
          <Skeleton className="h-4 w-20" />
          <Skeleton className="h-8 w-20" />
        </li>
      ))}
    </ul>
  );
}

export function ListError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-negative">
      <p className="flex items-center gap-2">
        <AlertCircle className="size-4 shrink-0" aria-hidden />
        We couldn't load the {what}. Check your connection and try again.
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

export function ListEmpty({ icon: Icon, title, text }: { icon: LucideIcon; title: string; text: string }) {
  return (
    <div className="flex flex-col items-center gap-2 py-10 text-center">
      <Icon className="size-8 text-ink-subtle" aria-hidden />
      <p className="text-sm font-medium text-ink">{title}</p>
      <p className="max-w-sm text-sm text-ink-muted">{text}</p>
    </div>
  );
}
