import type { StaffRole } from "@/contract/staff";
import type { DbOrTx, Tx } from "@/server/db/client";
import { writeAudit } from "@/server/lib/audit";
import { updateUser } from "@/server/lib/write-user";

export interface GrantedRoles {
  id: string;
  email: string;
  staffRoles: StaffRole[];
}

/**
 * Runs a role change in one transaction. Signed-in sessions carry the roles: writeStaffRoles' updateUser
 * forgets the user's cached sessions at commit (here and, by broadcast, in every other instance), so the next
 * request reads the new ones.
 */
export async function changeStaffRoles(
  db: DbOrTx,
  change: (tx: Tx) => Promise<GrantedRoles>,
): Promise<GrantedRoles> {
  return db.transaction(change);
}

/** Stores the user's new roles with their audit row (before/after), inside changeStaffRoles' transaction. */
export async function writeStaffRoles(
  tx: Tx,
  action: "staff.grant_roles" | "staff.revoke_roles",
  actorId: string | null,
  user: GrantedRoles,
  staffRoles: StaffRole[],
): Promise<GrantedRoles> {
  await updateUser(tx, user.id, { staffRoles, updatedAt: new Date() });
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
