import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { MessageResponse } from "@/contract/auth";
import {
  type RecoveryCodesResponse,
  SECURITY_MESSAGES,
  type SecondFactorStatus,
  TOTP_CODE_PATTERN,
  type TotpConfirmInput,
  type TotpDisableInput,
  type TotpEnrollResponse,
} from "@/contract/security";
import type { AppDeps } from "@/server/app-deps";
import type { DbOrTx } from "@/server/db/client";
import { recoveryCodes, totpFactors, users } from "@/server/db/schema";
import { replaceRecoveryCodes } from "@/server/features/auth/recovery-codes";
import {
  getSecondFactorState,
  type ProofOrigin,
  secondFactorInvalid,
  spendCodeProof,
} from "@/server/features/auth/second-factor";
import { countingSecondFactorFailures } from "@/server/features/auth/second-factor-lock";
import { enqueueSecondFactorMail } from "@/server/features/auth/security-mail";
import { newTotpSecret, sealTotpSecret, spendTotpCode, totpUri } from "@/server/features/auth/totp";
import { AppError } from "@/server/lib/errors";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { verifyPassword } from "@/server/lib/passwords";
import type { SessionUser } from "@/server/lib/session";
import { forgetAdminSecondFactor } from "@/server/lib/session-plugin";

export async function getSecondFactorStatus(db: DbOrTx, userId: string): Promise<SecondFactorStatus> {
  const [state, [totp]] = await Promise.all([
    getSecondFactorState(db, userId),
    db
      .select({ confirmedAt: totpFactors.confirmedAt })
      .from(totpFactors)
      .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt))),
  ]);
  return {
    enabled: state.enabled,
    totp: { enabled: state.hasTotp, confirmedAt: totp?.confirmedAt?.toISOString() ?? null },
    passkeyCount: state.passkeyCount,
    recoveryCodesLeft: state.recoveryCodesLeft,
    methods: state.methods,
  };
}

/** Starts (or restarts) authenticator setup: a new secret, sealed at rest, waiting for its first code. */
export async function enrollTotp(deps: AppDeps, user: SessionUser): Promise<TotpEnrollResponse> {
  const secret = newTotpSecret();
  const secretSealed = sealTotpSecret(deps.config, secret);
  // Only a pending factor is replaced: a confirmed one must be turned off (password + code) first.
  const rows = await deps.database.db
    .insert(totpFactors)
    .values({ userId: user.id, secretSealed })
    .onConflictDoUpdate({
      target: totpFactors.userId,
      set: { secretSealed, lastUsedStep: null, createdAt: sql`now()` },
      setWhere: isNull(totpFactors.confirmedAt),
    })
    .returning({ userId: totpFactors.userId });
  if (rows.length !== 1) {
    throw new AppError("totp_already_enabled", SECURITY_MESSAGES.totpAlreadyEnabled);
  }
  return { secret, otpauthUrl: totpUri(secret, user.email) };
}

/** The first code turns the authenticator on and yields ten recovery codes, shown this once. */
export async function confirmTotp(
  deps: AppDeps,
  user: SessionUser,
  input: TotpConfirmInput,
): Promise<RecoveryCodesResponse> {
  const { db } = deps.database;
  const [pending] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, user.id), isNull(totpFactors.confirmedAt)));
  if (!pending) throw new AppError("totp_not_pending", SECURITY_MESSAGES.totpNotPending);
  const codes = await db.transaction(async (tx) => {
    if (!(await spendTotpCode(tx, deps.config, { userId: user.id, code: input.code, pending: true }))) {
      throw secondFactorInvalid();
    }
    const confirmed = await tx
      .update(totpFactors)
      .set({ confirmedAt: sql`now()` })
      .where(and(eq(totpFactors.userId, user.id), isNull(totpFactors.confirmedAt)))
      .returning({ userId: totpFactors.userId });
    if (confirmed.length !== 1) throw secondFactorInvalid();
    const fresh = await replaceRecoveryCodes(tx, deps.config.sessionSecret, user.id);
    await enqueueSecondFactorMail(tx, deps, user, "totp_enabled");
    return fresh;
  });
  wakeMailWorker();
  return { message: SECURITY_MESSAGES.totpEnabled, recoveryCodes: codes };
}

/** Needs the password and a current code (authenticator or recovery) in the same request. */
export async function disableTotp(
  deps: AppDeps,
  user: SessionUser,
  input: TotpDisableInput,
  origin: ProofOrigin = {},
): Promise<MessageResponse> {
  const { db } = deps.database;
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id));
  // 400, not 401: the web treats 401 as "signed out".
  if (!row || !(await verifyPassword(row.passwordHash, input.password))) {
    throw new AppError("password_wrong", SECURITY_MESSAGES.passwordWrong);
  }
  const state = await getSecondFactorState(db, user.id);
  if (!state.hasTotp) throw new AppError("totp_not_enabled", SECURITY_MESSAGES.totpNotEnabled);
  const method = TOTP_CODE_PATTERN.test(input.code) ? "totp" : "recovery";
  await countingSecondFactorFailures(deps, user.id, () =>
    db.transaction(async (tx) => {
      await spendCodeProof(deps, tx, user.id, { method, code: input.code }, origin);
      await tx.delete(totpFactors).where(eq(totpFactors.userId, user.id));
      // Recovery codes stand in for a lost factor; with no factor left there is nothing for them to recover.
      if (state.passkeyCount === 0) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      await enqueueSecondFactorMail(tx, deps, user, "totp_disabled");
    }),
  );
  forgetAdminSecondFactor(user.id);
  wakeMailWorker();
  return { message: SECURITY_MESSAGES.totpDisabled };
}

/** Ten new codes replace all the old ones (the route asks for a fresh step-up first). */
export async function regenerateRecoveryCodes(
  deps: AppDeps,
  user: SessionUser,
): Promise<RecoveryCodesResponse> {
  const { db } = deps.database;
  const state = await getSecondFactorState(db, user.id);
  if (!state.enabled) throw new AppError("totp_not_enabled", SECURITY_MESSAGES.totpNotEnabled);
  const codes = await db.transaction(async (tx) => {
    const fresh = await replaceRecoveryCodes(tx, deps.config.sessionSecret, user.id);
    await enqueueSecondFactorMail(tx, deps, user, "recovery_codes_regenerated");
    return fresh;
  });
  wakeMailWorker();
  return { message: SECURITY_MESSAGES.recoveryCodesRegenerated, recoveryCodes: codes };
}
