import { eq } from "drizzle-orm";
import type {
  CreateAdminTransactionInput,
  CreateIncomingPaymentInput,
  MoneyDryRunResponse,
  UpdateAdminTransactionInput,
  UpdateIncomingPaymentInput,
} from "@/contract/credits";
import { PAYMENT_MESSAGES } from "@/contract/credits";
import { formatMoney } from "@/contract/money";
import type { Transaction } from "@/contract/transactions";
import { afterCommit } from "@/server/db/after-commit";
import type { Db, Tx } from "@/server/db/client";
import { rolledBack } from "@/server/db/rolled-back";
import { incomingPayments, transactions, users } from "@/server/db/schema";
import { toTransaction } from "@/server/features/accounts/transaction-view";
import {
  type ApprovalAction,
  approvalCustomer,
  approvalPayload,
} from "@/server/features/approvals/approval-actions";
import {
  type ApprovalRequest,
  madeDirectly,
  requireReason,
  runOrSubmitForApproval,
  type StaffActor,
  type Submitted,
  submitForApproval,
  waitsForApproval,
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
} from "@/server/features/credits/admin-transactions";
import {
  type CreditWindow,
  lockedCreditWindow,
  passesThreshold,
} from "@/server/features/credits/credit-window";
import {
  createIncomingPayment,
  incomingPaymentAmount,
  insertIncomingPayment,
  lockIncomingPayment,
  moveIncomingPayment,
  updateIncomingPayment,
} from "@/server/features/credits/incoming-payments";
import {
  isStaffAccount,
  lockReceivingCustomer,
  staffCannotReceive,
} from "@/server/features/credits/receiving-customer";
import { AppError } from "@/server/lib/errors";
import { findWallet } from "@/server/lib/ledger";
import { wakeMailWorker } from "@/server/lib/mail/outbox";

// The admin routes call these instead of the service functions: below the threshold they run the change at
// once (the spec's answer), above it they store a pending approval and answer 202. Money moves only when a
// payment or credit reaches completed, so only that step (at creation or later) is ever held back. For credits
// the threshold holds over a rolling window per maker and per customer (credit-window.ts, decision 017), checked
// in the same transaction that completes the credit.

/** Thrown out of `prepare` to roll back and take the direct path instead (the amount is under the threshold). */
const DIRECT = Symbol("direct");

type WithReason<T> = T & { reason?: string | null };
/** The change an approval replays: the request without the maker's reason and the dry-run switch. */
const withoutReason = <T extends { reason?: unknown; dryRun?: unknown }>({
  reason: _,
  dryRun: __,
  ...rest
}: T) => rest;

/**
 * A `dryRun` call: the real submit function in a transaction that rolls back, so every check (amount, reason,
 * customer, window, a pending approval for the same target) answers as the real call would, before the desk
 * asks for a second factor and without writing anything. Its 4xx are the real call's.
 */
export async function dryRunMoneyCall(
  db: Db,
  submit: (tx: Tx) => Promise<{ status: number }>,
): Promise<MoneyDryRunResponse> {
  const outcome = await rolledBack(db, submit);
  return { dryRun: true, message: PAYMENT_MESSAGES.checksPassed, pendingApproval: outcome.status === 202 };
}

/** The customer, share-locked (a deletion waits), and their current balance in cents. */
async function customerBalance(tx: Tx, userId: string): Promise<number> {
  const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("share");
  if (!owner) throw new AppError("NOT_FOUND", "User not found");
  return (await findWallet(tx, userId))?.balance ?? 0;
}

const balanceChange = (balance: number, amount: number) => ({
  before: { balance },
  after: { balance: balance + amount },
});

