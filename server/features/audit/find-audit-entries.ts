import { and, desc, eq, gte, like, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AuditEntry, AuditExportQuery, AuditSearchQuery } from "@/contract/audit";
import type { StaffRole } from "@/contract/staff";
import type { DbOrTx } from "@/server/db/client";
import { auditLog, users } from "@/server/db/schema";
import { beforeNumberKey, toPage } from "@/server/lib/keyset-page";

export type AuditFilters = AuditExportQuery;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ZONE = "America/New_York";

/** A person named by user id (deleted accounts included) or by e-mail (the account that holds it now). */
function personIs(column: typeof auditLog.actorId | typeof auditLog.subjectUserId, who: string): SQL {
  if (UUID.test(who)) return eq(column, who.toLowerCase());
  return sql`${column} = (select id from users where lower(email) = lower(${who}))`;
}

/** The WHERE clause shared by the page and the CSV; every filter is served by one of audit_log's indexes. */
export function auditWhere(filters: AuditFilters): SQL | undefined {
  const { actor, customer, action, from, to } = filters;
  return and(
    actor ? personIs(auditLog.actorId, actor) : undefined,
    customer ? personIs(auditLog.subjectUserId, customer) : undefined,
    action?.endsWith("*")
      ? like(auditLog.action, `${action.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
      : action
        ? eq(auditLog.action, action)
        : undefined,
    // Whole New York days, both ends inclusive.
    from ? gte(auditLog.createdAt, sql`(${from}::date)::timestamp at time zone ${ZONE}`) : undefined,
    to ? lt(auditLog.createdAt, sql`(${to}::date + 1)::timestamp at time zone ${ZONE}`) : undefined,
  );
}

const actorUser = alias(users, "actor_user");
const customerUser = alias(users, "customer_user");

/** Audit rows newest first (id order: ids are handed out as rows are written), with actor and customer. */
export function selectAuditRows(
  db: DbOrTx,
  filters: AuditFilters,
  cursor: string | undefined,
  limit: number,
) {
  return db
    .select({
      row: auditLog,
      actorEmail: actorUser.email,
      actorRoles: actorUser.staffRoles,
      customerEmail: customerUser.email,
      customerName: sql<string | null>`${customerUser.firstName} || ' ' || ${customerUser.lastName}`,
    })
    .from(auditLog)
    .leftJoin(actorUser, eq(actorUser.id, auditLog.actorId))
    .leftJoin(customerUser, eq(customerUser.id, auditLog.subjectUserId))
    .where(and(auditWhere(filters), beforeNumberKey(auditLog.id, cursor)))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

export type AuditRow = Awaited<ReturnType<typeof selectAuditRows>>[number];

export function toAuditEntry({
  row,
  actorEmail,
  actorRoles,
  customerEmail,
  customerName,
}: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    createdAt: row.createdAt.toISOString(),
    actor: row.actorId ? { id: row.actorId, email: actorEmail, roles: actorRoles ?? [] } : null,
    actorRole: (row.actorRole as StaffRole | null) ?? null,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    customer: row.subjectUserId ? { id: row.subjectUserId, email: customerEmail, name: customerName } : null,
    before: row.before,
    after: row.after,
    reason: row.reason,
  };
}

/** One page of the audit search. */
export async function findAuditEntries(db: DbOrTx, query: AuditSearchQuery) {
  const { cursor, limit, ...filters } = query;
  const rows = await selectAuditRows(db, filters, cursor, limit + 1);
  return toPage(rows, limit, (r) => [String(r.row.id)], toAuditEntry);
}
