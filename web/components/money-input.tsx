import { type ReactNode, type Ref, useState } from "react";
import { FormField, fieldAria } from "@/web/components/form-field";
import { Input } from "@/web/components/ui/input";
import { readAmount } from "@/web/lib/read-amount";

/**
 * The one money field: a "$" prefix and a decimal keyboard, and the text kept exactly as typed. Once
 * the customer has left the field, text that is not an amount above $0 is refused under it with the spec's message
 * (readAmount) rather than rewritten; the form's own error (required, over the balance) is shown first. The form
 * reads the same text with readAmount on submit, so what the field accepts is what is sent.
 */
export function MoneyField({
  id,
  label,
  hint,
  value,
  onChange,
  error,
  className,
  disabled,
  ref,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** The form's refusal of this field, shown instead of the field's own. */
  error?: string | null;
  className?: string;
  disabled?: boolean;
  /** The input itself, for a form that moves focus to it. */
  ref?: Ref<HTMLInputElement>;
}) {
  const [isLeft, setLeft] = useState(false);
  const shown = error || (isLeft ? readAmount(value).error : null);
  return (
    <FormField id={id} label={label} hint={hint} error={shown} className={className}>
      <div className="relative">
        <span
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-ink-subtle"
        >
          $
        </span>
        <Input
          ref={ref}
          id={id}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          className="pl-7 tabular-nums"
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          onBlur={() => setLeft(true)}
          {...fieldAria(id, { hint, error: shown })}
        />
      </div>
    </FormField>
  );
}
