import { RefreshCw } from "lucide-react";
import { type FormEvent, useState } from "react";
import { APPROVAL_MESSAGES, needsApprovalReason } from "@/contract/approvals";
import { ADMIN_TRANSACTION_STATUSES } from "@/contract/credits";
import { formatMoney } from "@/contract/money";
import { toastServerFailure } from "@/web/components/admin/admin-toasts";
import {
  AdminNotesField,
  ApprovalReasonField,
  asksForReason,
  DialogActions,
  StatusField,
} from "@/web/components/admin/dialog-parts";
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
import type { AdminTransaction } from "@/web/features/credits/admin/api/get-admin-transactions";
import { useUpdateAdminTransaction } from "@/web/features/credits/admin/api/update-admin-transaction";
import {
  type AdminTransactionStatus,
  TRANSACTION_STATUS_BADGES,
} from "@/web/features/credits/admin/payment-statuses";

const isAdminStatus = (s: string): s is AdminTransactionStatus =>
  (ADMIN_TRANSACTION_STATUSES as readonly string[]).includes(s);

/** 'Update Transaction Status': initiated, pending, in review or completed; notes optional. */
export function UpdateTransactionStatusDialog({ transaction }: { transaction: AdminTransaction }) {
  const [isOpen, setOpen] = useState(false);
  const [status, setStatus] = useState<AdminTransactionStatus | "">("");
  const [notes, setNotes] = useState("");
  const [reason, setReason] = useState("");
  const [isReasonAsked, setReasonAsked] = useState(false);
  // Completing a credit above the approval threshold waits for a second finance member, with a reason.
  const needsReason =
    status === "completed" && (isReasonAsked || needsApprovalReason(transaction.amountCents));
  const update = useUpdateAdminTransaction();
  const id = `transaction-${transaction.id}`;

  const onOpenChange = (open: boolean) => {
    if (open) {
      setStatus(isAdminStatus(transaction.status) ? transaction.status : "");
      setNotes("");
      setReason("");
      setReasonAsked(false);
    }
    setOpen(open);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!status) return toastError("Please select a transaction status");
    if (needsReason && !reason.trim()) return toastError(APPROVAL_MESSAGES.reasonRequired);
    const input = {
      status,
      adminNotes: notes.trim() || null,
      ...(needsReason ? { reason: reason.trim() } : {}),
    };
    update.mutateAsync({ id: transaction.id, input }).then(
      () => setOpen(false),
      (error) => {
        if (asksForReason("PUT /api/admin/transactions/:id", error)) setReasonAsked(true);
        toastServerFailure("Failed to update transaction status")(error);
      },
    );
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Update status of ${transaction.description}`}>
          <RefreshCw aria-hidden />
          Status
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Update Transaction Status</DialogTitle>
          <DialogDescription>
            {transaction.description} ·{" "}
            <span className="tabular-nums">+{formatMoney(transaction.amountCents)}</span>
            {transaction.userEmail ? ` · ${transaction.userEmail}` : ""}
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <StatusField
            id={`${id}-status`}
            hint="Completed credits the customer's balance; after that the status is final."
            placeholder="Select a status"
            statuses={ADMIN_TRANSACTION_STATUSES}
            labelOf={(s) => TRANSACTION_STATUS_BADGES[s].label}
            value={status}
            onChange={setStatus}
          />
          <AdminNotesField
            id={`${id}-notes`}
            label="Admin notes (optional)"
            value={notes}
            onChange={setNotes}
          />
          {needsReason ? (
            <ApprovalReasonField id={`${id}-reason`} value={reason} onChange={setReason} />
          ) : null}
          <DialogActions
            isPending={update.isPending}
            submitLabel={needsReason ? "Send for Approval" : "Update Status"}
            onCancel={() => setOpen(false)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
