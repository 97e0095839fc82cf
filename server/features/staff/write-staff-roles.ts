import { eq } from "drizzle-orm";
import type { StaffRole } from "@/contract/staff";
import type { DbOrTx, Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { writeAudit } from "@/server/lib/audit";
import { forgetCachedSessions } from "@/server/lib/session";

export interface GrantedRoles {
  id: string;
  email: string;
  staffRoles: StaffRole[];
}

/**
 * Runs a role change in one transaction, then forgets the user's cached sessions (here and, by broadcast, in
 * every other instance): signed-in sessions carry the roles, so the next request reads the new ones.
 */
export async function changeStaffRoles(
  db: DbOrTx,
  change: (tx: Tx) => Promise<GrantedRoles>,
): Promise<GrantedRoles> {
  const changed = await db.transaction(change);
  forgetCachedSessions({ userId: changed.id });
  return changed;
}

/** Stores the user's new roles with their audit row (before/after), inside changeStaffRoles' transaction. */
export async function writeStaffRoles(
  tx: Tx,
  action: "staff.grant_roles" | "staff.revoke_roles",
  actorId: string | null,
  user: GrantedRoles,
  staffRoles: StaffRole[],
): Promise<GrantedRoles> {
  await tx.update(users).set({ staffRoles, updatedAt: new Date() }).where(eq(users.id, user.id));
  await writeAudit(tx, {
    actorId,
    action,
    targetType: "user",
    targetId: user.id,
    before: { staffRoles: user.staffRoles },
    after: { staffRoles },
  });
  return { id: user.id, email: user.email, staffRoles };
}
