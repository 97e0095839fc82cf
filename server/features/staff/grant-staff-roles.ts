import { eq, type SQL, sql } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { normaliseRoles, STAFF_MANAGEMENT_MESSAGES, type StaffRole } from "@/contract/staff";
import type { DbOrTx, Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import {
  changeStaffRoles,
  type GrantedRoles,
  writeStaffRoles,
} from "@/server/features/staff/write-staff-roles";
import { AppError } from "@/server/lib/errors";
import { staffGrantRefusal } from "@/server/lib/staff-grant-refusal";

const lockedUser = (tx: Tx, where: SQL) =>
  tx
    .select({
      id: users.id,
      email: users.email,
      staffRoles: users.staffRoles,
      isEmailVerified: users.isEmailVerified,
    })
    .from(users)
    .where(where)
    .for("update");

async function grant(
  db: DbOrTx,
  where: SQL,
  notFound: string,
  roles: readonly StaffRole[],
  actorId: string | null,
): Promise<GrantedRoles> {
  return changeStaffRoles(db, async (tx) => {
    const [user] = await lockedUser(tx, where);
    if (!user) throw new AppError("NOT_FOUND", notFound);
    // An unverified account may hold a stranger's password: it never receives staff rights.
    if (!user.isEmailVerified) throw new AppError("CONFLICT", AUTH_SERVER_MESSAGES.adminNeedsVerifiedEmail);
    const staffRoles = normaliseRoles([...user.staffRoles, ...roles]);
    if (staffRoles.length === user.staffRoles.length) return { id: user.id, email: user.email, staffRoles };
    const refusal = await staffGrantRefusal(tx, user);
    if (refusal) throw refusal;
    return writeStaffRoles(tx, "staff.grant_roles", actorId, user, staffRoles);
  });
}

/**
 * Adds back-office roles to an existing account found by e-mail (CLI `staff:grant`, `admin:grant` = owner,
 * and the owner's "Add staff" form). Audit-logged with the granting owner as actor, or none from the CLI.
 * Granting a role already held changes nothing and logs nothing.
 */
export function grantStaffRoles(
  db: DbOrTx,
  email: string,
  roles: readonly StaffRole[],
  actorId: string | null = null,
): Promise<GrantedRoles> {
  const where = eq(sql`lower(${users.email})`, email.trim().toLowerCase());
  const notFound = actorId ? STAFF_MANAGEMENT_MESSAGES.noAccount : `No account with the e-mail ${email}`;
  return grant(db, where, notFound, roles, actorId);
}

/** The same, for an account the Staff tab already lists (by id). */
export function grantStaffRolesById(
  db: DbOrTx,
  userId: string,
  roles: readonly StaffRole[],
  actorId: string,
): Promise<GrantedRoles> {
  return grant(db, eq(users.id, userId), STAFF_MANAGEMENT_MESSAGES.notFound, roles, actorId);
}
