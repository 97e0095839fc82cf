import type { AppDeps } from "@/server/app-deps";
import type { Tx } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";
import { enqueueMail, wakeMailWorker } from "@/server/lib/mail/outbox";
import {
  passwordChangeCodeMail,
  passwordResetCodeMail,
  verificationCodeMail,
} from "@/server/lib/mail/templates";
import { type CodePurpose, issueCode } from "@/server/lib/one-time-codes";

const TEMPLATES = {
  verify_email: verificationCodeMail,
  reset_password: passwordResetCodeMail,
  change_password: passwordChangeCodeMail,
} satisfies Record<CodePurpose, unknown>;

interface CodeRecipient {
  id: string;
  email: string;
  firstName: string;
}

/** Issues a code and queues its e-mail in one transaction, then wakes the mail worker. */
export async function sendCode(deps: AppDeps, user: CodeRecipient, purpose: CodePurpose): Promise<void> {
  await deps.database.db.transaction((tx) => sendCodeInTx(deps, tx, user, purpose));
  wakeMailWorker();
}

export async function sendCodeInTx(
  deps: AppDeps,
  tx: Tx,
  user: CodeRecipient,
  purpose: CodePurpose,
  options: { skipResendInterval?: boolean } = {},
) {
  const code = await issueCode(tx, {
    userId: user.id,
    purpose,
    secret: deps.config.sessionSecret,
    ...options,
  });
  await enqueueMail(tx, TEMPLATES[purpose](user.email, user.firstName, code));
}

/**
 * For flows where a fresh code is a courtesy (login of an unverified account, forgot-password): a code
 * sent seconds ago is still valid, so hitting the resend limit must not change the answer.
 */
export async function sendCodeIfAllowed(deps: AppDeps, user: CodeRecipient, purpose: CodePurpose) {
  try {
    await sendCode(deps, user, purpose);
  } catch (err) {
    if (!(err instanceof AppError && err.code === "RATE_LIMITED")) throw err;
  }
}
