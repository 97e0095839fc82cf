import { and, count, eq, inArray } from "drizzle-orm";
import { ADMIN_MESSAGES } from "@/contract/admin";
import { CLOSURE_MESSAGES } from "@/contract/closure";
import type { Db } from "@/server/db/client";
import { incomingPayments, transferRequests, users } from "@/server/db/schema";
import { hasMoneyHistory } from "@/server/lib/account-closed";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { lockWallet } from "@/server/lib/ledger";
import { deleteUserRow } from "@/server/lib/write-user";

/**
 * Deletes a customer and everything hanging off the account (sessions, codes). Never an admin, never
 * while they hold money or have a transfer or payment in flight, never one with money history (they are closed).
 * The row is locked first so a concurrent change cannot slip in between the checks and the delete.
 */
export async function deleteUser(db: Db, actorId: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!user) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
    if (user.isAdmin) throw new AppError("FORBIDDEN", ADMIN_MESSAGES.cannotDeleteAdmin);
    // A bank never deletes money: the balance must be zero and no transfer or payment may be in flight.
    const wallet = await lockWallet(tx, userId);
    if (wallet.balance !== 0 || wallet.held !== 0)
      throw new AppError("CONFLICT", ADMIN_MESSAGES.userHasMoney);
    const [open] = await tx
      .select({ total: count() })
      .from(transferRequests)
      .where(
        and(eq(transferRequests.userId, userId), inArray(transferRequests.status, ["pending", "processing"])),
      );
    const [incoming] = await tx
      .select({ total: count() })
      .from(incomingPayments)
      .where(
        and(eq(incomingPayments.userId, userId), inArray(incomingPayments.status, ["pending", "processing"])),
      );
    if (open.total > 0 || incoming.total > 0)
      throw new AppError("CONFLICT", ADMIN_MESSAGES.userHasOpenRequests);
    // A bank keeps five years of records (BSA): whoever ever moved money is closed, not deleted (decision 059).
    if (await hasMoneyHistory(tx, userId))
      throw new AppError("has_money_history", CLOSURE_MESSAGES.hasMoneyHistory);
    // The cascade removes their sessions; deleteUserRow drops the cached copies at commit.
    await deleteUserRow(tx, userId);
    await writeAudit(tx, {
      actorId,
      action: "user.delete",
      targetType: "user",
      targetId: userId,
      before: {
        email: user.email,
        pillarTag: user.pillarTag,
        firstName: user.firstName,
        lastName: user.lastName,
      },
      after: null,
    });
  });
}
