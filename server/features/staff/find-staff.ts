import { and, desc, eq, sql } from "drizzle-orm";
import type { Page, PageQuery } from "@/contract/pages";
import { normaliseRoles, STAFF_MANAGEMENT_MESSAGES, type StaffMember } from "@/contract/staff";
import type { Config } from "@/server/config";
import type { DbOrTx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { isAdminEmail } from "@/server/features/auth/users";
import { AppError } from "@/server/lib/errors";
import { beforeTimeKey, exactTime, searchAny, toPage } from "@/server/lib/keyset-page";

const memberColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  staffRoles: users.staffRoles,
  createdAt: users.createdAt,
  key: exactTime(users.createdAt),
  secondFactorEnabled: sql<boolean>`has_second_factor(${users.id})`,
};

type MemberRow = { [K in keyof typeof memberColumns]: unknown } & {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  staffRoles: StaffMember["staffRoles"];
  createdAt: Date;
  key: string;
  secondFactorEnabled: boolean;
};

function toStaffMember(config: Pick<Config, "adminEmails">, row: MemberRow): StaffMember {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    staffRoles: normaliseRoles(row.staffRoles),
    secondFactorEnabled: row.secondFactorEnabled,
    ownerByConfig: row.staffRoles.includes("owner") && isAdminEmail(config, row.email),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Everyone holding a staff role, newest first, searched by name or e-mail. */
export async function findStaff(
  db: DbOrTx,
  config: Pick<Config, "adminEmails">,
  { cursor, limit, q }: PageQuery,
): Promise<Page<StaffMember>> {
  const rows = await db
    .select(memberColumns)
    .from(users)
    .where(
      and(
        eq(users.isAdmin, true),
        beforeTimeKey(users.createdAt, users.id, cursor),
        searchAny(q, [users.email, sql`${users.firstName} || ' ' || ${users.lastName}`]),
      ),
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit + 1);
  return toPage(
    rows as MemberRow[],
    limit,
    (r) => [r.key, r.id],
    (r) => toStaffMember(config, r),
  );
}

/** One account as the Staff tab shows it (after a change it may hold no role at all). */
export async function getStaffMember(
  db: DbOrTx,
  config: Pick<Config, "adminEmails">,
  userId: string,
): Promise<StaffMember> {
  const [row] = await db.select(memberColumns).from(users).where(eq(users.id, userId));
  if (!row) throw new AppError("NOT_FOUND", STAFF_MANAGEMENT_MESSAGES.notFound);
  return toStaffMember(config, row as MemberRow);
}
