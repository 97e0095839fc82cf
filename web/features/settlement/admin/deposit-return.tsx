import { type FormEvent, useId, useRef, useState } from "react";
import type { SettlementDeposit } from "@/contract/settlement";
import { canUse } from "@/contract/staff-capabilities";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { useProposeDepositReturn } from "@/web/features/settlement/admin/api/propose-deposit-return";
import { ApiError } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { isStepUpCancelled } from "@/web/lib/step-up";

const RETURN_NOTES: Record<NonNullable<SettlementDeposit["returnStatus"]>, string> = {
  proposed: "Return proposed — waiting for a second member",
  sending: "Returning to its sender on chain",
  returned: "Returned to its sender",
};

/**
 * Return to sender (decision 060): the maker's form for a deposit the server says is returnable (`returnable`,
 * the route's own rule), then where the return stands. One live region per row, present from the start, so a
 * screen reader hears the proposal land and the server's refusal.
 */
export function DepositReturn({ deposit }: { deposit: SettlementDeposit }) {
  const { data: me } = useCurrentUser();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const trigger = useRef<HTMLButtonElement>(null);
  const propose = useProposeDepositReturn();
  const id = useId();
  const mayPropose = deposit.returnable && canUse(me?.staffRoles ?? [], "proposeDepositReturn");
  if (!mayPropose && deposit.returnStatus === null) return null;
  const close = () => {
    setOpen(false);
    propose.reset();
    // Back to the button that opened it, for keyboard users.
    requestAnimationFrame(() => trigger.current?.focus());
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    propose.mutate({ id: deposit.id, reason: reason.trim() }, { onSuccess: () => setOpen(false) });
  };
  const failed =
    propose.error && !isStepUpCancelled(propose.error)
      ? propose.error instanceof ApiError
        ? propose.error.message
        : "Could not send it for approval. Try again."
      : null;
  const note = deposit.returnStatus
    ? RETURN_NOTES[deposit.returnStatus]
    : propose.isSuccess
      ? RETURN_NOTES.proposed
      : null;
  return (
    <>
      {mayPropose && !open && !propose.isSuccess ? (
        <Button
          ref={trigger}
          size="sm"
          variant="secondary"
          aria-expanded={false}
          onClick={() => setOpen(true)}
          aria-label={`Return the ${deposit.amount} deposit to its sender…`}
        >
          Return to sender…
        </Button>
      ) : null}
      {mayPropose && open ? (
        <form
          onSubmit={onSubmit}
          onKeyDown={(e) => {
            if (e.key === "Escape") close();
          }}
          className="grid w-full gap-2 rounded-lg border border-line p-3 md:col-span-full"
          aria-label={`Return the ${deposit.amount} deposit to its sender`}
        >
          <p className="text-xs text-ink-muted">
            Its exact amount goes back from the hot wallet to the address that sent it, once a second finance
            member approves. Nothing is booked: it was never credited.
          </p>
          <label htmlFor={`${id}-reason`} className="text-xs font-medium text-ink">
            Reason
          </label>
          <Input
            id={`${id}-reason`}
            value={reason}
            maxLength={500}
            required
            autoFocus
            onChange={(e) => setReason(e.target.value)}
            placeholder="Account closed, sender asked for it back, ticket FIN-31"
          />
          <span className="flex flex-wrap gap-2">
            <Button size="sm" type="submit" disabled={propose.isPending || reason.trim() === ""}>
              {propose.isPending ? "Sending…" : "Send for approval"}
            </Button>
            <Button size="sm" variant="ghost" type="button" onClick={close}>
              Cancel
            </Button>
          </span>
        </form>
      ) : null}
      <span role="status" className="text-xs text-ink-muted empty:hidden md:col-span-full">
        {note}
      </span>
      <span role="alert" className="text-xs text-negative empty:hidden md:col-span-full">
        {failed}
      </span>
    </>
  );
}
