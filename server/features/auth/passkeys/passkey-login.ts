import { eq } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES, type LoginResponse } from "@/contract/auth";
import { PASSKEY_MESSAGES, type PasskeyLoginInput } from "@/contract/passkeys";
import type { AppDeps } from "@/server/app";
import { users } from "@/server/db/schema";
import type { LoginContext } from "@/server/features/auth/login";
import { checkPasskeyAssertion, PasskeyAssertionError } from "@/server/features/auth/passkeys/passkey-proof";
import { earnsAdminByEmail, toCurrentUser } from "@/server/features/auth/users";
import { AppError } from "@/server/lib/errors";
import {
  createSession,
  deleteExpiredSessions,
  deleteSessionByToken,
  forgetCachedSessions,
  type UserRow,
} from "@/server/lib/session";

const loginFailed = () =>
  new AppError("UNAUTHORIZED", PASSKEY_MESSAGES.loginFailed, { passkeyInvalid: true });

/**
 * A brand-new session for a user who has just proven who they are, exactly as password login opens one:
 * the cookie the browser came with is ended, stale sessions dropped, the ADMIN_EMAILS flag synced.
 */
export async function openSession(
  deps: AppDeps,
  user: UserRow,
  context: LoginContext,
): Promise<LoginResponse & { token: string }> {
  const isAdmin = user.isAdmin || earnsAdminByEmail(deps.config, user);
  const { token } = await deps.database.db.transaction(async (tx) => {
    if (context.previousToken) await deleteSessionByToken(tx, context.previousToken);
    await deleteExpiredSessions(tx, user.id);
    if (isAdmin !== user.isAdmin) await tx.update(users).set({ isAdmin }).where(eq(users.id, user.id));
    return createSession(tx, { userId: user.id, userAgent: context.userAgent, ip: context.ip });
  });
  if (isAdmin !== user.isAdmin) forgetCachedSessions({ userId: user.id });
  return { message: AUTH_SERVER_MESSAGES.loggedIn, user: toCurrentUser({ ...user, isAdmin }), token };
}

/**
 * Passwordless sign-in: a discoverable passkey with user verification is possession plus a biometric or
 * PIN, so it is a full sign-in on its own and asks for no other factor.
 */
export async function loginWithPasskey(
  deps: AppDeps,
  input: PasskeyLoginInput,
  context: LoginContext,
): Promise<LoginResponse & { token: string }> {
  let proven: { userId: string };
  try {
    proven = await checkPasskeyAssertion(deps, {
      challengeId: input.challengeId,
      userId: null,
      purpose: "login",
      response: input.response,
    });
  } catch (err) {
    if (err instanceof PasskeyAssertionError) {
      throw err.reason === "expired"
        ? new AppError("UNAUTHORIZED", PASSKEY_MESSAGES.challengeExpired, { passkeyInvalid: true })
        : loginFailed();
    }
    throw err;
  }
  const [user] = await deps.database.db.select().from(users).where(eq(users.id, proven.userId));
  if (!user?.isEmailVerified) throw loginFailed();
  if (user.frozenAt) throw new AppError("FORBIDDEN", PASSKEY_MESSAGES.accountFrozen, { accountFrozen: true });
  return openSession(deps, user, context);
}
