import { needsApprovalReason } from "@/contract/approvals";
import { ADMIN_TRANSACTION_STATUSES } from "@/contract/credits";
import { formatMoney, parseMoney } from "@/contract/money";
import { CATEGORIES, type Category } from "@/contract/transaction-categories";
import { AmountField, ApprovalReasonField, StatusField } from "@/web/components/admin/dialog-parts";
import { FormField, fieldAria } from "@/web/components/form-field";
import { Input } from "@/web/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/web/components/ui/select";
import type { FieldErrors } from "@/web/components/use-field-errors";
import type { CreditField } from "@/web/features/credits/admin/credit-field-errors";
import {
  type AdminTransactionStatus,
  TRANSACTION_STATUS_BADGES,
} from "@/web/features/credits/admin/payment-statuses";
import { UserSelect } from "@/web/features/credits/admin/user-select";

export interface TransactionDraft {
  userId: string;
  amount: string;
  description: string;
  category: Category;
  status: AdminTransactionStatus;
  /** Asked only when the credit waits for a second finance member (creditNeedsReason). */
  reason: string;
  /** The server asked for a reason (the 24-hour window is past the threshold). */
  reasonAsked?: boolean;
}

export const EMPTY_TRANSACTION_DRAFT: TransactionDraft = {
  userId: "",
  amount: "",
  description: "",
  category: "other",
  // A new credit waits (docs/architecture.md "Staff roles"): completing it is a second, deliberate step, or
  // "Credit $X now".
  status: "pending",
  reason: "",
};

/** A completed credit above the approval threshold waits for a second finance member, with a reason. */
export function creditNeedsReason(
  draft: Pick<TransactionDraft, "amount" | "status" | "reasonAsked">,
): boolean {
  return (
    draft.status === "completed" &&
    (draft.reasonAsked === true || needsApprovalReason(parseMoney(draft.amount.trim() || "0")))
  );
}

/** The submit button says what it will do: wait for approval, credit the money at once, or create it waiting. */
export function creditSubmitLabel(draft: Pick<TransactionDraft, "amount" | "status">): string {
  if (creditNeedsReason(draft)) return "Send for Approval";
  const cents = parseMoney(draft.amount.trim());
  if (draft.status === "completed" && cents !== null && cents > 0) return `Credit ${formatMoney(cents)} now`;
  return "Create Transaction";
}

/** The fields of an admin credit, shared by Add Incoming Transaction and Create Transaction with Preview. */
export function TransactionFields({
  idPrefix,
  draft,
  onChange,
  disabled,
  errors = {},
}: {
  idPrefix: string;
  draft: TransactionDraft;
  /** Called with the new draft and the field that changed (so its inline error can go). */
  onChange: (draft: TransactionDraft, field: keyof TransactionDraft) => void;
  disabled?: boolean;
  errors?: FieldErrors<CreditField>;
}) {
  const set = <K extends keyof TransactionDraft>(field: K, value: TransactionDraft[K]) =>
    onChange({ ...draft, [field]: value }, field);
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <FormField id={`${idPrefix}-user`} label="User" className="min-w-0 sm:col-span-2" error={errors.userId}>
        <UserSelect
          id={`${idPrefix}-user`}
          error={errors.userId}
          value={draft.userId}
          onValueChange={(v) => set("userId", v)}
          disabled={disabled}
        />
      </FormField>
      <AmountField
        id={`${idPrefix}-amount`}
        value={draft.amount}
        disabled={disabled}
        error={errors.amount}
        onChange={(value) => set("amount", value)}
      />
      <FormField id={`${idPrefix}-category`} label="Category">
        <Select
          value={draft.category}
          onValueChange={(v) => set("category", v as Category)}
          disabled={disabled}
        >
          <SelectTrigger id={`${idPrefix}-category`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(Object.keys(CATEGORIES) as Category[]).map((key) => (
              <SelectItem key={key} value={key}>
                {CATEGORIES[key].label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </FormField>
      <FormField
        id={`${idPrefix}-description`}
        label="Description"
        className="sm:col-span-2"
        error={errors.description}
      >
        <Input
          id={`${idPrefix}-description`}
          {...fieldAria(`${idPrefix}-description`, { error: errors.description })}
          maxLength={200}
          placeholder="e.g. Payroll deposit from Acme Inc."
          value={draft.description}
          disabled={disabled}
          onChange={(e) => set("description", e.target.value)}
        />
      </FormField>
      <StatusField
        id={`${idPrefix}-status`}
        className="sm:col-span-2"
        hint="Completed credits the customer's balance now; any other status waits until you complete it."
        statuses={ADMIN_TRANSACTION_STATUSES}
        labelOf={(s) => TRANSACTION_STATUS_BADGES[s].label}
        value={draft.status}
        onChange={(s) => set("status", s)}
        disabled={disabled}
      />
      {creditNeedsReason(draft) ? (
        <ApprovalReasonField
          id={`${idPrefix}-reason`}
          className="sm:col-span-2"
          value={draft.reason}
          disabled={disabled}
          error={errors.reason}
          onChange={(value) => set("reason", value)}
        />
      ) : null}
    </div>
  );
}
