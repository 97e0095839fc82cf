import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { AdminStats, AdminUser, AdminUserQuery } from "@/contract/admin";
import { ADMIN_MESSAGES, RECEIVING_FILTER } from "@/contract/admin";
import { formatMoney } from "@/contract/money";
import type { Page } from "@/contract/pages";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { accountRequests, ledgerAccounts, users } from "@/server/db/schema";
import { matchesUser, searchCandidates, userSearch } from "@/server/lib/customer-search";
import { AppError } from "@/server/lib/errors";
import { beforeTimeKey, continuedAfter, exactTime, scanBound, toPage } from "@/server/lib/keyset-page";
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
 * One page of accounts, newest first, searched by a fragment of a name, e-mail or Pillar tag, a whole e-mail, a
 * "$tag", the last four digits or whole of an account number, or a crypto address (deposit, saved or paid to). A page
 * is bounded either way (decision 061): a rare match is found through its indexes and only those rows are
 * sorted; a frequent one walks the (created_at, id) index and stops at the page. The wallet comes in the same
 * query by a join: the old list bound every user id as a parameter, which failed past 65,535.
 */
export async function findUsers(
  db: DbOrTx,
  { cursor, limit, q, role }: AdminUserQuery,
): Promise<Page<AdminUser>> {
  const search = userSearch(q);
  const candidates = search ? await searchCandidates(db, search) : null;
  const filters = and(
    beforeTimeKey(users.createdAt, users.id, cursor),
    role === "all" ? undefined : eq(users.isAdmin, role === "staff"),
    // The same rule as lockReceivingCustomer (server/features/credits/receiving-customer.ts): an open account.
    role === RECEIVING_FILTER
      ? sql`exists (select 1 from ${accountRequests} r where r.user_id = ${users.id}
          and r.superseded_at is null and r.status = 'approved')`
      : undefined,
  );
  // A term no index answers (too frequent, or too short) is matched row by row along the created_at index, at most
  // LIST_SEARCH_SCAN_ROWS rows a page (decision 067): a frequent one fills a page long before that.
  const bound =
    search && !candidates
      ? await scanBound(db, users, { kind: "time", createdAt: users.createdAt, id: users.id }, filters)
      : null;
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
        filters,
        // One array literal parameter, however many candidates (ids come from uuid columns: no quoting needed).
        search && candidates ? sql`${users.id} = any(${`{${candidates.join(",")}}`}::uuid[])` : undefined,
        search && !candidates ? matchesUser(search) : undefined,
        bound?.where,
      ),
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit + 1);
  const page = toPage(
    rows,
    limit,
    (r) => [r.key, r.user.id],
    (r) => toAdminUser(r.user, r.wallet ? { ...r.wallet, userId: r.user.id } : undefined),
  );
  return continuedAfter(page, { bound: bound?.key ?? null });
}

export async function getUser(db: DbOrTx, userId: string): Promise<AdminUser> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
  return toAdminUser(row, (await findWallet(db, userId)) ?? undefined);
}

/**
 * Back-office headline figures: customers (the user list's "Customers" filter counts the same rows), approved
 * accounts, money held in wallets, and transactions. Exact and O(1) at any size (decision 061): the folded row
 * plus the deltas the writes' triggers appended since the last fold (admin-stats.ts), in one snapshot.
 */
export async function getAdminStats(db: DbOrTx): Promise<AdminStats> {
  const [row] = await queryRows(
    db,
    sql`select (s.customers + coalesce(d.customers, 0))::text as customers,
        (s.active_accounts + coalesce(d.active_accounts, 0))::text as accounts,
        (s.wallet_balance + coalesce(d.wallet_balance, 0))::text as money,
        (s.transactions + coalesce(d.transactions, 0))::text as history
      from admin_stats s cross join (
        select sum(customers) as customers, sum(active_accounts) as active_accounts,
          sum(wallet_balance) as wallet_balance, sum(transactions) as transactions
        from admin_stats_deltas) d
      where s.id = 1`,
    z.object({ customers: z.string(), accounts: z.string(), money: z.string(), history: z.string() }),
  );
  if (!row) throw new Error("admin_stats has no row: migration 0051 writes it");
  return {
    totalUsers: Number(row.customers),
    activeAccounts: Number(row.accounts),
    totalBalance: formatMoney(BigInt(row.money)),
    transactions: Number(row.history),
  };
}
