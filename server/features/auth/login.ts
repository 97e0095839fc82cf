import { eq } from "drizzle-orm";
import { AUTH_MESSAGES, AUTH_SERVER_MESSAGES, type LoginInput, type LoginResponse } from "@/contract/auth";
import { SECURITY_MESSAGES } from "@/contract/security";
import type { AppDeps } from "@/server/app";
import { users } from "@/server/db/schema";
import { sendCodeIfAllowed } from "@/server/features/auth/send-code";
import { earnsAdminByEmail, findUserByEmail, toCurrentUser } from "@/server/features/auth/users";
import { recordSignInDevice } from "@/server/features/security/known-devices";
import { AppError } from "@/server/lib/errors";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { spendPasswordCheck, verifyPassword } from "@/server/lib/passwords";
import {
  createSession,
  deleteExpiredSessions,
  deleteSessionByToken,
  forgetCachedSessions,
} from "@/server/lib/session";

export interface LoginContext {
  userAgent?: string;
  ip?: string;
  /** The cookie the browser came with, if any: it is ended so a planted id never becomes signed in. */
  previousToken?: string;
  /** The browser's device cookie, if any (new-device alerts). */
  deviceToken?: string;
}

const invalidCredentials = () => new AppError("UNAUTHORIZED", AUTH_MESSAGES.invalidCredentials);

/** Checks the password and opens a brand-new session; unverified accounts get a fresh code instead. */
export async function login(
  deps: AppDeps,
  input: LoginInput,
  context: LoginContext,
): Promise<LoginResponse & { token: string; deviceToken: string }> {
  const user = await findUserByEmail(deps.database.db, input.email);
  if (!user) {
    await spendPasswordCheck(input.password);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) throw invalidCredentials();

  if (!user.isEmailVerified) {
    await sendCodeIfAllowed(deps, user, "verify_email");
    throw new AppError("FORBIDDEN", AUTH_MESSAGES.verifyEmailFirst, { emailNotVerified: true });
  }
  // Only after the right password: the flag must never tell a guesser that the account exists or was frozen.
  if (user.passwordResetRequired) {
    throw new AppError("FORBIDDEN", SECURITY_MESSAGES.passwordResetRequired, { passwordResetRequired: true });
  }

  const isAdmin = user.isAdmin || earnsAdminByEmail(deps.config, user);
  const { token, device } = await deps.database.db.transaction(async (tx) => {
    if (context.previousToken) await deleteSessionByToken(tx, context.previousToken);
    await deleteExpiredSessions(tx, user.id);
    if (isAdmin !== user.isAdmin) await tx.update(users).set({ isAdmin }).where(eq(users.id, user.id));
    const session = await createSession(tx, {
      userId: user.id,
      userAgent: context.userAgent,
      ip: context.ip,
    });
    const device = await recordSignInDevice(deps, tx, {
      user,
      deviceToken: context.deviceToken,
      userAgent: context.userAgent,
      ip: context.ip,
    });
    return { token: session.token, device };
  });
  if (isAdmin !== user.isAdmin) forgetCachedSessions({ userId: user.id });
  if (device.isNew) wakeMailWorker();
  return {
    message: AUTH_SERVER_MESSAGES.loggedIn,
    user: toCurrentUser({ ...user, isAdmin }),
    token,
    deviceToken: device.deviceToken,
  };
}
