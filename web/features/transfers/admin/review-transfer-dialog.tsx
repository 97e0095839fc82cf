import { ClipboardCheck, Eye } from "lucide-react";
import { type FormEvent, useState } from "react";
import { formatMoney } from "@/contract/money";
import { CATEGORIES, type Category } from "@/contract/transaction-categories";
import type { AdminTransferRequest } from "@/contract/transfers";
import { TERMINAL_TRANSFER_STATUSES, TRANSFER_STATUSES, type TransferStatus } from "@/contract/transfers";
import { DetailField } from "@/web/components/admin/detail-field";
import {
  AdminNotesField,
  ApprovalReasonField,
  DialogActions,
  StatusField,
} from "@/web/components/admin/dialog-parts";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { useUpdateTransferRequest } from "@/web/features/transfers/admin/api/update-transfer-request";
import { TRANSFER_STATUS_BADGES } from "@/web/features/transfers/admin/transfer-statuses";
import { toastTransferFailed } from "@/web/features/transfers/admin/transfer-toasts";
import { formatDateTime } from "@/web/lib/format";

const categoryLabel = (key: string) => CATEGORIES[key as Category]?.label ?? "Other";

/** 'Review Transfer Request': the request in full, any of the five statuses, admin notes. */
export function ReviewTransferDialog({ request }: { request: AdminTransferRequest }) {
  const [isOpen, setOpen] = useState(false);
  const [status, setStatus] = useState<TransferStatus>(request.status);
  const [notes, setNotes] = useState(request.adminNotes ?? "");
  const [reason, setReason] = useState("");
  const update = useUpdateTransferRequest();
  const isFinal = TERMINAL_TRANSFER_STATUSES.includes(request.status);
  // A reported transfer is cancelled by one person; anything else waits for a second (maker-checker).
  const needsSecondPerson =
    !isFinal && request.flaggedAt !== null && status !== "cancelled" && status !== "failed";
  const customer = request.user ? `${request.user.firstName} ${request.user.lastName}` : "Deleted user";
  const id = `transfer-${request.id}`;

  const onOpenChange = (open: boolean) => {
    if (open) {
      setStatus(request.status);
      setNotes(request.adminNotes ?? "");
      setReason("");
    }
    setOpen(open);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // mutateAsync, not mutate's callbacks: the desk's refresh may drop this row (it left the pending filter)
    // before they would run, and a callback of an unmounted component never fires.
    update
      .mutateAsync({
        id: request.id,
        input: {
          status,
          adminNotes: notes.trim() || null,
          ...(needsSecondPerson ? { reason: reason.trim() || null } : {}),
        },
      })
      .then(() => setOpen(false), toastTransferFailed);
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        {isFinal ? (
          // A final request opens read-only: its details and notes, no status to change.
          <Button variant="ghost" size="sm" aria-label={`View transfer request from ${customer}`}>
            <Eye aria-hidden />
            View
          </Button>
        ) : (
          <Button variant="secondary" size="sm" aria-label={`Review transfer request from ${customer}`}>
            <ClipboardCheck aria-hidden />
            Review
          </Button>
        )}
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Review Transfer Request</DialogTitle>
          <DialogDescription>
            {customer}
            {request.user ? ` · ${request.user.email}` : ""} · {formatDateTime(request.createdAt)}
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-1 rounded-lg bg-canvas p-4">
          <p className="text-xs text-ink-muted">Amount</p>
          <p className="text-2xl font-semibold text-ink tabular-nums">−{formatMoney(request.amountCents)}</p>
          <p className="text-xs text-ink-muted tabular-nums">
            Fee {formatMoney(request.feeCents)} · recipient gets {formatMoney(request.netAmountCents)} USDC
          </p>
        </div>
        <dl className="grid gap-3 sm:grid-cols-2">
          <DetailField label="Recipient">{request.recipientName}</DetailField>
          <DetailField label="Status">
            <Badge tone={TRANSFER_STATUS_BADGES[request.status].tone}>
              {TRANSFER_STATUS_BADGES[request.status].label}
            </Badge>
          </DetailField>
          <DetailField label="Purpose">{request.purpose}</DetailField>
          <DetailField label="Category">{categoryLabel(request.category)}</DetailField>
          <DetailField label="Method">
            {request.paymentMethod === "crypto" ? "USDC (crypto)" : "ACH"}
          </DetailField>
          {request.paymentMethod === "crypto" ? (
            <DetailField label="Wallet address" className="sm:col-span-2">
              <span className="font-mono text-xs break-all">{request.cryptoAddress}</span>
            </DetailField>
          ) : (
            <DetailField label="Account · routing">
              <span className="tabular-nums">
                {request.recipientAccount ?? "—"} · {request.recipientRouting}
              </span>
            </DetailField>
          )}
        </dl>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <StatusField
            id={`${id}-status`}
            hint={
              isFinal
                ? "This transfer is final and can no longer change."
                : "Completed sends the money; failed or cancelled releases the held amount to the customer."
            }
            statuses={TRANSFER_STATUSES}
            labelOf={(s) => TRANSFER_STATUS_BADGES[s].label}
            value={status}
            onChange={setStatus}
            disabled={isFinal}
          />
          <AdminNotesField id={`${id}-notes`} value={notes} disabled={isFinal} onChange={setNotes} />
          {needsSecondPerson ? (
            <ApprovalReasonField
              id={`${id}-reason`}
              value={reason}
              onChange={setReason}
              hint="The customer reported this transfer: a second staff member approves before it moves."
              placeholder="e.g. Customer confirmed the transfer by phone"
            />
          ) : null}
          <DialogActions
            isPending={update.isPending}
            cancelLabel={isFinal ? "Close" : "Cancel"}
            submitLabel={isFinal ? null : "Update Request"}
            onCancel={() => setOpen(false)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
