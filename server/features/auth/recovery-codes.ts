import { createHmac, randomInt } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { RECOVERY_CODE_COUNT } from "@/contract/security";
import type { DbOrTx } from "@/server/db/client";
import { recoveryCodes } from "@/server/db/schema";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

/** 10 base32 characters (50 bits) from a CSPRNG, shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  let raw = "";
  for (let i = 0; i < 10; i++) raw += ALPHABET[randomInt(0, ALPHABET.length)];
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** Case and the dash do not matter when a person types the code back. */
function normaliseRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/-/g, "");
}

/** Keyed and bound to the user, so a leaked table is useless without SESSION_SECRET and codes never cross accounts. */
function hashRecoveryCode(secret: string, userId: string, code: string): string {
  return createHmac("sha256", secret)
    .update(`recovery:${userId}:${normaliseRecoveryCode(code)}`)
    .digest("hex");
}

/** Replaces every recovery code of the user with ten new ones; the plain codes are returned once, never stored. */
export async function replaceRecoveryCodes(db: DbOrTx, secret: string, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(secret, userId, code) })));
  return codes;
}

/** Marks one unused code as used; a conditional UPDATE, so two requests racing with the same code cannot both win. */
export async function spendRecoveryCode(
  db: DbOrTx,
  secret: string,
  { userId, code }: { userId: string; code: string },
): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashRecoveryCode(secret, userId, code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}
