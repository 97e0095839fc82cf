import { ONBOARDING_ADMIN_MESSAGES } from "@/contract/admin-onboarding";
import { APPROVAL_MESSAGES } from "@/contract/approvals";
import { formatMoney } from "@/contract/money";
import type {
  CreateAdminTransactionInput,
  CreateIncomingPaymentInput,
  UpdateAdminTransactionInput,
  UpdateIncomingPaymentInput,
} from "@/contract/payments";
import type { Tx } from "@/server/db/client";
import type { approvals } from "@/server/db/schema";
import { toTransaction } from "@/server/features/accounts/transaction-view";
import { liftFreeze } from "@/server/features/admin/unfreeze-user";
import { applyKycDecision, kycDecisionError } from "@/server/features/kyc/review-kyc-application";
import {
  insertAdminTransaction,
  moveAdminTransaction,
  postBalanceAdjustment,
} from "@/server/features/payments/admin-transactions";
import { insertIncomingPayment, moveIncomingPayment } from "@/server/features/payments/incoming-payments";
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
  | { op: "unfreeze" };

function customerOf(row: ApprovalRow): string {
  if (!row.userId) throw new AppError("CONFLICT", APPROVAL_MESSAGES.customerGone, { customerGone: true });
  return row.userId;
}

/**
 * Runs the approved change through the same service function a direct call uses, inside the approval's
 * transaction, as the maker (the checker's decision is its own audit row). Ledger rules, audit rows and mail
 * are therefore exactly those of the direct path.
 */
export async function runApprovedChange(tx: Tx, row: ApprovalRow): Promise<unknown> {
  const payload = row.payload as ApprovalPayload;
  const actorId = row.makerId;
  switch (payload.op) {
    case "create_payment": {
      customerOf(row);
      const done = await insertIncomingPayment(tx, actorId, payload.input, row.amount!);
      return {
        payment: done.payment,
        ...(done.userBalance !== undefined ? { userBalance: formatMoney(done.userBalance) } : {}),
      };
    }
    case "complete_payment": {
      customerOf(row);
      const done = await moveIncomingPayment(tx, actorId, payload.paymentId, payload.input);
      return {
        payment: done.payment,
        ...(done.userBalance !== undefined ? { userBalance: formatMoney(done.userBalance) } : {}),
      };
    }
    case "create_credit":
      customerOf(row);
      return toTransaction(await insertAdminTransaction(tx, actorId, payload.input, row.amount!));
    case "complete_credit":
      customerOf(row);
      return toTransaction(await moveAdminTransaction(tx, actorId, payload.transactionId, payload.input));
    case "adjust_balance":
      return postBalanceAdjustment(tx, actorId, customerOf(row), payload.target, payload.expected);
    case "kyc_reset":
      customerOf(row);
      try {
        const kyc = await applyKycDecision(tx, actorId, payload.kycId, "reset", null);
        return { message: ONBOARDING_ADMIN_MESSAGES.kycReset, kyc };
      } catch (err) {
        throw kycDecisionError(err);
      }
    case "unfreeze":
      return liftFreeze(tx, actorId, customerOf(row));
  }
}
