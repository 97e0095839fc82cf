import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { generateSecret, generateURI, verifySync } from "otplib";
import { BRAND } from "@/contract/brand";
import type { Config } from "@/server/config";
import type { DbOrTx } from "@/server/db/client";
import { totpFactors } from "@/server/db/schema";
import { decryptField, encryptField } from "@/server/lib/crypto";

/** RFC 6238 defaults every authenticator app understands: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(secret: string, accountEmail: string): string {
  return generateURI({ issuer: BRAND.name, label: accountEmail, secret });
}

export function sealTotpSecret(config: Pick<Config, "dataKey">, secret: string): string {
  return encryptField(config.dataKey, secret);
}

/**
 * The 30-second step the code belongs to (±1 step for clock drift) when it is valid and newer than
 * `afterStep`, otherwise null.
 */
export function matchTotpStep(
  secret: string,
  code: string,
  afterStep: number | null,
  now = Date.now(),
): number | null {
  try {
    const result = verifySync({
      secret,
      token: code,
      epoch: Math.floor(now / 1000),
      epochTolerance: TOTP_PERIOD_SECONDS,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    return result.valid && "timeStep" in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/**
 * Spends a TOTP code of the user's factor (confirmed, or pending when `pending` is set): the step moves
 * forward with a conditional UPDATE, so the same code (or an older one) is never accepted twice, even
 * by two requests racing.
 */
export async function spendTotpCode(
  db: DbOrTx,
  config: Pick<Config, "dataKey">,
  { userId, code, pending = false }: { userId: string; code: string; pending?: boolean },
): Promise<boolean> {
  const [factor] = await db
    .select({ secretSealed: totpFactors.secretSealed, lastUsedStep: totpFactors.lastUsedStep })
    .from(totpFactors)
    .where(
      and(
        eq(totpFactors.userId, userId),
        pending ? isNull(totpFactors.confirmedAt) : isNotNull(totpFactors.confirmedAt),
      ),
    );
  if (!factor) return false;
  const step = matchTotpStep(decryptField(config.dataKey, factor.secretSealed), code, factor.lastUsedStep);
  if (step === null) return false;
  const updated = await db
    .update(totpFactors)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(totpFactors.userId, userId),
        or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: totpFactors.userId });
  return updated.length === 1;
}
