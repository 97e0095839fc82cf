import { AlertCircle } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { cn } from "@/web/lib/cn";

/**
 * Fetched data's error state (STYLE: what happened and what to do): "We couldn't load {what}", then a retry.
 * `framed` puts it on its own card, for a page whose whole body failed.
 */
export function LoadError({
  what,
  onRetry,
  framed = false,
  className,
}: {
  what: string;
  onRetry: () => void;
  framed?: boolean;
  className?: string;
}) {
  const content = (
    <>
      <p className="flex items-start gap-2 text-sm text-negative" role="alert">
        <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
        We couldn't load {what}. Check your connection and try again.
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </>
  );
  return framed ? (
    <Card className={cn("grid justify-items-start gap-3 p-6", className)}>{content}</Card>
  ) : (
    <div className={cn("grid justify-items-start gap-3", className)}>{content}</div>
  );
}

/** The same inside a card's section: a tinted note, shorter, with its retry. */
export function LoadErrorNote({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-start gap-2 rounded-lg bg-negative-soft p-3 text-sm text-negative">
      <p className="flex items-center gap-2">
        <AlertCircle className="size-4" aria-hidden />
        We couldn't load {what}.
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
