import * as TooltipPrimitive from "@radix-ui/react-tooltip";
import type { ComponentProps } from "react";
import { cn } from "@/web/lib/cn";

/**
 * Spec §9: delay 700 ms, skip delay 300 ms. Each tooltip carries its own provider, so the tooltip code
 * (and its positioning engine) loads only with the pages that use one, never in the landing page's bundle.
 */
export function Tooltip({ children, ...props }: ComponentProps<typeof TooltipPrimitive.Root>) {
  return (
    <TooltipPrimitive.Provider delayDuration={700} skipDelayDuration={300}>
      <TooltipPrimitive.Root {...props}>{children}</TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}
export const TooltipTrigger = TooltipPrimitive.Trigger;

export function TooltipContent({
  className,
  sideOffset = 4,
  ...props
}: ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        sideOffset={sideOffset}
        className={cn("z-50 rounded-md bg-ink px-3 py-1.5 text-xs text-white shadow-raised", className)}
        {...props}
      />
    </TooltipPrimitive.Portal>
  );
}
