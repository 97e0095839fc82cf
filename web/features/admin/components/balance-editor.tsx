import { Check, Pencil, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import type { AdminUser } from "@/contract/admin";
import { toastFixedFailure } from "@/web/components/admin/admin-toasts";
import { Button } from "@/web/components/ui/button";
import { Input, Textarea } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { useUpdateUserBalance } from "@/web/features/payments/admin/api/update-user-balance";

/**
 * Spec §5 balance edit in User Details: free text like $1000.00, non-empty after trimming. The server
 * books the difference as an adjustment, so the ledger keeps the history.
 */
export function BalanceEditor({ user }: { user: AdminUser }) {
  const [isEditing, setEditing] = useState(false);
  const [value, setValue] = useState(user.accountBalance);
  const [reason, setReason] = useState("");
  const update = useUpdateUserBalance();
  const id = `balance-${user.id}`;
  const trimmed = value.trim();
  const why = reason.trim();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || !why) return;
    // The success toast ("Sent for approval" or the spec's) comes from the mutation (useUpdateUserBalance).
    update
      .mutateAsync({ userId: user.id, accountBalance: trimmed, reason: why })
      .then(() => setEditing(false), toastFixedFailure("Failed to update user balance"));
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
            setReason("");
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
          aria-describedby={`${id}-hint`}
          value={value}
          disabled={update.isPending}
          onChange={(e) => setValue(e.target.value)}
        />
        <div className="flex gap-2">
          <Button
            type="submit"
            disabled={!trimmed || !why || update.isPending}
            className="flex-1 sm:flex-none"
          >
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
      <p id={`${id}-hint`} className="text-xs text-ink-subtle">
        Currently {user.accountBalance}. The difference is recorded as a balance adjustment once a second
        finance member approves it; it cannot go below what pending transfers hold.
      </p>
      <Label htmlFor={`${id}-reason`}>Reason for approval</Label>
      <Textarea
        id={`${id}-reason`}
        rows={2}
        maxLength={500}
        required
        placeholder="e.g. Correct a duplicated deposit"
        value={reason}
        disabled={update.isPending}
        onChange={(e) => setReason(e.target.value)}
      />
    </form>
  );
}
