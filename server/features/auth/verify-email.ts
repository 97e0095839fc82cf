import { eq, sql } from "drizzle-orm";
import {
  AUTH_MESSAGES,
  AUTH_SERVER_MESSAGES,
  type EmailOnlyInput,
  type MessageResponse,
  type VerifyEmailInput,
} from "@/contract/auth";
import type { AppDeps } from "@/server/app-deps";
import { users } from "@/server/db/schema";
import { sendCode } from "@/server/features/auth/send-code";
import { findUserByEmail, isAdminEmail } from "@/server/features/auth/users";
import { AppError } from "@/server/lib/errors";
import { redeemCode } from "@/server/lib/one-time-codes";
import { verifyPassword } from "@/server/lib/passwords";
import { updateUser } from "@/server/lib/write-user";

const invalidCode = () => new AppError("invalid_code", AUTH_MESSAGES.invalidCode);

/**
 * Marks the e-mail verified (and admin when listed in ADMIN_EMAILS: the proof comes after the current
 * password was set). No session: the user logs in next. With `password`, the code only confirms a
 * registration that still holds that password.
 */
export async function verifyEmail(deps: AppDeps, input: VerifyEmailInput): Promise<MessageResponse> {
  const user = await findUserByEmail(deps.database.db, input.email);
  if (!user || user.isEmailVerified) throw invalidCode();
  if (input.password !== undefined && !(await verifyPassword(user.passwordHash, input.password))) {
    throw new AppError("registration_changed", AUTH_SERVER_MESSAGES.registrationChanged);
  }
  const result = await redeemCode(
    deps.database.db,
    { userId: user.id, purpose: "verify_email", code: input.otp, secret: deps.config.sessionSecret },
    async (tx) => {
      // Only the registration this code was sent for: a re-registration in between burnt the code.
      const verified = await updateUser(
        tx,
        user.id,
        {
          isEmailVerified: true,
          emailVerifiedAt: sql`now()`,
          staffRoles: isAdminEmail(deps.config, user.email) ? ["owner"] : [],
          updatedAt: sql`now()`,
        },
        { where: eq(users.passwordHash, user.passwordHash) },
      );
      if (!verified) {
        throw new AppError("registration_changed", AUTH_SERVER_MESSAGES.registrationChanged);
      }
    },
  );
  if (!result.ok) throw invalidCode();
  return { message: AUTH_SERVER_MESSAGES.verified };
}

/** Same answer whether or not the e-mail exists or still needs verifying; only the resend limit shows (429). */
export async function resendVerification(deps: AppDeps, input: EmailOnlyInput): Promise<MessageResponse> {
  const user = await findUserByEmail(deps.database.db, input.email);
  if (user && !user.isEmailVerified) await sendCode(deps, user, "verify_email");
  return { message: AUTH_SERVER_MESSAGES.verificationResent };
}