/** A credit's approval request: the change it replays and the balance and window totals the checker sees. */
async function creditRequest(
  tx: Tx,
  kind: "incoming_payment" | "credit",
  fields: {
    userId: string;
    targetKey: string | null;
    payload: ApprovalRequest["payload"];
    amount: number;
    status: string | null;
    reason: string | null | undefined;
    creditWindow: CreditWindow;
  },
): Promise<ApprovalRequest> {
  // Refused at once for staff or a customer with no open account (409), as the direct path is, before asking
  // for a reason for money that could never arrive.
  await lockReceivingCustomer(tx, fields.userId);
  const reason = requireReason(fields.reason);
  const balance = await customerBalance(tx, fields.userId);
  const change = balanceChange(balance, fields.amount);
  const statusKey = kind === "incoming_payment" ? "paymentStatus" : "creditStatus";
  return {
    kind,
    userId: fields.userId,
    targetKey: fields.targetKey,
    payload: fields.payload,
    amount: fields.amount,
    before: { [statusKey]: fields.status, ...change.before },
    after: { [statusKey]: "completed", ...change.after },
    reason,
    creditWindow: fields.creditWindow,
  };
}

/** A payment's or credit's customer and amount, read without a lock: the window locks come first (credit-window.ts). */
async function peek(tx: Tx, table: typeof incomingPayments | typeof transactions, id: string) {
  const [row] = await tx
    .select({ userId: table.userId, amount: table.amount })
    .from(table)
    .where(eq(table.id, id));
  return row ?? null;
}

/** The answer of a payment made at once; its mail wakes the worker once `db` (maybe an outer transaction) commits. */
const paymentAnswer = (db: Db, done: Awaited<ReturnType<typeof insertIncomingPayment>>) => {
  if (done.mailed) afterCommit(db, wakeMailWorker);
  return {
    payment: done.payment,
    ...(done.userBalance !== undefined ? { userBalance: formatMoney(done.userBalance) } : {}),
  };
};

const creditAnswer = (row: Awaited<ReturnType<typeof insertAdminTransaction>>) => {
  if (row.entryId) wakeMailWorker();
  return toTransaction(row);
};

export async function submitIncomingPayment(
  db: Db,
  threshold: number,
  maker: StaffActor,
  input: WithReason<CreateIncomingPaymentInput>,
): Promise<Submitted<Awaited<ReturnType<typeof createIncomingPayment>>, 201>> {
  const amount = incomingPaymentAmount(input);
  if (input.status !== "completed") {
    return { status: 201, body: await createIncomingPayment(db, maker.id, withoutReason(input)) };
  }
  const outcome = await runOrSubmitForApproval(db, maker, async (tx) => {
    const creditWindow = await lockedCreditWindow(tx, maker.id, input.userId, amount);
    if (!passesThreshold(creditWindow, threshold)) {
      return madeDirectly(await insertIncomingPayment(tx, maker.id, withoutReason(input), amount));
    }
    return waitsForApproval(
      await creditRequest(tx, "incoming_payment", {
        userId: input.userId,
        targetKey: null,
        payload: { op: "create_payment", input: withoutReason(input) },
        amount,
        status: null,
        reason: input.reason,
        creditWindow,
      }),
    );
  });
  return "direct" in outcome ? { status: 201, body: paymentAnswer(db, outcome.direct) } : outcome;
}

export async function submitIncomingPaymentUpdate(
  db: Db,
  threshold: number,
  maker: StaffActor,
  paymentId: string,
  input: WithReason<UpdateIncomingPaymentInput>,
): Promise<Submitted<Awaited<ReturnType<typeof updateIncomingPayment>>>> {
  if (input.status !== "completed") {
    return { status: 200, body: await updateIncomingPayment(db, maker.id, paymentId, withoutReason(input)) };
  }
  const outcome = await runOrSubmitForApproval(db, maker, async (tx) => {
    const seen = await peek(tx, incomingPayments, paymentId);
    if (seen?.userId) {
      const creditWindow = await lockedCreditWindow(tx, maker.id, seen.userId, seen.amount);
      const payment = await lockIncomingPayment(tx, paymentId);
      if (payment.userId && passesThreshold(creditWindow, threshold)) {
        return waitsForApproval(
          await creditRequest(tx, "incoming_payment", {
            userId: payment.userId,
            targetKey: payment.id,
            payload: { op: "complete_payment", paymentId: payment.id, input: withoutReason(input) },
            amount: payment.amount,
            status: payment.status,
            reason: input.reason,
            creditWindow,
          }),
        );
      }
    }
    return madeDirectly(await moveIncomingPayment(tx, maker.id, paymentId, withoutReason(input)));
  });
  if (!("direct" in outcome)) return outcome;
  const { payment, userBalance } = outcome.direct;
  if (userBalance !== undefined) wakeMailWorker();
  return {
    status: 200,
    body: { payment, ...(userBalance !== undefined ? { userBalance: formatMoney(userBalance) } : {}) },
  };
}

