import { asc, eq, sql } from "drizzle-orm";
import { normaliseRoles, STAFF_MANAGEMENT_MESSAGES, type StaffRole } from "@/contract/staff";
import type { Config } from "@/server/config";
import type { DbOrTx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { isAdminEmail } from "@/server/features/auth/users";
import {
  changeStaffRoles,
  type GrantedRoles,
  writeStaffRoles,
} from "@/server/features/staff/write-staff-roles";
import { AppError } from "@/server/lib/errors";

/**
 * Takes back-office roles away (the owner's Staff tab). Audited with before/after roles. The last owner keeps
 * the role (409 `lastOwner`), an owner may give up their own owner role only while another owner remains, and
 * an ADMIN_EMAILS owner keeps it (409 `ownerByConfig`: the next sign-in would restore it). Revoking a role
 * not held changes nothing and logs nothing. The user's sessions stay signed in but carry the new roles from
 * the next request, in every instance.
 */
export async function revokeStaffRoles(
  db: DbOrTx,
  config: Pick<Config, "adminEmails">,
  userId: string,
  roles: readonly StaffRole[],
  actorId: string,
): Promise<GrantedRoles> {
  return changeStaffRoles(db, async (tx) => {
    const removesOwner = roles.includes("owner");
    if (removesOwner) {
      // Lock every owner row, in one order, before counting them: two owners demoting each other at once
      // queue here, and the second sees one owner left.
      await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`'owner' = any(${users.staffRoles})`)
        .orderBy(asc(users.id))
        .for("update");
    }
    const [user] = await tx
      .select({ id: users.id, email: users.email, staffRoles: users.staffRoles })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) throw new AppError("NOT_FOUND", STAFF_MANAGEMENT_MESSAGES.notFound);
    const staffRoles = normaliseRoles(user.staffRoles.filter((role) => !roles.includes(role)));
    if (staffRoles.length === user.staffRoles.length) return { id: user.id, email: user.email, staffRoles };
    if (removesOwner && user.staffRoles.includes("owner")) {
      if (isAdminEmail(config, user.email)) {
        throw new AppError("owner_by_config", STAFF_MANAGEMENT_MESSAGES.ownerByConfig);
      }
      const [owners] = await tx
        .select({ total: sql<number>`count(*)::int` })
        .from(users)
        .where(sql`'owner' = any(${users.staffRoles})`);
      if ((owners?.total ?? 0) <= 1) {
        throw new AppError("last_owner", STAFF_MANAGEMENT_MESSAGES.lastOwner);
      }
    }
    return writeStaffRoles(tx, "staff.revoke_roles", actorId, user, staffRoles);
  });
}
