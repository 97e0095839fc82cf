import { and, desc, eq } from "drizzle-orm";
import { APPROVAL_MESSAGES } from "@/contract/approvals";
import {
  type AdminTransaction,
  type CreateAdminTransactionInput,
  PAYMENT_MESSAGES,
  type UpdateAdminTransactionInput,
} from "@/contract/credits";
import { formatMoney, parseMoney } from "@/contract/money";
import type { Page, PageQuery } from "@/contract/pages";
import { CATEGORIES } from "@/contract/transaction-categories";
import type { Transaction, TransactionStatus } from "@/contract/transactions";
import type { Db, DbOrTx, Tx } from "@/server/db/client";
import { transactions, users } from "@/server/db/schema";
import { toTransaction } from "@/server/features/accounts/transaction-view";
import { notifyMoneyArrived } from "@/server/features/credits/notify-money-arrived";
import {
  isStaffAccount,
  lockReceivingCustomer,
  staffCannotReceive,
} from "@/server/features/credits/receiving-customer";
import { monitorMoneyIn } from "@/server/features/monitoring/monitor-event";
import { writeAudit } from "@/server/lib/audit";
import { listSearch } from "@/server/lib/customer-search";
import { AppError } from "@/server/lib/errors";
import { beforeTimeKey, continuedAfter, exactTime, toPage } from "@/server/lib/keyset-page";
import {
  creditFromExternalFunding,
  findWallet,
  lockWallet,
  postEntry,
  systemAccountId,
} from "@/server/lib/ledger";
import { wakeMailWorker } from "@/server/lib/mail/outbox";

type TransactionRow = typeof transactions.$inferSelect;

/** One page of every customer's transactions, newest first, searched by customer or description (decision 067). */
export async function findAllTransactions(
  db: DbOrTx,
  { cursor, limit, q, status }: PageQuery & { status: TransactionStatus | "all" },
): Promise<Page<AdminTransaction>> {
  const filters = and(
    status === "all" ? undefined : eq(transactions.status, status),
    beforeTimeKey(transactions.createdAt, transactions.id, cursor),
  );
  const search = await listSearch(db, q, {
    table: transactions,
    order: { kind: "time", createdAt: transactions.createdAt, id: transactions.id },
    userId: transactions.userId,
    filters,
    ownText: [transactions.description],
  });
  const rows = await db
    .select({ t: transactions, email: users.email, key: exactTime(transactions.createdAt) })
    .from(transactions)
    .leftJoin(users, eq(users.id, transactions.userId))
    .where(and(filters, search.where))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(limit + 1);
  const page = toPage(
    rows,
    limit,
    (r) => [r.key, r.t.id],
    (r) => ({ ...toTransaction(r.t), userEmail: r.email }),
  );
  return continuedAfter(page, search);
}

/** Posts an admin credit (external funding → wallet) the first time it reaches completed; never twice. */
async function postCredit(tx: Tx, actorId: string, row: TransactionRow): Promise<string> {
  if (!row.userId) throw new AppError("CONFLICT", "The transaction's customer no longer exists");
  await lockReceivingCustomer(tx, row.userId);
  const { entryId } = await creditFromExternalFunding(tx, row.userId, {
    kind: "admin_credit",
    description: row.description,
    referenceType: "transaction",
    referenceId: row.id,
    actorId,
    amount: row.amount,
  });
  await notifyMoneyArrived(tx, row);
  await monitorMoneyIn(tx, row.userId, { kind: "credit", id: row.id, amountCents: row.amount });
  return entryId;
}

/** The credit's amount in cents, or a 400: every caller parses the same way before anything is written. */
export function adminCreditAmount(input: { amount: string | number }): number {
  const amount = parseMoney(input.amount);
  if (amount === null || amount <= 0) throw new AppError("VALIDATION", PAYMENT_MESSAGES.amountInvalid);
  return amount;
}

export async function createAdminTransaction(
  db: Db,
  actorId: string,
  input: CreateAdminTransactionInput,
): Promise<Transaction> {
  const amount = adminCreditAmount(input);
  const row = await db.transaction((tx) => insertAdminTransaction(tx, actorId, input, amount));
  if (row.entryId) wakeMailWorker();
  return toTransaction(row);
}

/** Creates an admin credit inside the caller's transaction (direct, or replayed by an approval). */
export async function insertAdminTransaction(
  tx: Tx,
  actorId: string,
  input: CreateAdminTransactionInput,
  amount: number,
): Promise<TransactionRow> {
  const category = input.category && input.category in CATEGORIES ? input.category : "other";
  const status = input.status ?? "completed";
  // Share-locks the customer: a deletion racing this credit waits, then refuses (money or a payment in flight).
  const owner = await lockReceivingCustomer(tx, input.userId);
  const [created] = await tx
    .insert(transactions)
    .values({
      userId: owner.id,
      type: "credit",
      amount,
      fee: 0,
      netAmount: amount,
      description: input.description,
      category,
      status,
      sourceType: "admin",
    })
    .returning();
  const entryId = status === "completed" ? await postCredit(tx, actorId, created) : null;
  const [saved] = entryId
    ? await tx.update(transactions).set({ entryId }).where(eq(transactions.id, created.id)).returning()
    : [created];
  await writeAudit(tx, {
    actorId,
    action: "transaction.create",
    targetType: "transaction",
    targetId: created.id,
    after: { amount, status, userId: owner.id },
  });
  return saved!;
}

