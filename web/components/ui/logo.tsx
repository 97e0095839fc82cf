import type { ComponentProps } from "react";
import { BRAND } from "@/contract/brand";
import { cn } from "@/web/lib/cn";

/** The brand mark: three columns under a pediment, drawn inline so it needs no download. */
export function LogoMark({ className, ...props }: ComponentProps<"svg">) {
  return (
    <svg
      viewBox="0 0 32 32"
      aria-hidden
      focusable="false"
      className={cn("size-8 shrink-0", className)}
      {...props}
    >
      <rect width="32" height="32" rx="8" className="fill-brand-800" />
      <path d="M16 6.5 25 11H7z" className="fill-white" />
      <rect x="9" y="13" width="3" height="9" rx="0.75" className="fill-white" />
      <rect x="14.5" y="13" width="3" height="9" rx="0.75" className="fill-white" />
      <rect x="20" y="13" width="3" height="9" rx="0.75" className="fill-white" />
      <rect x="7" y="23.5" width="18" height="2.5" rx="0.75" className="fill-brand-200" />
    </svg>
  );
}

export type LogoProps = ComponentProps<"span"> & {
  /** `inverse` sets the word mark in white for dark backgrounds. */
  tone?: "default" | "inverse";
};

/** Mark plus word mark. The name comes from the one brand constant. */
export function Logo({ className, tone = "default", ...props }: LogoProps) {
  return (
    <span className={cn("inline-flex items-center gap-2", className)} {...props}>
      <LogoMark />
      <span
        className={cn("text-lg font-semibold tracking-tight", tone === "inverse" ? "text-white" : "text-ink")}
      >
        {BRAND.name}
      </span>
    </span>
  );
}
