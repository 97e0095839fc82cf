import { Check, Pencil, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import type { AdminUser } from "@/contract/admin";
import { APPROVAL_MESSAGES } from "@/contract/approvals";
import { PAYMENT_MESSAGES } from "@/contract/credits";
import { parseMoney } from "@/contract/money";
import { toastFixedFailure } from "@/web/components/admin/admin-toasts";
import { asksForReason } from "@/web/components/admin/dialog-parts";
import { fieldAria, focusFieldInError } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { Input, Textarea } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { useUpdateUserBalance } from "@/web/features/credits/admin/api/update-user-balance";

/**
 * Balance edit in User Details: free text like $1000.00, non-empty after trimming. The server
 * books the difference as an adjustment, so the ledger keeps the history.
 */
export function BalanceEditor({ user }: { user: AdminUser }) {
  const [isEditing, setEditing] = useState(false);
  const [value, setValue] = useState(user.accountBalance);
  const [reason, setReason] = useState("");
  /** The balance shown when editing began: the target was typed against it (a moved balance is refused). */
  const [seenBalance, setSeenBalance] = useState(user.accountBalance);
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const update = useUpdateUserBalance();
  const id = `balance-${user.id}`;
  const trimmed = value.trim();
  const why = reason.trim();

  // Checked here, then by the server without a second factor (dryRun), before anyone is asked for a code.
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const cents = parseMoney(trimmed);
    const found = {
      amount: cents === null || cents < 0 ? PAYMENT_MESSAGES.balanceInvalid : undefined,
      reason: why ? undefined : APPROVAL_MESSAGES.reasonRequired,
    };
    setErrors(found);
    if (found.amount || found.reason) {
      focusFieldInError(found.amount ? id : `${id}-reason`);
      return;
    }
    // The success toast ("Sent for approval" or the spec's) comes from the mutation (useUpdateUserBalance).
    update
      .mutateAsync({ userId: user.id, accountBalance: trimmed, expectedBalance: seenBalance, reason: why })
      .then(
        () => setEditing(false),
        (error: unknown) => {
          if (asksForReason("PUT /api/admin/users/:userId/balance", error))
            setErrors({ reason: APPROVAL_MESSAGES.reasonRequired });
          toastFixedFailure("Failed to update user balance")(error);
        },
      );
  };

  if (!isEditing) {
    return (
      <div className="flex items-end justify-between gap-3 rounded-lg bg-canvas p-4">
        <div className="grid gap-0.5">
          <p className="text-xs text-ink-muted">Account balance</p>
          <p className="text-2xl font-semibold text-ink tabular-nums">{user.accountBalance}</p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            setValue(user.accountBalance);
            setSeenBalance(user.accountBalance);
            setReason("");
            setErrors({});
            setEditing(true);
          }}
        >
          <Pencil aria-hidden />
          Edit Balance
        </Button>
      </div>
    );
  }

  return (
    <form className="grid gap-2 rounded-lg bg-canvas p-4" onSubmit={onSubmit} noValidate>
      <Label htmlFor={id}>New account balance</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          // Focus the field the admin just asked to edit.
          autoFocus
          inputMode="decimal"
          placeholder="$1000.00"
          className="text-right tabular-nums sm:flex-1"
          {...fieldAria(id, { hint: true, error: errors.amount })}
          value={value}
          disabled={update.isPending}
          onChange={(e) => {
            setValue(e.target.value);
            setErrors((current) => ({ ...current, amount: undefined }));
          }}
        />
        <div className="flex gap-2">
          <Button type="submit" disabled={update.isPending} className="flex-1 sm:flex-none">
            {update.isPending ? (
              <Spinner className="size-4 text-white" label="Saving" />
            ) : (
              <Check aria-hidden />
            )}
            Save
          </Button>
          <Button
            variant="secondary"
            disabled={update.isPending}
            className="flex-1 sm:flex-none"
            onClick={() => setEditing(false)}
          >
            <X aria-hidden />
            Cancel
          </Button>
        </div>
      </div>
      {errors.amount ? (
        <p id={`${id}-error`} className="text-sm text-negative">
          {errors.amount}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="text-xs text-ink-subtle">
        Currently {seenBalance}. The difference is recorded as a balance adjustment once a second finance
        member approves it; it cannot go below what pending transfers hold.
      </p>
      <Label htmlFor={`${id}-reason`}>Reason for approval</Label>
      <Textarea
        id={`${id}-reason`}
        rows={2}
        maxLength={500}
        required
        {...fieldAria(`${id}-reason`, { error: errors.reason })}
        placeholder="e.g. Correct a duplicated deposit"
        value={reason}
        disabled={update.isPending}
        onChange={(e) => {
          setReason(e.target.value);
          setErrors((current) => ({ ...current, reason: undefined }));
        }}
      />
      {errors.reason ? (
        <p id={`${id}-reason-error`} className="text-sm text-negative">
          {errors.reason}
        </p>
      ) : null}
    </form>
  );
}
