import { count, desc, eq } from "drizzle-orm";
import type { AdminStats, AdminUser } from "@/contract/admin";
import { ADMIN_MESSAGES } from "@/contract/admin";
import { formatMoney } from "@/contract/money";
import type { DbOrTx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";

type UserRow = typeof users.$inferSelect;

// Balances come from the ledger once it exists; until then every account holds exactly $0.00.
function toAdminUser(row: UserRow): AdminUser {
  const zero = formatMoney(0);
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
    accountBalance: zero,
    availableBalance: zero,
    pendingBalance: zero,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every account, newest first. */
export async function findUsers(db: DbOrTx): Promise<AdminUser[]> {
  const rows = await db.select().from(users).orderBy(desc(users.createdAt), desc(users.id));
  return rows.map(toAdminUser);
}

export async function getUser(db: DbOrTx, userId: string): Promise<AdminUser> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
  return toAdminUser(row);
}

/** Back-office headline figures; money figures join as the ledger lands. */
export async function getAdminStats(db: DbOrTx): Promise<AdminStats> {
  const [{ total }] = await db.select({ total: count() }).from(users).where(eq(users.isAdmin, false));
  return { totalUsers: total, activeAccounts: 0, totalBalance: formatMoney(0), transactions: 0 };
}
