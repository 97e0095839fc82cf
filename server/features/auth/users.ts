import { eq, sql } from "drizzle-orm";
import type { CurrentUser } from "@/contract/auth";
import type { Config } from "@/server/config";
import type { DbOrTx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import type { SessionUser, UserRow } from "@/server/lib/session";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Case-insensitive, matching the unique index on lower(email). */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, normaliseEmail(email)));
  return row;
}

export function isAdminEmail(config: Pick<Config, "adminEmails">, email: string): boolean {
  return config.adminEmails.includes(normaliseEmail(email));
}

/**
 * ADMIN_EMAILS makes an account admin only when its e-mail was proved after its current password was
 * chosen: a password set by anyone who never read the inbox never carries admin rights.
 */
export function earnsAdminByEmail(
  config: Pick<Config, "adminEmails">,
  user: Pick<UserRow, "email" | "isEmailVerified" | "emailVerifiedAt" | "passwordSetAt">,
): boolean {
  return (
    isAdminEmail(config, user.email) &&
    user.isEmailVerified &&
    user.emailVerifiedAt !== null &&
    user.emailVerifiedAt.getTime() >= user.passwordSetAt.getTime()
  );
}

/** The spec's User shape for GET /api/auth/user (isVerified mirrors isEmailVerified). */
export function toCurrentUser(user: SessionUser, secondFactorEnabled: boolean): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    pillarTag: user.pillarTag,
    phoneNumber: user.phoneNumber,
    isAdmin: user.isAdmin,
    staffRoles: user.staffRoles,
    isEmailVerified: user.isEmailVerified,
    isVerified: user.isEmailVerified,
    status: user.status,
    isFrozen: user.frozenAt !== null,
    createdAt: user.createdAt.toISOString(),
    secondFactorEnabled,
  };
}
