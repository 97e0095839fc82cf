import { and, desc, eq } from "drizzle-orm";
import { formatBankTime } from "@/contract/bank-time";
import {
  type CreateIncomingPaymentInput,
  INCOMING_PAYMENT_DEFAULTS,
  type IncomingPayment,
  type IncomingPaymentStatus,
  PAYMENT_MESSAGES,
  type UpdateIncomingPaymentInput,
} from "@/contract/credits";
import { centsToDecimal, formatMoney, parseMoney } from "@/contract/money";
import type { Page, PageQuery } from "@/contract/pages";
import { afterCommit } from "@/server/db/after-commit";
import type { Db, DbOrTx, Tx } from "@/server/db/client";
import { incomingPayments, transactions, users } from "@/server/db/schema";
import { notifyMoneyArrived } from "@/server/features/credits/notify-money-arrived";
import { lockReceivingCustomer } from "@/server/features/credits/receiving-customer";
import { findCurrentOnboarding } from "@/server/features/kyc/get-kyc-status";
import { monitorMoneyIn } from "@/server/features/monitoring/monitor-event";
import { writeAudit } from "@/server/lib/audit";
import { listSearch } from "@/server/lib/customer-search";
import { AppError } from "@/server/lib/errors";
import { beforeTimeKey, continuedAfter, exactTime, toPage } from "@/server/lib/keyset-page";
import { creditFromExternalFunding } from "@/server/lib/ledger";
import { wakeMailWorker } from "@/server/lib/mail/outbox";

type PaymentRow = typeof incomingPayments.$inferSelect;
type Owner = { id: string; firstName: string; lastName: string; email: string } | null;

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

function toIncomingPayment(row: PaymentRow, user: Owner): IncomingPayment {
  return {
    id: row.id,
    userId: row.userId,
    user,
    amount: Number(centsToDecimal(row.amount)),
    amountCents: row.amount,
    formattedAmount: formatMoney(row.amount),
    description: row.description,
    paymentFor: row.paymentFor,
    fromAccount: row.fromAccount,
    fromRouting: row.fromRouting,
    toAccount: { accountNumber: row.toAccount, routingNumber: row.toRouting },
    recipientName: row.recipientName,
    status: row.status,
    adminNotes: row.adminNotes,
    created_at: row.createdAt.toISOString(),
    formattedDate: formatBankTime(row.createdAt),
  };
}

const ownerColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};

/** One page of incoming payments, newest first, searched by customer, description, sender or recipient. */
export async function findIncomingPayments(
  db: DbOrTx,
  { cursor, limit, q, status }: PageQuery & { status: IncomingPaymentStatus | "all" },
): Promise<Page<IncomingPayment>> {
  const filters = and(
    status === "all" ? undefined : eq(incomingPayments.status, status),
    beforeTimeKey(incomingPayments.createdAt, incomingPayments.id, cursor),
  );
  const search = await listSearch(db, q, {
    table: incomingPayments,
    order: { kind: "time", createdAt: incomingPayments.createdAt, id: incomingPayments.id },
    userId: incomingPayments.userId,
    filters,
    ownText: [
      incomingPayments.description,
      incomingPayments.paymentFor,
      incomingPayments.fromAccount,
      incomingPayments.recipientName,
    ],
  });
  const rows = await db
    .select({ payment: incomingPayments, owner: ownerColumns, key: exactTime(incomingPayments.createdAt) })
    .from(incomingPayments)
    .leftJoin(users, eq(users.id, incomingPayments.userId))
    .where(and(filters, search.where))
    .orderBy(desc(incomingPayments.createdAt), desc(incomingPayments.id))
    .limit(limit + 1);
  const page = toPage(
    rows,
    limit,
    (r) => [r.key, r.payment.id],
    (r) => toIncomingPayment(r.payment, r.owner),
  );
  return continuedAfter(page, search);
}

/** Posts external funding → the user's wallet once, with the credit the user sees in their history. */
async function settle(
  tx: Tx,
  actorId: string,
  payment: PaymentRow,
): Promise<{ transactionId: string; balance: number }> {
  if (!payment.userId) throw new AppError("CONFLICT", "The payment's customer no longer exists");
  await lockReceivingCustomer(tx, payment.userId);
  const { entryId, balance } = await creditFromExternalFunding(tx, payment.userId, {
    kind: "incoming_payment",
    description: payment.description,
    referenceType: "incoming_payment",
    referenceId: payment.id,
    actorId,
    amount: payment.amount,
  });
  const [credit] = await tx
    .insert(transactions)
    .values({
      userId: payment.userId,
      type: "incoming_payment",
      amount: payment.amount,
      fee: 0,
      netAmount: payment.amount,
      description: payment.description,
      category: "other",
      status: "completed",
      sourceType: "incoming_payment",
      sourceId: payment.id,
      entryId,
    })
    .returning({ id: transactions.id });
  await monitorMoneyIn(tx, payment.userId, { kind: "credit", id: credit.id, amountCents: payment.amount });
  return { transactionId: credit.id, balance };
}

/** The payment's amount in cents, or a 400. */
export function incomingPaymentAmount(input: { amount: string | number }): number {
  const amount = parseMoney(input.amount);
  if (amount === null || amount <= 0) throw new AppError("VALIDATION", PAYMENT_MESSAGES.amountInvalid);
  return amount;
}

