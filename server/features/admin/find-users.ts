import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { AdminStats, AdminUser, AdminUserQuery } from "@/contract/admin";
import { ADMIN_MESSAGES, RECEIVING_FILTER } from "@/contract/admin";
import { formatMoney } from "@/contract/money";
import type { Page } from "@/contract/pages";
import type { DbOrTx } from "@/server/db/client";
import { accountRequests, ledgerAccounts, transactions, users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { beforeTimeKey, exactTime, searchAny, toPage } from "@/server/lib/keyset-page";
import { findWallet, type Wallet, walletBalances } from "@/server/lib/ledger";

type UserRow = typeof users.$inferSelect;

function toAdminUser(row: UserRow, wallet: Wallet | undefined): AdminUser {
  const balances = walletBalances(wallet);
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
    accountBalance: balances.totalBalance,
    availableBalance: balances.availableBalance,
    pendingBalance: balances.pendingBalance,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * One page of accounts, newest first, searched by name, e-mail or Pillar tag ("$tag" works too). The wallet
 * comes in the same query by a join: the old list bound every user id as a parameter, which failed past 65,535.
 */
export async function findUsers(
  db: DbOrTx,
  { cursor, limit, q, role }: AdminUserQuery,
): Promise<Page<AdminUser>> {
  const rows = await db
    .select({
      user: users,
      key: exactTime(users.createdAt),
      wallet: { id: ledgerAccounts.id, balance: ledgerAccounts.balance, held: ledgerAccounts.held },
    })
    .from(users)
    .leftJoin(ledgerAccounts, and(eq(ledgerAccounts.userId, users.id), eq(ledgerAccounts.kind, "wallet")))
    .where(
      and(
        beforeTimeKey(users.createdAt, users.id, cursor),
        role === "all" ? undefined : eq(users.isAdmin, role === "staff"),
        // The same rule as lockReceivingCustomer (server/features/payments/receiving-customer.ts): an open account.
        role === RECEIVING_FILTER
          ? sql`exists (select 1 from ${accountRequests} r where r.user_id = ${users.id}
              and r.superseded_at is null and r.status = 'approved')`
          : undefined,
        searchAny(q?.trim().replace(/^\$/, ""), [
          users.email,
          users.pillarTag,
          sql`${users.firstName} || ' ' || ${users.lastName}`,
        ]),
      ),
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => [r.key, r.user.id],
    (r) => toAdminUser(r.user, r.wallet ? { ...r.wallet, userId: r.user.id } : undefined),
  );
}

export async function getUser(db: DbOrTx, userId: string): Promise<AdminUser> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
  return toAdminUser(row, (await findWallet(db, userId)) ?? undefined);
}

/**
 * Back-office headline figures: customers (the user list's "Customers" filter counts the same rows), approved
 * accounts, money held in wallets, and transactions.
 */
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
