import { eq } from "drizzle-orm";
import type { CurrentUser } from "@/contract/auth";
import { normaliseRoles, type StaffRole } from "@/contract/staff";
import type { AppDeps } from "@/server/app-deps";
import type { Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { earnsAdminByEmail, toCurrentUser } from "@/server/features/auth/users";
import { recordSignInDevice } from "@/server/features/security/known-devices";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import {
  createSession,
  deleteExpiredSessions,
  deleteOldestSessions,
  deleteSessionByToken,
  type UserRow,
} from "@/server/lib/session";
import { staffGrantRefusal } from "@/server/lib/staff-grant-refusal";
import { updateUser } from "@/server/lib/write-user";

export interface LoginContext {
  userAgent?: string;
  ip?: string;
  /** The cookie the browser came with, if any: it is ended so a planted id never becomes signed in. */
  previousToken?: string;
  /** The browser's device cookie, if any: a browser new to this account gets the owner an alert. */
  deviceToken?: string;
}

export interface OpenedSession {
  token: string;
  publicId: string;
  user: CurrentUser;
  /** The browser's renewed device cookie value: set it with deviceCookieOptions. */
  deviceToken: string;
}

/**
 * Opens a brand-new session for a user whose identity is already proved (password, plus the second
 * factor when one is on). `inTransaction` runs first in the same transaction (e.g. spending the proof),
 * so a failure there opens nothing.
 */
export async function openSession(
  deps: AppDeps,
  user: UserRow,
  context: LoginContext,
  options: { secondFactorEnabled: boolean; inTransaction?: (tx: Tx) => Promise<void> },
): Promise<OpenedSession> {
  // ADMIN_EMAILS names owners: a proved address gains the role at each sign-in (revoking it here is undone),
  // unless the account banks with Pillar or has money on it: then it signs in as the customer it is.
  const promote = earnsAdminByEmail(deps.config, user) && !user.staffRoles.includes("owner");
  let staffRoles: StaffRole[] = user.staffRoles;
  const { session, device } = await deps.database.db.transaction(async (tx) => {
    if (options.inTransaction) await options.inTransaction(tx);
    if (context.previousToken) await deleteSessionByToken(tx, context.previousToken);
    await deleteExpiredSessions(tx, user.id);
    // One account holds at most MAX_SESSIONS_PER_USER sessions (and so a bounded number of event streams):
    // this login ends the oldest past it.
    await deleteOldestSessions(tx, user.id, deps.config.maxSessionsPerUser - 1);
    if (promote) {
      // The same lock and checks as an owner's grant, so a credit or an application cannot race the promotion.
      const [current] = await tx
        .select({ staffRoles: users.staffRoles })
        .from(users)
        .where(eq(users.id, user.id))
        .for("update");
      if (current && !(await staffGrantRefusal(tx, { id: user.id, staffRoles: current.staffRoles }))) {
        staffRoles = normaliseRoles([...current.staffRoles, "owner"]);
        await updateUser(tx, user.id, { staffRoles });
      }
    }
    const session = await createSession(tx, {
      userId: user.id,
      userAgent: context.userAgent,
      ip: context.ip,
    });
    // Every way in (password, second factor, passkey) records the browser and alerts on a new one.
    const device = await recordSignInDevice(deps, tx, {
      user,
      deviceToken: context.deviceToken,
      userAgent: context.userAgent,
      ip: context.ip,
    });
    return { session, device };
  });
  if (device.isNew) wakeMailWorker();
  return {
    token: session.token,
    publicId: session.publicId,
    user: toCurrentUser({ ...user, staffRoles, isAdmin: staffRoles.length > 0 }, options.secondFactorEnabled),
    deviceToken: device.deviceToken,
  };
}
