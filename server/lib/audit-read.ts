import { and, eq, gt, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { StaffRole } from "@/contract/staff";
import type { Db } from "@/server/db/client";
import { auditLog } from "@/server/db/schema";
import { type AuditEntry, writeAudit } from "@/server/lib/audit";
import { rolesForAdminRoute } from "@/server/lib/route-roles";

/** The role a staff member acted in: the first of the allowed roles they hold, otherwise owner. */
export function authorisingRole(held: readonly StaffRole[], allowed: readonly StaffRole[]): StaffRole {
  return allowed.find((role) => held.includes(role)) ?? "owner";
}

/** authorisingRole for the admin route being answered (requireAdmin has already let the caller in). */
export function adminRouteRole(request: FastifyRequest): StaffRole {
  const allowed = rolesForAdminRoute(request.method, request.routeOptions.url ?? "") ?? [];
  return authorisingRole(request.user?.staffRoles ?? [], allowed);
}

/** Reads this instance audited lately: a poll within the window skips even the database check. */
const recentReads = new Map<string, number>();
const RECENT_READS_MAX = 10_000;

/**
 * Audits a repeated read once per actor, action and customer per window: the first read writes a row, and
 * reads within `windowMinutes` of that row write nothing. Racing reads (two tabs, several instances) take a
 * transaction-scoped advisory lock on the key, so exactly one of them writes.
 */
export async function auditReadOnce(
  db: Db,
  entry: AuditEntry & { actorId: string; subjectUserId: string },
  windowMinutes: number,
): Promise<void> {
  const key = `audit-read|${entry.actorId}|${entry.action}|${entry.subjectUserId}`;
  const seenAt = recentReads.get(key);
  if (seenAt !== undefined && Date.now() - seenAt < windowMinutes * 60_000) return;
  // The time of the row that covers this read, so the cache never stretches the window.
  const coveredAt = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
    const [recent] = await tx
      .select({ createdAt: auditLog.createdAt })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.subjectUserId, entry.subjectUserId),
          eq(auditLog.actorId, entry.actorId),
          eq(auditLog.action, entry.action),
          gt(auditLog.createdAt, sql`now() - make_interval(mins => ${windowMinutes})`),
        ),
      )
      .limit(1);
    if (recent) return recent.createdAt.getTime();
    await writeAudit(tx, entry);
    return Date.now();
  });
  if (recentReads.size >= RECENT_READS_MAX) recentReads.clear();
  recentReads.set(key, coveredAt);
}
