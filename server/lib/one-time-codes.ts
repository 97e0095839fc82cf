import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import type { DbOrTx, Tx } from "@/server/db/client";
import { oneTimeCodes, users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";

export type CodePurpose = (typeof oneTimeCodes.$inferSelect)["purpose"];

export const CODE_TTL_SECONDS = 10 * 60;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_INTERVAL_SECONDS = 30;
export const MAX_CODES_PER_HOUR = 5;

/** Bound to the user and purpose, so a code for one cannot be replayed as the other. */
function hashCode(secret: string, userId: string, purpose: CodePurpose, code: string): string {
  return createHmac("sha256", secret).update(`${purpose}:${userId}:${code}`).digest("hex");
}

export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/**
 * Issues a fresh code and invalidates older ones for the same purpose. Refuses (429) when asked again
 * within 30 s or more than 5 times an hour. Must run inside the caller's transaction.
 */
export async function issueCode(
  tx: Tx,
  {
    userId,
    purpose,
    secret,
    skipResendInterval = false,
  }: {
    userId: string;
    purpose: CodePurpose;
    secret: string;
    /** The earlier codes were burnt for a reason (their registration was replaced): only the hourly cap applies. */
    skipResendInterval?: boolean;
  },
): Promise<string> {
  // Lock the user row: two concurrent resends must not both pass the limit check.
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  const [recent] = await tx
    .select({
      lastAt: sql<string | null>`max(${oneTimeCodes.createdAt})`,
      lastHour: sql<number>`count(*) filter (where ${oneTimeCodes.createdAt} > now() - interval '1 hour')`,
      sinceLast: sql<number | null>`extract(epoch from now() - max(${oneTimeCodes.createdAt}))::float8`,
    })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose)));
  if (
    !skipResendInterval &&
    recent?.sinceLast != null &&
    Number(recent.sinceLast) < RESEND_INTERVAL_SECONDS
  ) {
    const wait = Math.ceil(RESEND_INTERVAL_SECONDS - Number(recent.sinceLast));
    throw new AppError("RATE_LIMITED", AUTH_SERVER_MESSAGES.codeTooSoon, { retryAfterSeconds: wait });
  }
  if (Number(recent?.lastHour ?? 0) >= MAX_CODES_PER_HOUR) {
    throw new AppError("RATE_LIMITED", AUTH_SERVER_MESSAGES.tooManyCodes, { retryAfterSeconds: 3600 });
  }

  await burnOutstandingCodes(tx, userId, purpose);
  const code = generateCode();
  await tx.insert(oneTimeCodes).values({
    userId,
    purpose,
    codeHash: hashCode(secret, userId, purpose, code),
    expiresAt: sql`now() + make_interval(secs => ${CODE_TTL_SECONDS})`,
  });
  return code;
}

/** Every unspent code of this purpose stops working (a newer one was sent, or what it was for changed). */
export async function burnOutstandingCodes(tx: Tx, userId: string, purpose: CodePurpose): Promise<void> {
  await tx
    .update(oneTimeCodes)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.consumedAt),
      ),
    );
}

export type RedeemResult<T> = { ok: true; value: T } | { ok: false };

interface CodeCheck {
  userId: string;
  purpose: CodePurpose;
  code: string;
  secret: string;
}

/**
 * The newest live code, locked, when `code` matches it; null otherwise. A wrong code commits its failed
 * try with the caller's transaction, and the 5th wrong try burns the code.
 */
async function matchCode(tx: Tx, { userId, purpose, code, secret }: CodeCheck) {
  const [row] = await tx
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.consumedAt),
        gt(oneTimeCodes.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1)
    .for("update");
  if (!row || row.attempts >= MAX_CODE_ATTEMPTS) return null;

  const expected = Buffer.from(row.codeHash, "hex");
  const given = Buffer.from(hashCode(secret, userId, purpose, code), "hex");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    const attempts = row.attempts + 1;
    await tx
      .update(oneTimeCodes)
      .set(attempts >= MAX_CODE_ATTEMPTS ? { attempts, consumedAt: sql`now()` } : { attempts })
      .where(eq(oneTimeCodes.id, row.id));
    return null;
  }
  return row;
}

/**
 * True when the code is right, without spending it: a form can then judge the rest of its input (the new
 * password) and answer about it only to someone holding the code. A wrong code counts as a try.
 */
export async function checkCode(db: DbOrTx, check: CodeCheck): Promise<boolean> {
  return db.transaction(async (tx) => (await matchCode(tx, check)) !== null);
}

/**
 * Checks a code and, when right, consumes it and runs `onValid` in the same transaction, so the code is
 * spent exactly when the change it authorises is written. A wrong code still commits its failed try,
 * and the 5th wrong try burns the code.
 */
export async function redeemCode<T>(
  db: DbOrTx,
  check: CodeCheck,
  onValid: (tx: Tx) => Promise<T>,
): Promise<RedeemResult<T>> {
  return db.transaction(async (tx): Promise<RedeemResult<T>> => {
    const row = await matchCode(tx, check);
    if (!row) return { ok: false };
    await tx.update(oneTimeCodes).set({ consumedAt: sql`now()` }).where(eq(oneTimeCodes.id, row.id));
    return { ok: true, value: await onValid(tx) };
  });
}