export async function updateAdminTransaction(
  db: Db,
  actorId: string,
  transactionId: string,
  input: UpdateAdminTransactionInput,
): Promise<Transaction> {
  const row = await db.transaction((tx) => moveAdminTransaction(tx, actorId, transactionId, input));
  if (row.entryId) wakeMailWorker();
  return toTransaction(row);
}

/** The admin transaction, locked, with the refusals every status move shares. */
export async function lockAdminTransaction(tx: Tx, transactionId: string): Promise<TransactionRow> {
  const [current] = await tx
    .select()
    .from(transactions)
    .where(eq(transactions.id, transactionId))
    .for("update");
  if (!current) throw new AppError("NOT_FOUND", "Transaction not found");
  if (current.sourceType !== "admin") {
    throw new AppError(
      "CONFLICT",
      "Only admin-created credits can change status here; use the transfer or payment desk",
    );
  }
  if (current.entryId)
    throw new AppError("CONFLICT", "This transaction is already completed and can no longer change");
  return current;
}

/** Moves an admin credit's status inside the caller's transaction; completed posts it (once). */
export async function moveAdminTransaction(
  tx: Tx,
  actorId: string,
  transactionId: string,
  input: UpdateAdminTransactionInput,
): Promise<TransactionRow> {
  const current = await lockAdminTransaction(tx, transactionId);
  const entryId = input.status === "completed" ? await postCredit(tx, actorId, current) : null;
  const [saved] = await tx
    .update(transactions)
    .set({
      status: input.status,
      adminNotes: input.adminNotes === undefined ? current.adminNotes : input.adminNotes || null,
      ...(entryId ? { entryId } : {}),
      updatedAt: new Date(),
    })
    .where(eq(transactions.id, current.id))
    .returning();
  await writeAudit(tx, {
    actorId,
    action: "transaction.update_status",
    targetType: "transaction",
    targetId: current.id,
    before: { status: current.status },
    after: { status: input.status },
  });
  return saved!;
}

/** Sets a wallet's balance by posting the difference against `adjustments`; the ledger is never overwritten. */
export async function adjustBalance(
  db: Db,
  actorId: string,
  userId: string,
  text: string | number,
): Promise<{ accountBalance: string }> {
  const target = balanceTarget(text);
  return db.transaction((tx) => postBalanceAdjustment(tx, actorId, userId, target));
}

/** The new balance in cents, or a 400. */
export function balanceTarget(text: string | number): number {
  const target = parseMoney(text);
  if (target === null || target < 0) throw new AppError("VALIDATION", PAYMENT_MESSAGES.balanceInvalid);
  return target;
}

/**
 * Posts the difference to `target` inside the caller's transaction. `expected` (an approval's "before") makes it
 * refuse when the balance moved since the request, so the checker never approves a different difference.
 */
export async function postBalanceAdjustment(
  tx: Tx,
  actorId: string,
  userId: string,
  target: number,
  expected?: number,
): Promise<{ accountBalance: string }> {
  const [owner] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    // Share-lock the customer: a deletion racing this payment waits, then refuses (money or a payment in flight).
    .for("share");
  if (!owner) throw new AppError("NOT_FOUND", "User not found");
  const wallet = await lockWallet(tx, userId);
  if (expected !== undefined && wallet.balance !== expected)
    throw new AppError("balance_changed", APPROVAL_MESSAGES.balanceChanged);
  const diff = target - wallet.balance;
  if (diff === 0) return { accountBalance: formatMoney(wallet.balance) };
  // Staff never bank: an adjustment may take money off a staff wallet (one from before this rule) but never add.
  if (diff > 0 && (await isStaffAccount(tx, userId))) throw staffCannotReceive();
  if (target < wallet.held) throw new AppError("CONFLICT", PAYMENT_MESSAGES.balanceBelowHeld);
  const entryId = await postEntry(tx, {
    kind: "balance_adjustment",
    description: "Balance adjustment",
    referenceType: "user",
    referenceId: userId,
    actorId,
    postings: [
      { accountId: await systemAccountId(tx, "adjustments"), amount: -diff },
      { accountId: wallet.id, amount: diff },
    ],
  });
  await tx.insert(transactions).values({
    userId,
    type: diff > 0 ? "credit" : "debit",
    amount: Math.abs(diff),
    fee: 0,
    netAmount: Math.abs(diff),
    description: "Balance adjustment",
    category: "other",
    status: "completed",
    sourceType: "adjustment",
    entryId,
  });
  await writeAudit(tx, {
    actorId,
    action: "user.adjust_balance",
    targetType: "user",
    targetId: userId,
    before: { balance: wallet.balance },
    after: { balance: target },
  });
  const after = await findWallet(tx, userId);
  return { accountBalance: formatMoney(after!.balance) };
}
