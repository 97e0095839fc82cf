import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { PAYMENT_MESSAGES } from "@/contract/credits";
import { toastServerFailure } from "@/web/components/admin/admin-toasts";
import { asksForReason, DialogActions } from "@/web/components/admin/dialog-parts";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { useFieldErrors } from "@/web/components/use-field-errors";
import { useCreateAdminTransaction } from "@/web/features/credits/admin/api/create-admin-transaction";
import { type CreditField, creditFieldErrors } from "@/web/features/credits/admin/credit-field-errors";
import {
  creditNeedsReason,
  creditSubmitLabel,
  EMPTY_TRANSACTION_DRAFT,
  type TransactionDraft,
  TransactionFields,
} from "@/web/features/credits/admin/transaction-fields";

/**
 * Creates an admin credit from either create dialog once it passes: each field in error says so under itself and
 * the dialog's own words (`missing`, the spec's toast for an empty field) show as a toast; then the money rule and
 * the reason a second finance member needs.
 */
export function useCreateCredit(idPrefix: string, onCreated: () => void, onReasonAsked: () => void) {
  const create = useCreateAdminTransaction();
  const fields = useFieldErrors<CreditField>({
    userId: `${idPrefix}-user`,
    amount: `${idPrefix}-amount`,
    description: `${idPrefix}-description`,
    reason: `${idPrefix}-reason`,
  });
  const submit = (draft: TransactionDraft, missing: string | null) => {
    const found = creditFieldErrors(draft, { kind: "transaction", needsReason: creditNeedsReason(draft) });
    if (fields.report(found, missing)) return;
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
      .then(onCreated, (error) => {
        if (asksForReason("POST /api/admin/transactions", error)) onReasonAsked();
        toastServerFailure("Failed to create transaction")(error);
      });
  };
  /** A field was edited: its inline error goes, and the toast (a new status can drop the reason's too). */
  const edit = (field: keyof TransactionDraft) =>
    fields.clear(field === "status" ? "reason" : (field as CreditField));
  return { submit, edit, errors: fields.errors, reset: fields.reset, isPending: create.isPending };
}

/** 'Add Incoming Transaction': an admin credit to one customer (credits only). */
export function AddIncomingTransactionDialog() {
  const [isOpen, setOpen] = useState(false);
  const [draft, setDraft] = useState<TransactionDraft>(EMPTY_TRANSACTION_DRAFT);
  const credit = useCreateCredit(
    "add-transaction",
    () => setOpen(false),
    () => setDraft((d) => ({ ...d, reasonAsked: true })),
  );

  const onOpenChange = (open: boolean) => {
    if (open) {
      setDraft(EMPTY_TRANSACTION_DRAFT);
      credit.reset();
    }
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
            onChange={(next, field) => {
              setDraft(next);
              credit.edit(field);
            }}
            errors={credit.errors}
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
