import type { ComponentProps } from "react";
import { cn } from "@/web/lib/cn";

/** The page column: one max width and one set of side gutters, so every section lines up. */
export function Container({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8", className)} {...props} />;
}
