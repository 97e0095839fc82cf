import { Loader2 } from "lucide-react";
import { cn } from "@/web/lib/cn";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex">
      <Loader2 aria-hidden className={cn("size-5 animate-spin text-brand-600", className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

export function FullScreenSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-canvas">
      <Spinner className="size-8" />
    </div>
  );
}
