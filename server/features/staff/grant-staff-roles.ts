import { eq, sql } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { normaliseRoles, type StaffRole } from "@/contract/staff";
import type { DbOrTx } from "@/server/db/client";
import { auditLog, users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { forgetCachedSessions } from "@/server/lib/session";

export interface GrantedRoles {
  id: string;
  email: string;
  staffRoles: StaffRole[];
}

/**
 * Adds back-office roles to an existing account (CLI `staff:grant`, `admin:grant` = owner, and the owner's
 * Staff tab). Audit-logged with the granting owner as actor, or none from the CLI. Granting a role already
 * held changes nothing and logs nothing.
 */
export async function grantStaffRoles(
  db: DbOrTx,
  email: string,
  roles: readonly StaffRole[],
  actorId: string | null = null,
): Promise<GrantedRoles> {
  const granted = await db.transaction(async (tx) => {
    const [user] = await tx
      .select({
        id: users.id,
        email: users.email,
        staffRoles: users.staffRoles,
        isEmailVerified: users.isEmailVerified,
      })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
      .for("update");
    if (!user) throw new AppError("NOT_FOUND", `No account with the e-mail ${email}`);
    // An unverified account may hold a stranger's password: it never receives staff rights.
    if (!user.isEmailVerified) throw new AppError("CONFLICT", AUTH_SERVER_MESSAGES.adminNeedsVerifiedEmail);
    const staffRoles = normaliseRoles([...user.staffRoles, ...roles]);
    if (staffRoles.length !== user.staffRoles.length) {
      await tx.update(users).set({ staffRoles, updatedAt: new Date() }).where(eq(users.id, user.id));
      await tx.insert(auditLog).values({
        actorId,
        action: "staff.grant_roles",
        targetType: "user",
        targetId: user.id,
        before: { staffRoles: user.staffRoles },
        after: { staffRoles },
      });
    }
    return { id: user.id, email: user.email, staffRoles };
  });
  // Signed-in sessions carry the roles: this process sees the grant at once, others within the cache TTL.
  forgetCachedSessions({ userId: granted.id });
  return granted;
}
