import { eq, sql } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import type { DbOrTx } from "@/server/db/client";
import { auditLog, users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { forgetCachedSessions } from "@/server/lib/session";

/** Makes an existing account an admin (CLI `admin:grant`); audit-logged with no actor. */
export async function grantAdmin(db: DbOrTx, email: string): Promise<{ id: string; email: string }> {
  const granted = await db.transaction(async (tx) => {
    const [user] = await tx
      .select({
        id: users.id,
        email: users.email,
        isAdmin: users.isAdmin,
        isEmailVerified: users.isEmailVerified,
      })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
      .for("update");
    if (!user) throw new AppError("NOT_FOUND", `No account with the e-mail ${email}`);
    // An unverified account may hold a stranger's password: it never receives admin rights.
    if (!user.isEmailVerified) throw new AppError("CONFLICT", AUTH_SERVER_MESSAGES.adminNeedsVerifiedEmail);
    if (!user.isAdmin) {
      await tx.update(users).set({ isAdmin: true, updatedAt: new Date() }).where(eq(users.id, user.id));
      await tx.insert(auditLog).values({
        actorId: null,
        action: "user.grant_admin",
        targetType: "user",
        targetId: user.id,
        before: { isAdmin: false },
        after: { isAdmin: true },
      });
    }
    return { id: user.id, email: user.email };
  });
  // Signed-in sessions carry isAdmin: this process sees the grant at once, others within the cache TTL.
  forgetCachedSessions({ userId: granted.id });
  return granted;
}
