import { Pencil } from "lucide-react";
import { type FormEvent, useState } from "react";
import { APPROVAL_MESSAGES, needsApprovalReason } from "@/contract/approvals";
import { INCOMING_PAYMENT_STATUSES, type IncomingPayment, PAYMENT_MESSAGES } from "@/contract/credits";
import { formatMoney } from "@/contract/money";
import { toastFixedFailure } from "@/web/components/admin/admin-toasts";
import { DetailField } from "@/web/components/admin/detail-field";
import {
  AdminNotesField,
  ApprovalReasonField,
  asksForReason,
  DialogActions,
  StatusField,
} from "@/web/components/admin/dialog-parts";
import { FormField } from "@/web/components/form-field";
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
import { Input } from "@/web/components/ui/input";
import { useUpdateIncomingPayment } from "@/web/features/credits/admin/api/update-incoming-payment";
import { INCOMING_PAYMENT_STATUS_BADGES } from "@/web/features/credits/admin/payment-statuses";

type Status = (typeof INCOMING_PAYMENT_STATUSES)[number];

/** ISO → the value a datetime-local input shows, in the admin's own time zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** 'Edit Incoming Payment': status (required), notes and date; completing it credits the customer. */
export function EditIncomingPaymentDialog({ payment }: { payment: IncomingPayment }) {
  const [isOpen, setOpen] = useState(false);
  const [status, setStatus] = useState<Status | "">(payment.status);
  const [notes, setNotes] = useState(payment.adminNotes ?? "");
  const [reason, setReason] = useState("");
  const [isReasonAsked, setReasonAsked] = useState(false);
  const [date, setDate] = useState(() => toLocalInput(payment.created_at));
  const update = useUpdateIncomingPayment();
  const customer = payment.user ? `${payment.user.firstName} ${payment.user.lastName}` : "Deleted user";
  const id = `payment-${payment.id}`;
  // Completing more than the approval threshold waits for a second finance member, with a reason.
  const needsReason =
    payment.status !== "completed" &&
    status === "completed" &&
    (isReasonAsked || needsApprovalReason(payment.amountCents));

  const onOpenChange = (open: boolean) => {
    if (open) {
      setStatus(payment.status);
      setNotes(payment.adminNotes ?? "");
      setReason("");
      setReasonAsked(false);
      setDate(toLocalInput(payment.created_at));
    }
    setOpen(open);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!status) return toastError(PAYMENT_MESSAGES.statusRequired);
    if (needsReason && !reason.trim()) return toastError(APPROVAL_MESSAGES.reasonRequired);
    const isDateChanged = date && date !== toLocalInput(payment.created_at);
    update
      .mutateAsync({
        id: payment.id,
        input: {
          status,
          adminNotes: notes.trim() || null,
          ...(isDateChanged ? { created_at: new Date(date).toISOString() } : {}),
          ...(needsReason ? { reason: reason.trim() } : {}),
        },
      })
      .then(
        () => setOpen(false),
        (error) => {
          if (asksForReason("PUT /api/admin/incoming-payments/:id", error)) setReasonAsked(true);
          toastFixedFailure("Failed to update incoming payment")(error);
        },
      );
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Edit incoming payment for ${customer}`}>
          <Pencil aria-hidden />
          Edit
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Incoming Payment</DialogTitle>
          <DialogDescription>
            {customer}
            {payment.user ? ` · ${payment.user.email}` : ""}
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-1 rounded-lg bg-canvas p-4">
          <p className="text-xs text-ink-muted">Amount</p>
          <p className="text-2xl font-semibold text-ink tabular-nums">+{formatMoney(payment.amountCents)}</p>
          <p className="truncate text-xs text-ink-muted">
            {payment.description} · for {payment.paymentFor}
          </p>
        </div>
        <dl className="grid gap-3 sm:grid-cols-2">
          <DetailField label="From">
            <span className="tabular-nums">
              {payment.fromAccount} · {payment.fromRouting}
            </span>
          </DetailField>
          <DetailField label="To">
            <span className="tabular-nums">
              {payment.toAccount.accountNumber ?? "—"} · {payment.toAccount.routingNumber ?? "—"}
            </span>
          </DetailField>
          <DetailField label="Recipient">{payment.recipientName}</DetailField>
        </dl>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <div className="grid gap-4 sm:grid-cols-2">
            <StatusField
              id={`${id}-status`}
              hint={
                payment.status !== "completed" && status === "completed"
                  ? "Completing credits the balance."
                  : undefined
              }
              placeholder="Select a status"
              statuses={INCOMING_PAYMENT_STATUSES}
              labelOf={(s) => INCOMING_PAYMENT_STATUS_BADGES[s].label}
              value={status}
              onChange={setStatus}
            />
            <FormField id={`${id}-date`} label="Date">
              <Input
                id={`${id}-date`}
                type="datetime-local"
                className="tabular-nums"
                value={date}
                onChange={(e) => setDate(e.target.value)}
              />
            </FormField>
          </div>
          <AdminNotesField id={`${id}-notes`} value={notes} onChange={setNotes} />
          {needsReason ? (
            <ApprovalReasonField id={`${id}-reason`} value={reason} onChange={setReason} />
          ) : null}
          <DialogActions
            isPending={update.isPending}
            submitLabel={needsReason ? "Send for Approval" : "Update Payment"}
            onCancel={() => setOpen(false)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
