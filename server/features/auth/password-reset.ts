import { sql } from "drizzle-orm";
import {
  AUTH_MESSAGES,
  AUTH_SERVER_MESSAGES,
  type EmailOnlyInput,
  type MessageResponse,
  type ResetPasswordInput,
} from "@/contract/auth";
import type { AppDeps } from "@/server/app-deps";
import { clearSecondFactorLock } from "@/server/features/auth/second-factor-lock";
import { sendCodeIfAllowed } from "@/server/features/auth/send-code";
import { findUserByEmail } from "@/server/features/auth/users";
import { runAfterAnswer } from "@/server/lib/after-answer";
import { AppError } from "@/server/lib/errors";
import { checkCode, redeemCode } from "@/server/lib/one-time-codes";
import { assertPasswordNotCommon, hashPassword } from "@/server/lib/passwords";
import { deleteUserSessions } from "@/server/lib/session";
import { updateUser } from "@/server/lib/write-user";

/**
 * The same answer whether or not the e-mail exists, so the form cannot be used to find customers, and in the
 * same time: the lookup, the code and its mail are queued for after the answer, so the request does the same
 * (no) database work either way and its timing says nothing about the account.
 */
export function requestPasswordReset(
  deps: AppDeps,
  input: EmailOnlyInput,
  onError: (error: unknown) => void,
): MessageResponse {
  runAfterAnswer(async () => {
    const user = await findUserByEmail(deps.database.db, input.email);
    if (user) await sendCodeIfAllowed(deps, user, "reset_password");
  }, onError);
  return { message: AUTH_SERVER_MESSAGES.resetRequested };
}

// Stands in for the user id of an unknown e-mail, so that answer runs the same code query as a known one.
const NO_USER_ID = "00000000-0000-0000-0000-000000000000";

/**
 * Sets the new password and signs the account out everywhere, in the transaction that spends the code.
 * An unknown e-mail gets the same answer after the same work (one argon2 hash, one code lookup), and the
 * new password is judged only once the code is known to be right, without spending the code on a refusal.
 */
export async function resetPassword(deps: AppDeps, input: ResetPasswordInput): Promise<MessageResponse> {
  const { db } = deps.database;
  const invalidCode = () => new AppError("invalid_code", AUTH_MESSAGES.invalidCode);
  const user = await findUserByEmail(db, input.email);
  const passwordHash = await hashPassword(input.newPassword);
  const check = {
    userId: user?.id ?? NO_USER_ID,
    purpose: "reset_password" as const,
    code: input.resetCode,
    secret: deps.config.sessionSecret,
  };
  if (!(await checkCode(db, check)) || !user) throw invalidCode();
  await assertPasswordNotCommon(input.newPassword, [
    user.email,
    user.firstName,
    user.lastName,
    user.pillarTag,
  ]);

  const result = await redeemCode(db, check, async (tx) => {
    // Reading the code from the inbox proves the address as well as a verification code would; it is also
    // the proof a frozen account needs before it may sign in again (the freeze itself stays for staff).
    await updateUser(tx, user.id, {
      passwordHash,
      passwordSetAt: sql`now()`,
      isEmailVerified: true,
      emailVerifiedAt: sql`now()`,
      passwordResetRequired: false,
      updatedAt: sql`now()`,
    });
    await deleteUserSessions(tx, user.id);
    // The same proof of the inbox unlocks second-factor codes locked after wrong guesses (decision 018).
    await clearSecondFactorLock(tx, user.id);
  });
  if (!result.ok) throw invalidCode();
  return { message: AUTH_SERVER_MESSAGES.passwordReset };
}
