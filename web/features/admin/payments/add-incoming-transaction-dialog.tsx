import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { APPROVAL_MESSAGES } from "@/contract/approvals";
import { parseMoney } from "@/contract/money";
import { PAYMENT_MESSAGES } from "@/contract/payments";
import { toastError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { useCreateAdminTransaction } from "@/web/features/admin/payments/api/create-admin-transaction";
import { toastServerFailure } from "@/web/features/admin/payments/payment-toasts";
import {
  creditNeedsReason,
  creditSubmitLabel,
  EMPTY_TRANSACTION_DRAFT,
  type TransactionDraft,
  TransactionFields,
} from "@/web/features/admin/payments/transaction-fields";
import { DialogActions } from "@/web/features/admin/shared/dialog-parts";

/** The spec's money rule for both create dialogs; false after saying what is wrong. */
function isAmountValid(amount: string): boolean {
  const cents = parseMoney(amount);
  if (cents !== null && cents > 0) return true;
  toastError(PAYMENT_MESSAGES.amountInvalid);
  return false;
}

/**
 * Creates an admin credit from either create dialog once it passes: `missing` (the dialog's own words for an
 * empty field), the money rule, then the reason a second finance member needs.
 */
export function useCreateCredit(onCreated: () => void) {
  const create = useCreateAdminTransaction();
  const submit = (draft: TransactionDraft, missing: string | null) => {
    if (missing) return toastError(missing);
    if (!isAmountValid(draft.amount)) return;
    if (creditNeedsReason(draft) && !draft.reason.trim()) return toastError(APPROVAL_MESSAGES.reasonRequired);
    return create
      .mutateAsync({
        userId: draft.userId,
        type: "credit",
        amount: draft.amount.trim(),
        description: draft.description.trim(),
        category: draft.category,
        status: draft.status,
        ...(creditNeedsReason(draft) ? { reason: draft.reason.trim() } : {}),
      })
      .then(onCreated, toastServerFailure("Failed to create transaction"));
  };
  return { submit, isPending: create.isPending };
}

/** Spec §2 'Add Incoming Transaction': an admin credit to one customer (credits only, spec §5). */
export function AddIncomingTransactionDialog() {
  const [isOpen, setOpen] = useState(false);
  const [draft, setDraft] = useState<TransactionDraft>(EMPTY_TRANSACTION_DRAFT);
  const credit = useCreateCredit(() => setOpen(false));

  const onOpenChange = (open: boolean) => {
    if (open) setDraft(EMPTY_TRANSACTION_DRAFT);
    setOpen(open);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const isMissing = !draft.userId || !draft.amount.trim() || !draft.description.trim();
    credit.submit(draft, isMissing ? `Missing Information: ${PAYMENT_MESSAGES.transactionMissing}` : null);
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm">
          <Plus aria-hidden />
          Add Incoming Transaction
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Incoming Transaction</DialogTitle>
          <DialogDescription>Credit money to a customer's account.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <TransactionFields
            idPrefix="add-transaction"
            draft={draft}
            onChange={setDraft}
            disabled={credit.isPending}
          />
          <DialogActions
            isPending={credit.isPending}
            pendingLabel="Creating"
            submitLabel={creditSubmitLabel(draft)}
            onCancel={() => setOpen(false)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
