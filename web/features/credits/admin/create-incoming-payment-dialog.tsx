import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { APPROVAL_MESSAGES, needsApprovalReason } from "@/contract/approvals";
import { INCOMING_PAYMENT_DEFAULTS, INCOMING_PAYMENT_STATUSES, PAYMENT_MESSAGES } from "@/contract/credits";
import { parseMoney } from "@/contract/money";
import { toastFixedFailure } from "@/web/components/admin/admin-toasts";
import {
  AdminNotesField,
  AmountField,
  ApprovalReasonField,
  asksForReason,
  DialogActions,
  StatusField,
} from "@/web/components/admin/dialog-parts";
import { FormField } from "@/web/components/form-field";
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
import { useFieldErrors } from "@/web/components/use-field-errors";
import { useCreateIncomingPayment } from "@/web/features/credits/admin/api/create-incoming-payment";
import { type CreditField, creditFieldErrors } from "@/web/features/credits/admin/credit-field-errors";
import { INCOMING_PAYMENT_STATUS_BADGES } from "@/web/features/credits/admin/payment-statuses";
import { UserSelect } from "@/web/features/credits/admin/user-select";

type Status = (typeof INCOMING_PAYMENT_STATUSES)[number];

const EMPTY = {
  userId: "",
  amount: "",
  description: "",
  paymentFor: "",
  fromAccount: "",
  fromRouting: "",
  toAccount: "",
  toRouting: "",
  recipientName: "",
  adminNotes: "",
  reason: "",
  status: "pending" as Status,
  /** The server asked for a reason (the 24-hour window is past the threshold). */
  isReasonAsked: false,
};
type Draft = typeof EMPTY;
type TextField = Exclude<keyof Draft, "userId" | "status" | "reason" | "isReasonAsked">;

/** Blank text fields are sent as null so the server applies the spec's defaults (the placeholders show them). */
const orNull = (value: string) => value.trim() || null;
const digits = (value: string) => value.replace(/\D/g, "");

