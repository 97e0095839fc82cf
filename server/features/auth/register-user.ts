import { eq, sql } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES, type RegisterInput, type RegisterResponse } from "@/contract/auth";
import type { AppDeps } from "@/server/app-deps";
import { users } from "@/server/db/schema";
import { phoneInE164 } from "@/server/features/auth/phone";
import { sendCodeInTx } from "@/server/features/auth/send-code";
import { findUserByEmail, normaliseEmail } from "@/server/features/auth/users";
import { AppError, pgConstraint, pgErrorCode } from "@/server/lib/errors";
import { openWallet } from "@/server/lib/ledger";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { burnOutstandingCodes } from "@/server/lib/one-time-codes";
import { assertPasswordNotCommon, hashPassword } from "@/server/lib/passwords";
import { updateUser } from "@/server/lib/write-user";

const emailTaken = () => new AppError("email_taken", AUTH_SERVER_MESSAGES.emailTaken);
const handleTaken = () => new AppError("pillar_tag_taken", AUTH_SERVER_MESSAGES.handleTaken);

/**
 * Creates an unverified account and e-mails its code. An e-mail that exists unverified is a pending
 * registration nobody has proved: the latest registrant's details replace it, every code sent for the
 * old details dies, and a fresh code goes to the inbox (409 with emailNotVerified, as the spec's web
 * expects). So whoever proves the e-mail decides the password — never a stranger who typed it first.
 */
export async function registerUser(deps: AppDeps, typed: RegisterInput): Promise<RegisterResponse> {
  const input = { ...typed, phoneNumber: phoneInE164(typed.phoneNumber) };
  const email = normaliseEmail(input.email);
  await assertPasswordNotCommon(input.password, [email, input.firstName, input.lastName, input.pillarTag]);

  const existing = await findUserByEmail(deps.database.db, email);
  if (existing?.isEmailVerified) throw emailTaken();
  const [tagOwner] = await deps.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.pillarTag})`, input.pillarTag));
  if (tagOwner && tagOwner.id !== existing?.id) throw handleTaken();

  const passwordHash = await hashPassword(input.password);
  if (existing) {
    await replacePendingRegistration(deps, { ...existing, firstName: input.firstName }, input, passwordHash);
    wakeMailWorker();
    throw new AppError("registration_unverified", AUTH_SERVER_MESSAGES.emailNotVerified);
  }
  try {
    await deps.database.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email,
          firstName: input.firstName,
          lastName: input.lastName,
          pillarTag: input.pillarTag,
          phoneNumber: input.phoneNumber,
          passwordHash,
        })
        .returning();
      // Every customer has a wallet from the start; it stays empty until money arrives.
      await openWallet(tx, user!.id);
      await sendCodeInTx(deps, tx, user!, "verify_email");
    });
  } catch (err) {
    // Two sign-ups racing past the checks above: the unique indexes decide, with the same clear answers.
    if (pgErrorCode(err) === "23505") {
      throw pgConstraint(err) === "users_pillar_tag_lower_key" ? handleTaken() : emailTaken();
    }
    throw err;
  }
  wakeMailWorker();
  // No sanctions screening here (decision 053): sign-up has no date of birth, and a name alone hit about 1 in 10
  // registrants on the real list, most of them by the origin of their name. Nothing can move money before the
  // KYC is approved (can_send_money), and the KYC submission screens this name with the date of birth.
  return { message: AUTH_SERVER_MESSAGES.registered, email, requiresVerification: true };
}

/** Overwrites a still-unverified registration and burns the codes sent for it, under the row lock. */
async function replacePendingRegistration(
  deps: AppDeps,
  user: { id: string; email: string; firstName: string },
  input: RegisterInput,
  passwordHash: string,
): Promise<void> {
  const userId = user.id;
  try {
    await deps.database.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ isEmailVerified: users.isEmailVerified })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      // Verified between our read and the lock: the owner has decided the account.
      if (!row || row.isEmailVerified) throw emailTaken();
      await updateUser(tx, userId, {
        firstName: input.firstName,
        lastName: input.lastName,
        pillarTag: input.pillarTag,
        phoneNumber: input.phoneNumber,
        passwordHash,
        passwordSetAt: sql`now()`,
        updatedAt: sql`now()`,
      });
      await burnOutstandingCodes(tx, userId, "verify_email");
      // The burnt codes were the only way in, so a new one goes out now; the hourly cap still applies.
      await sendCodeInTx(deps, tx, user, "verify_email", { skipResendInterval: true });
    });
  } catch (err) {
    if (pgErrorCode(err) === "23505") throw handleTaken();
    throw err;
  }
}
