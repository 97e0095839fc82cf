import { type SQL, sql } from "drizzle-orm";
import { CUSTOMER_VISIBLE_ACTIONS } from "@/contract/audit";
import type { DbOrTx } from "@/server/db/client";
import { auditLog } from "@/server/db/schema";

export interface AuditEntry {
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
  /** The customer the row concerns; derived from the target when not given (see subjectOf). */
  subjectUserId?: string | null;
  /** The staff role that authorised it (the first of the route's roles the actor holds, else owner). */
  actorRole?: string | null;
  reason?: string | null;
}

/** Which table names the customer of each target type; a "user" target is the customer itself. */
const TARGET_OWNER_TABLES: Record<string, string> = {
  kyc_application: "kyc_applications",
  account_request: "account_requests",
  transaction: "transactions",
  transfer_request: "transfer_requests",
  incoming_payment: "incoming_payments",
  approval: "approvals",
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The customer a row concerns, read in the same statement as the insert, so no writer has to name it. */
function subjectOf(entry: AuditEntry): SQL | string | null {
  if (entry.subjectUserId !== undefined) return entry.subjectUserId;
  if (!entry.targetId || !UUID.test(entry.targetId)) return null;
  if (entry.targetType === "user") return entry.targetId;
  const table = TARGET_OWNER_TABLES[entry.targetType];
  if (!table) return null;
  return sql`(select user_id from ${sql.identifier(table)} where id = ${entry.targetId}::uuid)`;
}

/**
 * The role that authorised a staff action the customer is shown: the action's role when the actor holds
 * it, otherwise owner (the only other way past the route's check); null when the actor holds no staff role.
 */
function roleOf(entry: AuditEntry): SQL | string | null {
  if (entry.actorRole !== undefined) return entry.actorRole;
  const role = CUSTOMER_VISIBLE_ACTIONS[entry.action]?.role;
  if (!role || !entry.actorId) return null;
  return sql`(select case when ${role} = any(staff_roles) then ${role}
                          when 'owner' = any(staff_roles) then 'owner' end
              from users where id = ${entry.actorId}::uuid)`;
}

/** Writes one audit row; call it inside the same transaction as the change it records. */
export async function writeAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    subjectUserId: subjectOf(entry),
    actorRole: roleOf(entry),
    reason: entry.reason ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
