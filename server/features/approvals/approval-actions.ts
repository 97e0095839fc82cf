import { APPROVAL_MESSAGES, type ApprovalKind } from "@/contract/approvals";
import type {
  CreateAdminTransactionInput,
  CreateIncomingPaymentInput,
  UpdateAdminTransactionInput,
  UpdateIncomingPaymentInput,
} from "@/contract/credits";
import type { UpdateTransferInput } from "@/contract/transfers";
import type { Tx } from "@/server/db/client";
import type { approvals } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";

export type ApprovalRow = typeof approvals.$inferSelect;

/** What an approval replays: the maker's original request (minus the reason), per kind. */
export type ApprovalPayload =
  | { op: "create_payment"; input: CreateIncomingPaymentInput }
  | { op: "complete_payment"; paymentId: string; input: UpdateIncomingPaymentInput }
  | { op: "create_credit"; input: CreateAdminTransactionInput }
  | { op: "complete_credit"; transactionId: string; input: UpdateAdminTransactionInput }
  | { op: "adjust_balance"; target: number; expected: number }
  | { op: "kyc_reset"; kycId: string }
  | { op: "unfreeze" }
  | { op: "release_transfer"; transferId: string; input: Omit<UpdateTransferInput, "reason"> }
  | { op: "settle_payout_outside"; payoutId: string; txHash: string | null }
  | { op: "lift_send_block"; identityCheck: string }
  | { op: "return_deposit"; depositId: string }
  | { op: "savings_rate"; rateId: string; apyBps: number; effectiveOn: string };

/**
 * Replays an approved change: the maker's original request (the row's payload, written by the feature's own
 * submit function) through the same service function a direct call uses, inside the approval's transaction,
 * as the maker. Ledger rules, audit rows and mail are therefore exactly those of the direct path.
 */
export type ApprovalAction = (tx: Tx, row: ApprovalRow) => Promise<unknown>;

/**
 * One action per kind, from the features that own the changes, so approvals never imports them: they import
 * approvals to submit, approvals calls them back to replay. Built in server/app.ts and handed to the approval
 * routes as an option, never kept in a module: two apps in one process each decide with their own.
 */
export type ApprovalActions = Readonly<Record<ApprovalKind, ApprovalAction>>;

/** The row's payload, checked to be one of `ops` (the kinds an action replays) and typed by them. */
export function approvalPayload<Op extends ApprovalPayload["op"]>(
  row: ApprovalRow,
  ops: readonly Op[],
): Extract<ApprovalPayload, { op: Op }> {
  const payload = row.payload as ApprovalPayload;
  if (!(ops as readonly string[]).includes(payload.op))
    throw new Error(`Unexpected ${row.kind} approval payload: ${payload.op}`);
  return payload as Extract<ApprovalPayload, { op: Op }>;
}

/** The customer the approval is about, or 409 `customerGone` once they were deleted. */
export function approvalCustomer(row: ApprovalRow): string {
  if (!row.userId) throw new AppError("customer_gone", APPROVAL_MESSAGES.customerGone);
  return row.userId;
}
