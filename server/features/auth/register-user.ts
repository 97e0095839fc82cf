import { eq, sql } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES, type RegisterInput, type RegisterResponse } from "@/contract/auth";
import type { AppDeps } from "@/server/app";
import { users } from "@/server/db/schema";
import { sendCodeIfAllowed, sendCodeInTx } from "@/server/features/auth/send-code";
import { findUserByEmail, normaliseEmail } from "@/server/features/auth/users";
import { AppError, pgErrorCode } from "@/server/lib/errors";
import { openWallet } from "@/server/lib/ledger";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { assertPasswordNotCommon, hashPassword } from "@/server/lib/passwords";

function constraintName(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { constraint?: unknown }).constraint;
    if (typeof name === "string") return name;
  }
  return undefined;
}

const emailTaken = () => new AppError("CONFLICT", AUTH_SERVER_MESSAGES.emailTaken, { emailTaken: true });
const handleTaken = () =>
  new AppError("CONFLICT", AUTH_SERVER_MESSAGES.handleTaken, { pillarTagTaken: true });

/**
 * Creates an unverified account and e-mails its code. An e-mail that exists unverified gets a fresh
 * code and a 409 with emailNotVerified, and its details stay as they were: whoever typed the address
 * again has not proved they own it.
 */
export async function registerUser(deps: AppDeps, input: RegisterInput): Promise<RegisterResponse> {
  const email = normaliseEmail(input.email);
  await assertPasswordNotCommon(input.password, [email, input.firstName, input.lastName, input.pillarTag]);

  const existing = await findUserByEmail(deps.database.db, email);
  if (existing) {
    if (existing.isEmailVerified) throw emailTaken();
    await sendCodeIfAllowed(deps, existing, "verify_email");
    throw new AppError("CONFLICT", AUTH_SERVER_MESSAGES.emailNotVerified, { emailNotVerified: true });
  }
  const [tagOwner] = await deps.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.pillarTag})`, input.pillarTag));
  if (tagOwner) throw handleTaken();

  const passwordHash = await hashPassword(input.password);
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
      throw constraintName(err) === "users_pillar_tag_lower_key" ? handleTaken() : emailTaken();
    }
    throw err;
  }
  wakeMailWorker();
  return { message: AUTH_SERVER_MESSAGES.registered, email, requiresVerification: true };
}
