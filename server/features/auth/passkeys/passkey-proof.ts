import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { eq } from "drizzle-orm";
import { SECURITY_MESSAGES } from "@/contract/security";
import type { AppDeps } from "@/server/app";
import type { DbOrTx } from "@/server/db/client";
import { passkeys } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";

// Placeholder until the passkeys feature lands: same signatures, hasPasskeys real, the rest refusing.
export type PasskeyPurpose = "login" | "step_up" | "transfer";

export async function startPasskeyProof(
  _deps: AppDeps,
  _input: { userId: string | null; purpose: PasskeyPurpose; binding?: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  throw new AppError("BAD_REQUEST", SECURITY_MESSAGES.passkeysUnavailable, { secondFactorInvalid: true });
}

export async function verifyPasskeyProof(
  _deps: AppDeps,
  _input: {
    challengeId: string;
    userId: string | null;
    purpose: PasskeyPurpose;
    binding?: string;
    response: unknown;
  },
): Promise<{ userId: string; passkeyId: string }> {
  throw new AppError("BAD_REQUEST", SECURITY_MESSAGES.passkeysUnavailable, { secondFactorInvalid: true });
}

export async function hasPasskeys(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .limit(1);
  return row !== undefined;
}
