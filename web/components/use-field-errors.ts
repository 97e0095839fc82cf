import { useState } from "react";
import { focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, toastFieldError } from "@/web/components/toast-error";

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * A form's field errors, shown inline under each field (FormField's `error`) with the spec's message as a
 * toast. Editing a field clears its own error and the toast; the other fields keep theirs.
 */
export function useFieldErrors<F extends string>(fieldIds: Record<F, string>) {
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  /** Shows what `found` holds and focuses the first field in form order; true when something was wrong. */
  const report = (found: FieldErrors<F>, message: string | null) => {
    setErrors(found);
    const first = (Object.keys(fieldIds) as F[]).find((field) => found[field]);
    if (!first) return false;
    toastFieldError(message ?? found[first]!);
    focusFieldInError(fieldIds[first]);
    return true;
  };
  const clear = (field: F) => {
    dismissFieldToast();
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _fixed, ...rest } = current;
      return rest as FieldErrors<F>;
    });
  };
  const reset = () => setErrors({});
  return { errors, report, clear, reset };
}
