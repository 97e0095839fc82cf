import { eq } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES, type LoginResponse } from "@/contract/auth";
import { PASSKEY_MESSAGES, type PasskeyLoginInput } from "@/contract/passkeys";
import { SECURITY_MESSAGES } from "@/contract/security";
import type { AppDeps } from "@/server/app-deps";
import { users } from "@/server/db/schema";
import { type LoginContext, openSession } from "@/server/features/auth/open-session";
import { checkPasskeyAssertion, PasskeyAssertionError } from "@/server/features/auth/passkeys/passkey-proof";
import { AppError } from "@/server/lib/errors";

const loginFailed = () => new AppError("passkey_login_failed", PASSKEY_MESSAGES.loginFailed);

/**
 * Passwordless sign-in: a discoverable passkey with user verification is possession plus a biometric or
 * PIN, so it is a full sign-in on its own and asks for no other factor.
 */
export async function loginWithPasskey(
  deps: AppDeps,
  input: PasskeyLoginInput,
  context: LoginContext,
): Promise<LoginResponse & { token: string; deviceToken: string }> {
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
        ? new AppError("passkey_login_failed", PASSKEY_MESSAGES.challengeExpired)
        : loginFailed();
    }
    throw err;
  }
  const [user] = await deps.database.db.select().from(users).where(eq(users.id, proven.userId));
  if (!user?.isEmailVerified) throw loginFailed();
  // As with a password: after "This wasn't me" only a reset through the inbox lets the owner back in.
  if (user.passwordResetRequired) {
    throw new AppError("password_reset_required", SECURITY_MESSAGES.passwordResetRequired);
  }
  // A passkey is itself a strong factor, and the account has one by definition.
  const opened = await openSession(deps, user, context, { secondFactorEnabled: true });
  return {
    message: AUTH_SERVER_MESSAGES.loggedIn,
    user: opened.user,
    token: opened.token,
    deviceToken: opened.deviceToken,
  };
}
