import { eq, sql } from "drizzle-orm";
import {
  AUTH_MESSAGES,
  AUTH_SERVER_MESSAGES,
  type EmailOnlyInput,
  type MessageResponse,
  type ResetPasswordInput,
} from "@/contract/auth";
import type { AppDeps } from "@/server/app";
import { users } from "@/server/db/schema";
import { sendCodeIfAllowed } from "@/server/features/auth/send-code";
import { findUserByEmail } from "@/server/features/auth/users";
import { AppError } from "@/server/lib/errors";
import { redeemCode } from "@/server/lib/one-time-codes";
import { assertPasswordNotCommon, hashPassword } from "@/server/lib/passwords";
import { deleteUserSessions, forgetCachedSessions } from "@/server/lib/session";

/** The same answer whether or not the e-mail exists, so the form cannot be used to find customers. */
export async function requestPasswordReset(deps: AppDeps, input: EmailOnlyInput): Promise<MessageResponse> {
  const user = await findUserByEmail(deps.database.db, input.email);
  if (user) await sendCodeIfAllowed(deps, user, "reset_password");
  return { message: AUTH_SERVER_MESSAGES.resetRequested };
}

/** Sets the new password and signs the account out everywhere, in the transaction that spends the code. */
export async function resetPassword(deps: AppDeps, input: ResetPasswordInput): Promise<MessageResponse> {
  const user = await findUserByEmail(deps.database.db, input.email);
  if (!user) throw new AppError("BAD_REQUEST", AUTH_MESSAGES.invalidCode, { invalidCode: true });
  await assertPasswordNotCommon(input.newPassword, [
    user.email,
    user.firstName,
    user.lastName,
    user.pillarTag,
  ]);
  const passwordHash = await hashPassword(input.newPassword);

  const result = await redeemCode(
    deps.database.db,
    {
      userId: user.id,
      purpose: "reset_password",
      code: input.resetCode,
      secret: deps.config.sessionSecret,
    },
    async (tx) => {
      // Reading the code from the inbox proves the address as well as a verification code would.
      await tx
        .update(users)
        .set({
          passwordHash,
          passwordSetAt: sql`now()`,
          isEmailVerified: true,
          emailVerifiedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, user.id));
      await deleteUserSessions(tx, user.id);
    },
  );
  if (!result.ok) throw new AppError("BAD_REQUEST", AUTH_MESSAGES.invalidCode, { invalidCode: true });
  forgetCachedSessions({ userId: user.id });
  return { message: AUTH_SERVER_MESSAGES.passwordReset };
}
