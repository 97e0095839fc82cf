import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { inputClassName } from "@/web/components/ui/input";
import { cn } from "@/web/lib/cn";

/** A native select in the input's look: keyboard, screen reader and phone pickers behave as users expect. */
export function NativeSelect({ className, children, ...props }: ComponentProps<"select">) {
  return (
    <div className={cn("relative", className)}>
      <select className={cn(inputClassName, "appearance-none pr-9")} {...props}>
        {children}
      </select>
      <ChevronDown
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-ink-subtle"
        aria-hidden
      />
    </div>
  );
}
