import { eq } from "drizzle-orm";
import { formatMoney } from "@/contract/money";
import type {
  CreateAdminTransactionInput,
  CreateIncomingPaymentInput,
  UpdateAdminTransactionInput,
  UpdateIncomingPaymentInput,
} from "@/contract/payments";
import { PAYMENT_MESSAGES } from "@/contract/payments";
import type { Transaction } from "@/contract/transactions";
import type { Db, Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { toTransaction } from "@/server/features/accounts/transaction-view";
import {
  type ApprovalAction,
  approvalCustomer,
  approvalPayload,
} from "@/server/features/approvals/approval-actions";
import {
  requireReason,
  type StaffActor,
  type Submitted,
  submitForApproval,
} from "@/server/features/approvals/request-approval";
import {
  adjustBalance,
  adminCreditAmount,
  balanceTarget,
  createAdminTransaction,
  insertAdminTransaction,
  lockAdminTransaction,
  moveAdminTransaction,
  postBalanceAdjustment,
  updateAdminTransaction,
} from "@/server/features/payments/admin-transactions";
import {
  createIncomingPayment,
  incomingPaymentAmount,
  insertIncomingPayment,
  lockIncomingPayment,
  moveIncomingPayment,
  updateIncomingPayment,
} from "@/server/features/payments/incoming-payments";
import {
  isStaffAccount,
  lockReceivingCustomer,
  staffCannotReceive,
} from "@/server/features/payments/receiving-customer";
import { AppError } from "@/server/lib/errors";
import { findWallet } from "@/server/lib/ledger";

// The admin routes call these instead of the service functions: below the threshold they run the change at
// once (the spec's answer), above it they store a pending approval and answer 202. Money moves only when a
// payment or credit reaches completed, so only that step (at creation or later) is ever held back.

/** Thrown out of `prepare` to roll back and take the direct path instead (the amount is under the threshold). */
const DIRECT = Symbol("direct");

type WithReason<T> = T & { reason?: string | null };
const withoutReason = <T extends { reason?: unknown }>({ reason: _, ...rest }: T) => rest;

/** The customer, share-locked (a deletion waits), and their current balance in cents. */
async function customerBalance(tx: Tx, userId: string): Promise<number> {
  const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("share");
  if (!owner) throw new AppError("NOT_FOUND", "User not found");
  return (await findWallet(tx, userId))?.balance ?? 0;
}

/** The same for money coming in: refused at once for staff or a customer with no open account (409). */
async function receivingBalance(tx: Tx, userId: string): Promise<number> {
  await lockReceivingCustomer(tx, userId);
  return customerBalance(tx, userId);
}

const balanceChange = (balance: number, amount: number) => ({
  before: { balance },
  after: { balance: balance + amount },
});

export async function submitIncomingPayment(
  db: Db,
  threshold: number,
  maker: StaffActor,
  input: WithReason<CreateIncomingPaymentInput>,
): Promise<Submitted<Awaited<ReturnType<typeof createIncomingPayment>>, 201>> {
  const amount = incomingPaymentAmount(input);
  if (input.status !== "completed" || amount <= threshold) {
    return { status: 201, body: await createIncomingPayment(db, maker.id, withoutReason(input)) };
  }
  const reason = requireReason(input.reason);
  return submitForApproval(db, maker, async (tx) => {
    const balance = await receivingBalance(tx, input.userId);
    return {
      kind: "incoming_payment",
      userId: input.userId,
      targetKey: null,
      payload: { op: "create_payment", input: withoutReason(input) },
      amount,
      before: { paymentStatus: null, ...balanceChange(balance, amount).before },
      after: { paymentStatus: "completed", ...balanceChange(balance, amount).after },
      reason,
    };
  });
}

export async function submitIncomingPaymentUpdate(
  db: Db,
  threshold: number,
  maker: StaffActor,
  paymentId: string,
  input: WithReason<UpdateIncomingPaymentInput>,
): Promise<Submitted<Awaited<ReturnType<typeof updateIncomingPayment>>>> {
  if (input.status === "completed") {
    const pending = await submitForApproval(db, maker, async (tx) => {
      const payment = await lockIncomingPayment(tx, paymentId);
      if (payment.amount <= threshold || !payment.userId) throw DIRECT;
      const balance = await receivingBalance(tx, payment.userId);
      return {
        kind: "incoming_payment",
        userId: payment.userId,
        targetKey: payment.id,
        payload: { op: "complete_payment", paymentId: payment.id, input: withoutReason(input) },
        amount: payment.amount,
        before: { paymentStatus: payment.status, ...balanceChange(balance, payment.amount).before },
        after: { paymentStatus: "completed", ...balanceChange(balance, payment.amount).after },
        reason: requireReason(input.reason),
      };
    }).catch((err) => {
      if (err === DIRECT) return null;
      throw err;
    });
    if (pending) return pending;
  }
  return { status: 200, body: await updateIncomingPayment(db, maker.id, paymentId, withoutReason(input)) };
}

export async function submitAdminTransaction(
  db: Db,
  threshold: number,
  maker: StaffActor,
  input: WithReason<CreateAdminTransactionInput>,
): Promise<Submitted<Transaction, 201>> {
  const amount = adminCreditAmount(input);
  if ((input.status ?? "completed") !== "completed" || amount <= threshold) {
    return { status: 201, body: await createAdminTransaction(db, maker.id, withoutReason(input)) };
  }
  const reason = requireReason(input.reason);
  return submitForApproval(db, maker, async (tx) => {
    const balance = await receivingBalance(tx, input.userId);
    return {
      kind: "credit",
      userId: input.userId,
      targetKey: null,
      payload: { op: "create_credit", input: { ...withoutReason(input), status: "completed" } },
      amount,
      before: { creditStatus: null, ...balanceChange(balance, amount).before },
      after: { creditStatus: "completed", ...balanceChange(balance, amount).after },
      reason,
    };
  });
}

export async function submitAdminTransactionUpdate(
  db: Db,
  threshold: number,
  maker: StaffActor,
  transactionId: string,
  input: WithReason<UpdateAdminTransactionInput>,
): Promise<Submitted<Transaction>> {
  if (input.status === "completed") {
    const pending = await submitForApproval(db, maker, async (tx) => {
      const current = await lockAdminTransaction(tx, transactionId);
      if (current.amount <= threshold || !current.userId) throw DIRECT;
      const balance = await receivingBalance(tx, current.userId);
      return {
        kind: "credit",
        userId: current.userId,
        targetKey: current.id,
        payload: { op: "complete_credit", transactionId: current.id, input: withoutReason(input) },
        amount: current.amount,
        before: { creditStatus: current.status, ...balanceChange(balance, current.amount).before },
        after: { creditStatus: "completed", ...balanceChange(balance, current.amount).after },
        reason: requireReason(input.reason),
      };
    }).catch((err) => {
      if (err === DIRECT) return null;
      throw err;
    });
    if (pending) return pending;
  }
  return {
    status: 200,
    body: await updateAdminTransaction(db, maker.id, transactionId, withoutReason(input)),
  };
}

/** Every balance adjustment needs a second person; setting the balance it already has changes nothing. */
export async function submitBalanceAdjustment(
  db: Db,
  maker: StaffActor,
  userId: string,
  input: { accountBalance: string | number; reason?: string | null },
): Promise<Submitted<{ accountBalance: string }>> {
  const target = balanceTarget(input.accountBalance);
  const reason = input.reason?.trim() || null;
  const pending = await submitForApproval(db, maker, async (tx) => {
    const balance = await customerBalance(tx, userId);
    const wallet = await findWallet(tx, userId);
    if (target === balance) throw DIRECT;
    if (target > balance && (await isStaffAccount(tx, userId))) throw staffCannotReceive();
    if (target < (wallet?.held ?? 0)) throw new AppError("CONFLICT", PAYMENT_MESSAGES.balanceBelowHeld);
    return {
      kind: "balance_adjustment",
      userId,
      targetKey: userId,
      payload: { op: "adjust_balance", target, expected: balance },
      amount: target - balance,
      before: { balance },
      after: { balance: target },
      reason: requireReason(reason),
    };
  }).catch((err) => {
    if (err === DIRECT) return null;
    throw err;
  });
  if (pending) return pending;
  return { status: 200, body: await adjustBalance(db, maker.id, userId, input.accountBalance) };
}

// What a second finance member's approval replays (registered with approvals in server/app.ts).

const paymentResult = (done: { payment: unknown; userBalance?: number }) => ({
  payment: done.payment,
  ...(done.userBalance !== undefined ? { userBalance: formatMoney(done.userBalance) } : {}),
});

export const approveIncomingPayment: ApprovalAction = async (tx, row) => {
  const payload = approvalPayload(row, ["create_payment", "complete_payment"]);
  approvalCustomer(row);
  return payload.op === "create_payment"
    ? paymentResult(await insertIncomingPayment(tx, row.makerId, payload.input, row.amount!))
    : paymentResult(await moveIncomingPayment(tx, row.makerId, payload.paymentId, payload.input));
};

export const approveCredit: ApprovalAction = async (tx, row) => {
  const payload = approvalPayload(row, ["create_credit", "complete_credit"]);
  approvalCustomer(row);
  return toTransaction(
    payload.op === "create_credit"
      ? await insertAdminTransaction(tx, row.makerId, payload.input, row.amount!)
      : await moveAdminTransaction(tx, row.makerId, payload.transactionId, payload.input),
  );
};

export const approveBalanceAdjustment: ApprovalAction = async (tx, row) => {
  const payload = approvalPayload(row, ["adjust_balance"]);
  return postBalanceAdjustment(tx, row.makerId, approvalCustomer(row), payload.target, payload.expected);
};
