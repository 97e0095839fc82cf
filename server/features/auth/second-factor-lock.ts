import { sql } from "drizzle-orm";
import { z } from "zod";
import { SECURITY_MESSAGES, type SecondFactorProof } from "@/contract/security";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { enqueueSecondFactorMail } from "@/server/features/auth/security-mail";
import { hashDeviceToken } from "@/server/features/security/known-devices";
import { AppError } from "@/server/lib/errors";
import { wakeMailWorker } from "@/server/lib/mail/outbox";

/**
 * Wrong proofs in a row, counted per account across sign-in, step-up, transfers and factor changes, after which
 * codes are locked (decision 018). A 6-digit code guessed 10 times has a 1 in 100,000 chance; NIST allows 100.
 */
export const SECOND_FACTOR_LOCK_FAILURES = 10;

export function secondFactorLocked(): AppError {
  return new AppError("second_factor_locked", SECURITY_MESSAGES.secondFactorLocked);
}

/**
 * Refuses a code while the account's codes are locked, without checking it. A recovery code from a browser
 * the owner has signed in with before still passes: that is how the owner gets in before reading the mail.
 * Passkeys are never locked: an assertion cannot be guessed.
 */
export async function assertCodesUnlocked(
  db: DbOrTx,
  userId: string,
  method: Exclude<SecondFactorProof["method"], "passkey">,
  deviceToken?: string | null,
): Promise<void> {
  const deviceHash = method === "recovery" ? hashDeviceToken(deviceToken) : null;
  const [row] = await queryRows(
    db,
    sql`
      select exists (select 1 from second_factor_guards where user_id = ${userId} and locked_at is not null) as locked,
             exists (select 1 from known_devices where user_id = ${userId} and token_hash = ${deviceHash}) as known_device`,
    z.object({ locked: z.boolean(), known_device: z.boolean() }),
  );
  if (row?.locked && !(method === "recovery" && row.known_device)) throw secondFactorLocked();
}

/** A right proof starts the count again; it never lifts a lock (only the e-mail proof does). */
export async function resetSecondFactorFailures(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`
    update second_factor_guards set failures = 0, updated_at = now()
    where user_id = ${userId} and locked_at is null and failures > 0`);
}

/** The owner proved the e-mail (a password reset): the count and the lock go. Call in that transaction. */
export async function clearSecondFactorLock(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`delete from second_factor_guards where user_id = ${userId}`);
}

/**
 * Counts one wrong proof in its own transaction (the caller's rolled back with the refusal). The one that
 * reaches the limit locks the codes and mails the owner at once, with the "This wasn't me" link.
 */
export async function recordSecondFactorFailure(deps: AppDeps, userId: string): Promise<void> {
  const lockedNow = await deps.database.db.transaction(async (tx) => {
    // now() is this transaction's start, so `locked_at = now()` is true only for the statement that locked it.
    const [row] = await queryRows(
      tx,
      sql`
        insert into second_factor_guards as g (user_id, failures, locked_at)
        values (${userId}, 1, case when 1 >= ${SECOND_FACTOR_LOCK_FAILURES} then now() end)
        on conflict (user_id) do update
          set failures = g.failures + 1,
              locked_at = coalesce(g.locked_at, case when g.failures + 1 >= ${SECOND_FACTOR_LOCK_FAILURES} then now() end),
              updated_at = now()
        returning coalesce(g.locked_at = now(), false) as locked_now`,
      z.object({ locked_now: z.boolean() }),
    );
    if (!row?.locked_now) return false;
    const [user] = await queryRows(
      tx,
      sql`select id, email, first_name from users where id = ${userId}`,
      z.object({ id: z.string(), email: z.string(), first_name: z.string() }),
    );
    if (!user) return false;
    await enqueueSecondFactorMail(
      tx,
      deps,
      { id: user.id, email: user.email, firstName: user.first_name },
      {
        subject: "two-step verification codes are locked",
        change: `Someone entered ${SECOND_FACTOR_LOCK_FAILURES} wrong codes in a row for your account, so we locked sign-in and confirmation codes. If it was you, reset your password with “Forgot password?” on the sign-in page: the code we e-mail you unlocks them. A recovery code still works on a browser you have signed in with before, and passkeys still work. If it wasn't you, someone may know your password: freeze your account now.`,
      },
    );
    return true;
  });
  if (lockedNow) wakeMailWorker();
}

/** Runs a step that checks a proof; a wrong proof (400 secondFactorInvalid) is counted after it rolled back. */
export async function countingSecondFactorFailures<T>(
  deps: AppDeps,
  userId: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && error.reason === "second_factor_invalid")
      await recordSecondFactorFailure(deps, userId);
    throw error;
  }
}
