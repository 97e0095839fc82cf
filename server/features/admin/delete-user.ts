import { eq } from "drizzle-orm";
import { ADMIN_MESSAGES } from "@/contract/admin";
import type { Db } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";

/**
 * Deletes a customer and everything hanging off the account (sessions, codes). Never an admin.
 * The row is locked first so a concurrent change cannot slip in between the checks and the delete.
 */
export async function deleteUser(db: Db, actorId: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!user) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
    if (user.isAdmin) throw new AppError("FORBIDDEN", ADMIN_MESSAGES.cannotDeleteAdmin);
    await tx.delete(users).where(eq(users.id, userId));
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
