import { eq } from "drizzle-orm";
import type { DashboardContent, UpdateDashboardContentInput } from "@/contract/dashboard-content";
import { DASHBOARD_CONTENT_FIELDS, defaultDashboardContent } from "@/contract/dashboard-content-fields";
import type { Db, DbOrTx } from "@/server/db/client";
import { dashboardContent, users } from "@/server/db/schema";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";

/** The user's dashboard texts: each admin override, or the spec's default where there is none. */
export async function getDashboardContent(db: DbOrTx, userId: string): Promise<DashboardContent> {
  const [row] = await db
    .select({ user: users, content: dashboardContent })
    .from(users)
    .leftJoin(dashboardContent, eq(dashboardContent.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) throw new AppError("NOT_FOUND", "User not found");
  const defaults = defaultDashboardContent(row.user.pillarTag);
  const merged = { userId, ...defaults };
  for (const f of DASHBOARD_CONTENT_FIELDS) {
    const value = row.content?.[f];
    if (value) merged[f] = value;
  }
  return merged;
}

export async function updateDashboardContent(
  db: Db,
  actorId: string,
  userId: string,
  input: UpdateDashboardContentInput,
): Promise<DashboardContent> {
  await db.transaction(async (tx) => {
    const before = await getDashboardContent(tx, userId);
    const values: Partial<Record<(typeof DASHBOARD_CONTENT_FIELDS)[number], string | null>> = {};
    for (const f of DASHBOARD_CONTENT_FIELDS) if (input[f] !== undefined) values[f] = input[f] || null;
    await tx
      .insert(dashboardContent)
      .values({ userId, ...values, updatedBy: actorId })
      .onConflictDoUpdate({
        target: dashboardContent.userId,
        set: { ...values, updatedBy: actorId, updatedAt: new Date() },
      });
    await writeAudit(tx, {
      actorId,
      action: "dashboard_content.update",
      targetType: "user",
      targetId: userId,
      before,
      after: values,
    });
  });
  return getDashboardContent(db, userId);
}