export async function createIncomingPayment(db: Db, actorId: string, input: CreateIncomingPaymentInput) {
  const amount = incomingPaymentAmount(input);
  const result = await db.transaction((tx) => insertIncomingPayment(tx, actorId, input, amount));
  if (result.mailed) afterCommit(db, wakeMailWorker);
  return {
    payment: result.payment,
    ...(result.userBalance !== undefined ? { userBalance: formatMoney(result.userBalance) } : {}),
  };
}

/** Creates an incoming payment inside the caller's transaction (direct, or replayed by an approval). */
export async function insertIncomingPayment(
  tx: Tx,
  actorId: string,
  input: CreateIncomingPaymentInput,
  amount: number,
) {
  // Share-locks the customer: a deletion racing this payment waits, then refuses (money or a payment in flight).
  const owner = await lockReceivingCustomer(tx, input.userId);
  // Left blank, the payment goes to the customer's own open account: it shows their number, not "— · —".
  const { accountRequest } = await findCurrentOnboarding(tx, owner.id);
  const ownAccount = accountRequest?.status === "approved" ? accountRequest : null;
  const [payment] = await tx
    .insert(incomingPayments)
    .values({
      userId: owner.id,
      amount,
      description: input.description || INCOMING_PAYMENT_DEFAULTS.description,
      paymentFor: input.paymentFor || INCOMING_PAYMENT_DEFAULTS.paymentFor,
      fromAccount: input.fromAccount || INCOMING_PAYMENT_DEFAULTS.fromAccount,
      fromRouting: input.fromRouting || INCOMING_PAYMENT_DEFAULTS.fromRouting,
      toAccount: input.toAccount || ownAccount?.accountNumber || null,
      toRouting: input.toRouting || ownAccount?.routingNumber || null,
      recipientName: input.recipientName || INCOMING_PAYMENT_DEFAULTS.recipientName,
      adminNotes: input.adminNotes || null,
      status: "pending",
    })
    .returning();
  await writeAudit(tx, {
    actorId,
    action: "incoming_payment.create",
    targetType: "incoming_payment",
    targetId: payment.id,
    after: { amount, userId: owner.id },
  });
  let saved = payment;
  let userBalance: number | undefined;
  // New payments start pending; one created as already completed settles in the same transaction.
  if (input.status && input.status !== "pending") {
    const moved = await applyStatus(tx, actorId, payment, { status: input.status });
    saved = moved.payment;
    userBalance = moved.userBalance;
  }
  return { payment: toIncomingPayment(saved, owner), userBalance, mailed: saved.status === "completed" };
}

async function applyStatus(tx: Tx, actorId: string, payment: PaymentRow, input: UpdateIncomingPaymentInput) {
  if (TERMINAL.has(payment.status)) {
    throw new AppError("CONFLICT", `This payment is already ${payment.status} and can no longer change`);
  }
  let transactionId = payment.transactionId;
  let userBalance: number | undefined;
  if (input.status === "completed") {
    const settled = await settle(tx, actorId, payment);
    transactionId = settled.transactionId;
    userBalance = settled.balance;
    await notifyMoneyArrived(tx, payment);
  }
  const [saved] = await tx
    .update(incomingPayments)
    .set({
      status: input.status,
      adminNotes: input.adminNotes === undefined ? payment.adminNotes : input.adminNotes || null,
      transactionId,
      ...(input.created_at ? { createdAt: new Date(input.created_at) } : {}),
      updatedAt: new Date(),
    })
    .where(eq(incomingPayments.id, payment.id))
    .returning();
  await writeAudit(tx, {
    actorId,
    action: "incoming_payment.update_status",
    targetType: "incoming_payment",
    targetId: payment.id,
    before: { status: payment.status },
    after: { status: input.status },
  });
  return { payment: saved, userBalance };
}

/** Admin status change; completed posts exactly once (the row lock serialises concurrent admins). */
export async function updateIncomingPayment(
  db: Db,
  actorId: string,
  paymentId: string,
  input: UpdateIncomingPaymentInput,
) {
  const result = await db.transaction((tx) => moveIncomingPayment(tx, actorId, paymentId, input));
  if (result.userBalance !== undefined) wakeMailWorker();
  return {
    payment: result.payment,
    ...(result.userBalance !== undefined ? { userBalance: formatMoney(result.userBalance) } : {}),
  };
}

/** The payment row, locked; terminal payments are refused as every status move refuses them. */
export async function lockIncomingPayment(tx: Tx, paymentId: string): Promise<PaymentRow> {
  const [payment] = await tx
    .select()
    .from(incomingPayments)
    .where(eq(incomingPayments.id, paymentId))
    .for("update");
  if (!payment) throw new AppError("NOT_FOUND", "Incoming payment not found");
  if (TERMINAL.has(payment.status)) {
    throw new AppError("CONFLICT", `This payment is already ${payment.status} and can no longer change`);
  }
  return payment;
}

/** Moves a payment's status inside the caller's transaction; completed posts it (once). */
export async function moveIncomingPayment(
  tx: Tx,
  actorId: string,
  paymentId: string,
  input: UpdateIncomingPaymentInput,
) {
  const payment = await lockIncomingPayment(tx, paymentId);
  const moved = await applyStatus(tx, actorId, payment, input);
  const [owner] = payment.userId
    ? await tx.select(ownerColumns).from(users).where(eq(users.id, payment.userId))
    : [null];
  return { payment: toIncomingPayment(moved.payment, owner ?? null), userBalance: moved.userBalance };
}