export async function submitAdminTransaction(
  db: Db,
  threshold: number,
  maker: StaffActor,
  input: WithReason<CreateAdminTransactionInput>,
): Promise<Submitted<Transaction, 201>> {
  const amount = adminCreditAmount(input);
  if ((input.status ?? "completed") !== "completed") {
    return { status: 201, body: await createAdminTransaction(db, maker.id, withoutReason(input)) };
  }
  const outcome = await runOrSubmitForApproval(db, maker, async (tx) => {
    const creditWindow = await lockedCreditWindow(tx, maker.id, input.userId, amount);
    if (!passesThreshold(creditWindow, threshold)) {
      return madeDirectly(await insertAdminTransaction(tx, maker.id, withoutReason(input), amount));
    }
    return waitsForApproval(
      await creditRequest(tx, "credit", {
        userId: input.userId,
        targetKey: null,
        payload: { op: "create_credit", input: { ...withoutReason(input), status: "completed" } },
        amount,
        status: null,
        reason: input.reason,
        creditWindow,
      }),
    );
  });
  return "direct" in outcome ? { status: 201, body: creditAnswer(outcome.direct) } : outcome;
}

export async function submitAdminTransactionUpdate(
  db: Db,
  threshold: number,
  maker: StaffActor,
  transactionId: string,
  input: WithReason<UpdateAdminTransactionInput>,
): Promise<Submitted<Transaction>> {
  if (input.status !== "completed") {
    return {
      status: 200,
      body: await updateAdminTransaction(db, maker.id, transactionId, withoutReason(input)),
    };
  }
  const outcome = await runOrSubmitForApproval(db, maker, async (tx) => {
    const seen = await peek(tx, transactions, transactionId);
    if (seen?.userId) {
      const creditWindow = await lockedCreditWindow(tx, maker.id, seen.userId, seen.amount);
      const current = await lockAdminTransaction(tx, transactionId);
      if (current.userId && passesThreshold(creditWindow, threshold)) {
        return waitsForApproval(
          await creditRequest(tx, "credit", {
            userId: current.userId,
            targetKey: current.id,
            payload: { op: "complete_credit", transactionId: current.id, input: withoutReason(input) },
            amount: current.amount,
            status: current.status,
            reason: input.reason,
            creditWindow,
          }),
        );
      }
    }
    return madeDirectly(await moveAdminTransaction(tx, maker.id, transactionId, withoutReason(input)));
  });
  return "direct" in outcome ? { status: 200, body: creditAnswer(outcome.direct) } : outcome;
}

/** Every balance adjustment needs a second person; setting the balance it already has changes nothing. */
export async function submitBalanceAdjustment(
  db: Db,
  maker: StaffActor,
  userId: string,
  input: { accountBalance: string | number; reason?: string | null; expectedBalance?: string | number },
): Promise<Submitted<{ accountBalance: string }>> {
  const target = balanceTarget(input.accountBalance);
  const seen = input.expectedBalance === undefined ? undefined : balanceTarget(input.expectedBalance);
  const reason = input.reason?.trim() || null;
  const pending = await submitForApproval(db, maker, async (tx) => {
    const balance = await customerBalance(tx, userId);
    // The target is absolute: typed against a balance that has moved since, it would swallow the movement.
    if (seen !== undefined && seen !== balance) {
      throw new AppError("balance_changed", PAYMENT_MESSAGES.balanceMovedSinceShown(formatMoney(balance)));
    }
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
