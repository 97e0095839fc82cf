import { and, desc, eq, inArray, isNotNull, ne } from "drizzle-orm";
import { CUSTOMER_VISIBLE_ACTIONS, type DataAccessEntry } from "@/contract/audit";
import type { PageQuery } from "@/contract/pages";
import { STAFF_ROLES, type StaffRole } from "@/contract/staff";
import type { DbOrTx } from "@/server/db/client";
import { auditLog } from "@/server/db/schema";
import { beforeNumberKey, toPage } from "@/server/lib/keyset-page";

const VISIBLE = Object.keys(CUSTOMER_VISIBLE_ACTIONS);
const isStaffRole = (value: string | null): value is StaffRole =>
  value !== null && (STAFF_ROLES as readonly string[]).includes(value);

/**
 * The signed-in customer's "Access to your data": staff reads of their SSN, documents and chat, and staff
 * actions on their account, newest first. Only what the customer may know is selected — never the actor's
 * id, name or e-mail, nor the before/after values.
 */
export async function findDataAccess(
  db: DbOrTx,
  userId: string,
  { cursor, limit }: Pick<PageQuery, "cursor" | "limit">,
) {
  const rows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      actorRole: auditLog.actorRole,
      reason: auditLog.reason,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.subjectUserId, userId),
        inArray(auditLog.action, VISIBLE),
        // Staff acting on their own customer account is not someone else looking at it.
        isNotNull(auditLog.actorId),
        ne(auditLog.actorId, userId),
        beforeNumberKey(auditLog.id, cursor),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => [String(r.id)],
    (r): DataAccessEntry => {
      const known = CUSTOMER_VISIBLE_ACTIONS[r.action]!;
      return {
        id: String(r.id),
        createdAt: r.createdAt.toISOString(),
        action: r.action,
        description: known.label,
        role: isStaffRole(r.actorRole) ? r.actorRole : known.role,
        reason: r.reason,
      };
    },
  );
}
