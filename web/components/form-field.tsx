import type { ReactNode } from "react";
import { Label } from "@/web/components/ui/label";
import { cn } from "@/web/lib/cn";

/** The ids a control names in aria-describedby: its hint and its error, when shown. */
export function describedBy(id: string, { hint, error }: { hint?: unknown; error?: unknown }) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

/** aria-invalid and aria-describedby for the control of the FormField `id`: it is invalid while it has an error. */
export function fieldAria(id: string, { hint, error }: { hint?: unknown; error?: unknown }) {
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(id, { hint, error }),
  } as const;
}

/**
 * Brings a field in error to the middle of the screen and focuses it, so neither the toast (top or
 * bottom of a phone screen) nor the keyboard hides it.
 */
export function focusFieldInError(id: string) {
  requestAnimationFrame(() => {
    const field = document.getElementById(id);
    if (!field) return;
    field.scrollIntoView({ block: "center" });
    field.focus({ preventScroll: true });
  });
}

/** A label above its control, with an optional hint and an inline error under it. */
export function FormField({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Shown under the control in red; the control should spread fieldAria(id, …). */
  error?: string | null;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("grid content-start gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-ink-subtle">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-negative">
          {error}
        </p>
      ) : null}
    </div>
  );
}
