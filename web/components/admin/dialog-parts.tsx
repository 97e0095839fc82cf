import type { ReactNode } from "react";
import { FormField, fieldAria } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { DialogFooter } from "@/web/components/ui/dialog";
import { Input, Textarea } from "@/web/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/web/components/ui/select";
import { Spinner } from "@/web/components/ui/spinner";
import { type ContractKey, failureOf, type ReasonOf } from "@/web/lib/api";

/** A back-office form dialog's footer: Cancel, then the submit button with a spinner while it saves. */
export function DialogActions({
  isPending,
  isSubmitDisabled = false,
  pendingLabel = "Saving",
  submitLabel,
  onCancel,
  cancelLabel = "Cancel",
  className,
}: {
  isPending: boolean;
  /** The form cannot be sent as it stands (the dialog says why). */
  isSubmitDisabled?: boolean;
  /** What the spinner says to screen readers. */
  pendingLabel?: string;
  /** Null leaves the submit button out (a final record only closes). */
  submitLabel: ReactNode | null;
  onCancel: () => void;
  cancelLabel?: string;
  className?: string;
}) {
  return (
    <DialogFooter className={className}>
      <Button variant="secondary" onClick={onCancel} disabled={isPending}>
        {cancelLabel}
      </Button>
      {submitLabel === null ? null : (
        <Button type="submit" disabled={isPending || isSubmitDisabled}>
          {isPending ? <Spinner className="size-4 text-white" label={pendingLabel} /> : null}
          {submitLabel}
        </Button>
      )}
    </DialogFooter>
  );
}

interface TextareaFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  className?: string;
}

/** Staff-only notes on a record. */
export function AdminNotesField({
  id,
  value,
  onChange,
  disabled,
  className,
  label = "Admin notes",
  hint,
  rows = 3,
}: TextareaFieldProps & { label?: string; hint?: string; rows?: number }) {
  return (
    <FormField id={id} label={label} hint={hint} className={className}>
      <Textarea
        id={id}
        rows={rows}
        maxLength={2000}
        placeholder="Internal only"
        aria-describedby={hint ? `${id}-hint` : undefined}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
    </FormField>
  );
}

/** The endpoints whose contract can answer `reason_required`: only their forms may ask for a reason after the fact. */
type AsksForReason = { [K in ContractKey]: "reason_required" extends ReasonOf<K> ? K : never }[ContractKey];

/**
 * Whether K's call was answered 400 `reasonRequired`: the change waits for a second person although the form
 * did not expect it (a credit that takes the maker's or customer's 24-hour total past the threshold). Typed by
 * K's contract: naming an endpoint that cannot answer it does not compile.
 */
export function asksForReason<K extends AsksForReason>(key: K, error: unknown): boolean {
  return failureOf(key, error) === "reason_required";
}

/** The maker's reason for a money change a second finance member approves (maker-checker). */
export function ApprovalReasonField({
  id,
  value,
  onChange,
  disabled,
  className,
  error,
  placeholder = "e.g. Wire confirmed by the sending bank",
  hint = "Above $1,000.00 (one credit, or a maker's or customer's credits in 24 hours) a second finance member approves before the money moves.",
}: TextareaFieldProps & { placeholder?: string; hint?: string; error?: string }) {
  return (
    <FormField id={id} label="Reason for approval" hint={hint} error={error} className={className}>
      <Textarea
        id={id}
        rows={2}
        maxLength={500}
        required
        {...fieldAria(id, { hint: true, error })}
        placeholder={placeholder}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
    </FormField>
  );
}

/** A record's status as a drop-down, with what the chosen status does under it. */
export function StatusField<S extends string>({
  id,
  statuses,
  labelOf,
  value,
  onChange,
  hint,
  placeholder,
  disabled,
  className,
}: {
  id: string;
  statuses: readonly S[];
  labelOf: (status: S) => string;
  value: S | "";
  onChange: (status: S) => void;
  hint?: string;
  placeholder?: string;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <FormField id={id} label="Status" hint={hint} className={className}>
      <Select value={value} onValueChange={(v) => onChange(v as S)} disabled={disabled}>
        <SelectTrigger id={id} aria-describedby={hint ? `${id}-hint` : undefined}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {statuses.map((s) => (
            <SelectItem key={s} value={s}>
              {labelOf(s)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </FormField>
  );
}

/** A dollar amount typed as "1234.56", right-aligned in tabular figures. */
export function AmountField({
  id,
  value,
  onChange,
  disabled,
  error,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  error?: string;
}) {
  return (
    <FormField id={id} label="Amount (USD)" error={error}>
      <Input
        id={id}
        type="number"
        inputMode="decimal"
        step="0.01"
        min="0"
        placeholder="0.00"
        className="text-right tabular-nums"
        {...fieldAria(id, { error })}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
    </FormField>
  );
}
