import { AUTH_MESSAGES, AUTH_SERVER_MESSAGES, type LoginInput, type LoginResponse } from "@/contract/auth";
import { type LoginSecondFactorResponse, SECURITY_MESSAGES } from "@/contract/security";
import type { AppDeps } from "@/server/app-deps";
import { startPendingLogin } from "@/server/features/auth/login-second-factor";
import { type LoginContext, openSession } from "@/server/features/auth/open-session";
import { getSecondFactorState } from "@/server/features/auth/second-factor";
import { sendCodeIfAllowed } from "@/server/features/auth/send-code";
import { findUserByEmail } from "@/server/features/auth/users";
import { AppError } from "@/server/lib/errors";
import { spendPasswordCheck, verifyPassword } from "@/server/lib/passwords";

export type LoginResult =
  | (LoginResponse & { token: string; deviceToken: string; pendingToken?: undefined })
  | (LoginSecondFactorResponse & { pendingToken: string; token?: undefined; deviceToken?: undefined });

const invalidCredentials = () => new AppError("UNAUTHORIZED", AUTH_MESSAGES.invalidCredentials);

/**
 * Checks the password. Without a second factor it opens a brand-new session; with one it only starts a
 * five-minute pending login that POST /api/auth/login/verify finishes. Unverified accounts get a fresh code.
 */
export async function login(deps: AppDeps, input: LoginInput, context: LoginContext): Promise<LoginResult> {
  const user = await findUserByEmail(deps.database.db, input.email);
  if (!user) {
    await spendPasswordCheck(input.password);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) throw invalidCredentials();

  if (!user.isEmailVerified) {
    await sendCodeIfAllowed(deps, user, "verify_email");
    throw new AppError("email_not_verified", AUTH_MESSAGES.verifyEmailFirst);
  }
  // Only after the right password: the flag must never tell a guesser that the account exists or was frozen.
  if (user.passwordResetRequired) {
    throw new AppError("password_reset_required", SECURITY_MESSAGES.passwordResetRequired);
  }

  const factors = await getSecondFactorState(deps.database.db, user.id);
  if (factors.enabled) {
    const pendingToken = await startPendingLogin(deps.database.db, user.id);
    return {
      message: SECURITY_MESSAGES.secondFactorRequired,
      secondFactorRequired: true,
      methods: factors.methods,
      pendingToken,
    };
  }
  const opened = await openSession(deps, user, context, { secondFactorEnabled: false });
  return {
    message: AUTH_SERVER_MESSAGES.loggedIn,
    user: opened.user,
    token: opened.token,
    deviceToken: opened.deviceToken,
  };
}
