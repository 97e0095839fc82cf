import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { AdminStats, AdminUser } from "@/contract/admin";
import { ADMIN_MESSAGES } from "@/contract/admin";
import { formatMoney } from "@/contract/money";
import type { DbOrTx } from "@/server/db/client";
import { accountRequests, ledgerAccounts, transactions, users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { findWallet, findWallets, type Wallet } from "@/server/lib/ledger";

type UserRow = typeof users.$inferSelect;

function toAdminUser(row: UserRow, wallet: Wallet | undefined): AdminUser {
  const balance = wallet?.balance ?? 0;
  const held = wallet?.held ?? 0;
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phoneNumber: row.phoneNumber,
    pillarTag: row.pillarTag,
    isAdmin: row.isAdmin,
    isEmailVerified: row.isEmailVerified,
    isVerified: row.isEmailVerified,
    status: row.status,
    frozenAt: row.frozenAt ? row.frozenAt.toISOString() : null,
    passwordResetRequired: row.passwordResetRequired,
    accountBalance: formatMoney(balance),
    availableBalance: formatMoney(balance - held),
    pendingBalance: formatMoney(held),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every account, newest first. */
export async function findUsers(db: DbOrTx): Promise<AdminUser[]> {
  const rows = await db.select().from(users).orderBy(desc(users.createdAt), desc(users.id));
  const wallets = await findWallets(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toAdminUser(r, wallets.get(r.id)));
}

export async function getUser(db: DbOrTx, userId: string): Promise<AdminUser> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
  return toAdminUser(row, (await findWallet(db, userId)) ?? undefined);
}

/** Back-office headline figures: customers, approved accounts, money held in wallets, and transactions. */
export async function getAdminStats(db: DbOrTx): Promise<AdminStats> {
  const [[customers], [accounts], [money], [history]] = await Promise.all([
    db.select({ total: count() }).from(users).where(eq(users.isAdmin, false)),
    db
      .select({ total: count() })
      .from(accountRequests)
      .where(and(eq(accountRequests.status, "approved"), isNull(accountRequests.supersededAt))),
    db
      .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)::text` })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.kind, "wallet")),
    db.select({ total: count() }).from(transactions),
  ]);
  return {
    totalUsers: customers.total,
    activeAccounts: accounts.total,
    totalBalance: formatMoney(BigInt(money.total)),
    transactions: history.total,
  };
}
