import { sql } from "drizzle-orm";
import { z } from "zod";
import {
  type PasskeyOptionsResponse,
  SECURITY_MESSAGES,
  type SecondFactorMethod,
  type SecondFactorProof,
} from "@/contract/security";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { type PasskeyPurpose, verifyPasskeyProof } from "@/server/features/auth/passkeys/passkey-proof";
import { spendRecoveryCode } from "@/server/features/auth/recovery-codes";
import { assertCodesUnlocked, resetSecondFactorFailures } from "@/server/features/auth/second-factor-lock";
import { spendTotpCode } from "@/server/features/auth/totp";
import { AppError } from "@/server/lib/errors";

export interface SecondFactorState {
  hasTotp: boolean;
  passkeyCount: number;
  recoveryCodesLeft: number;
  /** True when any factor is enrolled: sign-in, money out and security changes then need a proof. */
  enabled: boolean;
  methods: SecondFactorMethod[];
}

export function methodsFor(state: Pick<SecondFactorState, "hasTotp" | "passkeyCount" | "recoveryCodesLeft">) {
  const methods: SecondFactorMethod[] = [];
  if (state.hasTotp) methods.push("totp");
  if (state.recoveryCodesLeft > 0) methods.push("recovery");
  if (state.passkeyCount > 0) methods.push("passkey");
  return methods;
}

/** One query on a few primary-key/indexed lookups; whether a factor is enrolled is has_second_factor's rule. */
export async function getSecondFactorState(db: DbOrTx, userId: string): Promise<SecondFactorState> {
  const [row] = await queryRows(
    db,
    sql`
    select has_second_factor(${userId}::uuid) as enabled,
           exists (select 1 from totp_factors where user_id = ${userId} and confirmed_at is not null) as has_totp,
           (select count(*) from passkeys where user_id = ${userId})::int as passkey_count,
           (select count(*) from recovery_codes where user_id = ${userId} and used_at is null)::int as recovery_left`,
    z.object({
      enabled: z.boolean(),
      has_totp: z.boolean(),
      passkey_count: z.number(),
      recovery_left: z.number(),
    }),
  );
  const state = {
    hasTotp: row!.has_totp,
    passkeyCount: Number(row!.passkey_count),
    // Recovery codes stand in for a lost authenticator; without any factor they prove nothing.
    recoveryCodesLeft: row!.enabled ? Number(row!.recovery_left) : 0,
  };
  return { ...state, enabled: row!.enabled, methods: methodsFor(state) };
}

export function secondFactorInvalid(method: SecondFactorProof["method"] = "totp"): AppError {
  return new AppError(
    "second_factor_invalid",
    method === "recovery" ? SECURITY_MESSAGES.recoveryCodeInvalid : SECURITY_MESSAGES.secondFactorInvalid,
  );
}

export function stepUpRequired(methods: readonly SecondFactorMethod[]): AppError {
  return new AppError("step_up_required", SECURITY_MESSAGES.stepUpRequired, { methods });
}

/** Where a proof came from: a recovery code from a browser the owner signed in with passes a lock. */
export interface ProofOrigin {
  deviceToken?: string | null;
}

/**
 * Checks a TOTP or recovery-code proof and spends it on `db` (pass the caller's transaction so the code
 * is spent only if what it guards is committed). Throws 403 secondFactorLocked, without checking the code,
 * while the account's codes are locked, and 400 secondFactorInvalid on any failure: the caller counts those
 * with countingSecondFactorFailures once its transaction has rolled back.
 */
export async function spendCodeProof(
  deps: AppDeps,
  db: DbOrTx,
  userId: string,
  proof: Extract<SecondFactorProof, { method: "totp" | "recovery" }>,
  origin: ProofOrigin = {},
): Promise<void> {
  await assertCodesUnlocked(db, userId, proof.method, origin.deviceToken);
  const ok =
    proof.method === "totp"
      ? await spendTotpCode(db, deps.config, { userId, code: proof.code })
      : await spendRecoveryCode(db, deps.config.sessionSecret, { userId, code: proof.code });
  if (!ok) throw secondFactorInvalid(proof.method);
  await resetSecondFactorFailures(db, userId);
}

/**
 * Checks any proof for this user. Passkey proofs go through the passkeys feature on their own
 * connection, so call this outside a transaction when the proof may be a passkey.
 */
export async function verifySecondFactor(
  deps: AppDeps,
  db: DbOrTx,
  userId: string,
  proof: SecondFactorProof,
  passkey: { purpose: PasskeyPurpose; binding?: string },
  origin: ProofOrigin = {},
): Promise<void> {
  if (proof.method !== "passkey") return spendCodeProof(deps, db, userId, proof, origin);
  const verified = await verifyPasskeyProof(deps, {
    challengeId: proof.challengeId,
    userId,
    purpose: passkey.purpose,
    binding: passkey.binding,
    response: proof.response,
  });
  if (verified.userId !== userId) throw secondFactorInvalid("passkey");
  await resetSecondFactorFailures(db, userId);
}

/** The WebAuthn options typed as the contract's loose object (the contract does not depend on WebAuthn types). */
export function asOptionsResponse(started: { challengeId: string; options: object }): PasskeyOptionsResponse {
  return started as PasskeyOptionsResponse;
}