/** 'Create Incoming Payment': user and amount required; everything else falls back to a default. */
export function CreateIncomingPaymentDialog() {
  const [isOpen, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const create = useCreateIncomingPayment();
  const fields = useFieldErrors<CreditField>({
    userId: "create-payment-user",
    amount: "create-payment-amount",
    description: "create-payment-description",
    reason: "create-payment-reason",
  });
  // Completing one moves money, and past the approval threshold (counted over 24 hours by the server) it waits
  // for a second finance member with a reason: the field shows from the start, required when the amount alone
  // passes the threshold or the server's check asked for it.
  const showsReason = draft.status === "completed";
  const needsReason =
    showsReason && (draft.isReasonAsked || needsApprovalReason(parseMoney(draft.amount || "0")));
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    // The edited field's inline error goes, and the toast; a new status can drop the reason's.
    fields.clear(field === "status" ? "reason" : (field as CreditField));
  };

  const onOpenChange = (open: boolean) => {
    if (open) {
      setDraft(EMPTY);
      fields.reset();
    }
    setOpen(open);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = creditFieldErrors(draft, { kind: "incomingPayment", needsReason });
    const isMissing = !draft.userId || !draft.amount.trim();
    if (fields.report(found, isMissing ? `Error: ${PAYMENT_MESSAGES.createMissing}` : null)) return;
    create.mutate(
      {
        userId: draft.userId,
        amount: draft.amount.trim(),
        description: orNull(draft.description),
        paymentFor: orNull(draft.paymentFor),
        fromAccount: orNull(draft.fromAccount),
        fromRouting: orNull(draft.fromRouting),
        toAccount: orNull(draft.toAccount),
        toRouting: orNull(draft.toRouting),
        recipientName: orNull(draft.recipientName),
        adminNotes: orNull(draft.adminNotes),
        status: draft.status,
        ...(showsReason && draft.reason.trim() ? { reason: draft.reason.trim() } : {}),
      },
      {
        // The success toast comes from the mutation (useCreateIncomingPayment).
        onSuccess: () => setOpen(false),
        onError: (error) => {
          // The server's check (before any second factor) found the 24-hour window past the threshold.
          if (asksForReason("POST /api/admin/incoming-payments", error)) {
            setDraft((d) => ({ ...d, isReasonAsked: true }));
            fields.report({ reason: APPROVAL_MESSAGES.reasonRequired }, null);
            return;
          }
          toastFixedFailure("Failed to create incoming payment")(error);
        },
      },
    );
  };

  const text = (
    field: TextField,
    label: string,
    placeholder: string,
    extra: { numeric?: boolean; wide?: boolean } = {},
  ) => (
    <FormField
      id={`create-payment-${field}`}
      label={label}
      className={extra.wide ? "sm:col-span-2" : undefined}
    >
      <Input
        id={`create-payment-${field}`}
        placeholder={placeholder}
        inputMode={extra.numeric ? "numeric" : undefined}
        maxLength={extra.numeric ? 20 : 200}
        className={extra.numeric ? "tabular-nums" : undefined}
        value={draft[field]}
        disabled={create.isPending}
        onChange={(e) => set(field, extra.numeric ? digits(e.target.value) : e.target.value)}
      />
    </FormField>
  );

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus aria-hidden />
          Create Incoming Payment
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Create Incoming Payment</DialogTitle>
          <DialogDescription>
            Money arriving for a customer. Blank fields use the defaults shown in grey.
          </DialogDescription>
        </DialogHeader>
        <form className="grid grid-cols-1 gap-4 sm:grid-cols-2" onSubmit={onSubmit} noValidate>
          <FormField
            id="create-payment-user"
            label="User"
            className="min-w-0 sm:col-span-2"
            error={fields.errors.userId}
          >
            <UserSelect
              id="create-payment-user"
              error={fields.errors.userId}
              value={draft.userId}
              onValueChange={(v) => set("userId", v)}
              disabled={create.isPending}
            />
          </FormField>
          <AmountField
            id="create-payment-amount"
            value={draft.amount}
            disabled={create.isPending}
            error={fields.errors.amount}
            onChange={(value) => set("amount", value)}
          />
          <StatusField
            id="create-payment-status"
            hint={draft.status === "completed" ? "Completed credits the balance right away." : undefined}
            statuses={INCOMING_PAYMENT_STATUSES}
            labelOf={(s) => INCOMING_PAYMENT_STATUS_BADGES[s].label}
            value={draft.status}
            onChange={(s) => set("status", s)}
            disabled={create.isPending}
          />
          {text("description", "Description", INCOMING_PAYMENT_DEFAULTS.description)}
          {text("paymentFor", "Payment for", INCOMING_PAYMENT_DEFAULTS.paymentFor)}
          {text("recipientName", "Recipient name", INCOMING_PAYMENT_DEFAULTS.recipientName, { wide: true })}
          {text("fromAccount", "From account", INCOMING_PAYMENT_DEFAULTS.fromAccount)}
          {text("fromRouting", "From routing", INCOMING_PAYMENT_DEFAULTS.fromRouting, { numeric: true })}
          {text("toAccount", "To account", "Customer's account number", { numeric: true })}
          {text("toRouting", "To routing", "Customer's routing number", { numeric: true })}
          <AdminNotesField
            id="create-payment-notes"
            className="sm:col-span-2"
            rows={2}
            value={draft.adminNotes}
            disabled={create.isPending}
            onChange={(value) => set("adminNotes", value)}
          />
          {showsReason ? (
            <ApprovalReasonField
              id="create-payment-reason"
              className="sm:col-span-2"
              value={draft.reason}
              disabled={create.isPending}
              error={fields.errors.reason}
              onChange={(value) => set("reason", value)}
            />
          ) : null}
          <DialogActions
            isPending={create.isPending}
            pendingLabel="Creating"
            submitLabel={needsReason ? "Send for Approval" : "Create Payment"}
            onCancel={() => setOpen(false)}
            className="sm:col-span-2"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
