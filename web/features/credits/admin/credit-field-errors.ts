import { APPROVAL_MESSAGES } from "@/contract/approvals";
import {
  createAdminTransactionInput,
  createIncomingPaymentInput,
  PAYMENT_MESSAGES,
} from "@/contract/credits";
import { parseMoney } from "@/contract/money";
import type { FieldErrors } from "@/web/components/use-field-errors";

export type CreditField = "userId" | "amount" | "description" | "reason";

/** What an empty required field says under itself (the spec's toast names them all at once). */
const EMPTY_TEXT: Record<CreditField, string> = {
  userId: "Select a customer",
  amount: "Enter an amount",
  description: "Enter a description",
  reason: APPROVAL_MESSAGES.reasonRequired,
};

interface CreditDraft {
  userId: string;
  amount: string;
  description: string;
  reason: string;
}

/**
 * The fields of a back-office credit that the server would refuse, by the contract's own zod rules (a credit
 * transaction needs a description; an incoming payment falls back to a default one), the money rule, and the
 * reason a second finance member needs above the approval threshold.
 */
export function creditFieldErrors(
  draft: CreditDraft,
  { kind, needsReason }: { kind: "transaction" | "incomingPayment"; needsReason: boolean },
): FieldErrors<CreditField> {
  const input = {
    userId: draft.userId,
    amount: draft.amount.trim(),
    description: draft.description,
    reason: draft.reason.trim() || null,
  };
  const parsed = (
    kind === "transaction" ? createAdminTransactionInput : createIncomingPaymentInput
  ).safeParse(input);
  const found: FieldErrors<CreditField> = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = issue.path[0] as CreditField;
    if (!(field in EMPTY_TEXT) || found[field]) continue;
    found[field] = String(input[field] ?? "").trim() === "" ? EMPTY_TEXT[field] : issue.message;
  }
  const cents = parseMoney(input.amount);
  if (!input.amount) found.amount = EMPTY_TEXT.amount;
  else if (cents === null || cents <= 0) found.amount = PAYMENT_MESSAGES.amountInvalid;
  if (needsReason && !input.reason) found.reason = EMPTY_TEXT.reason;
  return found;
}
