import { eq, sql } from "drizzle-orm";
import {
  AUTH_MESSAGES,
  AUTH_SERVER_MESSAGES,
  type ChangePasswordInput,
  type MessageResponse,
  type SendCodeResponse,
} from "@/contract/auth";
import type { AppDeps } from "@/server/app-deps";
import { users } from "@/server/db/schema";
import { sendCode } from "@/server/features/auth/send-code";
import { issueFreezeLink } from "@/server/features/security/freeze-links";
import { AppError } from "@/server/lib/errors";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { passwordChangedMail } from "@/server/lib/mail/security-templates";
import { notify } from "@/server/lib/notifications";
import { CODE_TTL_SECONDS, redeemCode } from "@/server/lib/one-time-codes";
import { assertPasswordNotCommon, hashPassword, verifyPassword } from "@/server/lib/passwords";
import { deleteUserSessions, type SessionRef, type SessionUser } from "@/server/lib/session";
import { updateUser } from "@/server/lib/write-user";

export async function sendPasswordChangeCode(deps: AppDeps, user: SessionUser): Promise<SendCodeResponse> {
  await sendCode(deps, user, "change_password");
  return { message: AUTH_SERVER_MESSAGES.passwordOtpSent, expiresInSeconds: CODE_TTL_SECONDS };
}

/**
 * Needs the current password and the e-mailed code. Keeps this session, signs out every other one and
 * tells the owner by e-mail, all in the transaction that spends the code.
 */
export async function changePassword(
  deps: AppDeps,
  user: SessionUser,
  session: SessionRef,
  input: ChangePasswordInput,
): Promise<MessageResponse> {
  const [row] = await deps.database.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id));
  // 400, not 401: the web treats 401 as "signed out" and would redirect to the login page.
  if (!row || !(await verifyPassword(row.passwordHash, input.currentPassword))) {
    throw new AppError("current_password_wrong", AUTH_SERVER_MESSAGES.currentPasswordWrong);
  }
  if (input.newPassword === input.currentPassword) {
    throw new AppError("BAD_REQUEST", AUTH_SERVER_MESSAGES.samePassword);
  }
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
      purpose: "change_password",
      code: input.otpCode,
      secret: deps.config.sessionSecret,
    },
    async (tx) => {
      // The code came through the inbox, so this is a fresh proof of the e-mail as well.
      await updateUser(tx, user.id, {
        passwordHash,
        passwordSetAt: sql`now()`,
        emailVerifiedAt: sql`now()`,
        updatedAt: sql`now()`,
      });
      await deleteUserSessions(tx, user.id, { exceptIdHash: session.idHash });
      const freezeUrl = await issueFreezeLink(tx, deps, { userId: user.id, reason: "password_changed" });
      await notify(
        tx,
        user.id,
        "security",
        {
          title: "Password changed",
          body: "Your password was changed. Other devices were signed out.",
          link: "/settings",
        },
        passwordChangedMail(user.email, { firstName: user.firstName, when: new Date(), freezeUrl }),
      );
    },
  );
  if (!result.ok) throw new AppError("invalid_code", AUTH_MESSAGES.invalidCode);
  wakeMailWorker();
  return { message: AUTH_SERVER_MESSAGES.passwordChanged };
}
