import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  type PasskeyOptionsResponse,
  SECURITY_MESSAGES,
  type SecondFactorProof,
  STEP_UP_SECONDS,
  type StepUpResponse,
} from "@/contract/security";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { startPasskeyProof } from "@/server/features/auth/passkeys/passkey-proof";
import {
  asOptionsResponse,
  getSecondFactorState,
  methodsFor,
  type ProofOrigin,
  spendCodeProof,
  stepUpRequired,
  verifySecondFactor,
} from "@/server/features/auth/second-factor";
import { countingSecondFactorFailures } from "@/server/features/auth/second-factor-lock";
import { AppError } from "@/server/lib/errors";
import type { SessionRef, SessionUser } from "@/server/lib/session";
import { signedInUser } from "@/server/lib/session-plugin";

/**
 * A step-up marks this one session as freshly proved for five minutes. It is an auth_challenges row whose
 * token_hash is the session's own id hash, so it dies with the session and never moves to another one.
 */
async function markSteppedUp(db: DbOrTx, userId: string, session: SessionRef): Promise<void> {
  await db.execute(sql`
    insert into auth_challenges (token_hash, user_id, purpose, expires_at)
    values (${session.idHash}, ${userId}, 'step_up', now() + make_interval(secs => ${STEP_UP_SECONDS}))
    on conflict (token_hash) do update
      set expires_at = excluded.expires_at, consumed_at = null
      where auth_challenges.purpose = 'step_up' and auth_challenges.user_id = excluded.user_id`);
}

const noFactor = () =>
  new AppError("no_second_factor", "Turn on two-step verification first: there is no second factor to check");

/** POST /api/auth/step-up: checks a proof and marks the session stepped-up. */
export async function stepUp(
  deps: AppDeps,
  user: SessionUser,
  session: SessionRef,
  proof: SecondFactorProof,
  origin: ProofOrigin = {},
): Promise<StepUpResponse> {
  const { db } = deps.database;
  const state = await getSecondFactorState(db, user.id);
  if (!state.enabled) throw noFactor();
  await countingSecondFactorFailures(deps, user.id, async () => {
    if (proof.method === "passkey") {
      await verifySecondFactor(deps, db, user.id, proof, { purpose: "step_up" });
      await markSteppedUp(db, user.id, session);
    } else {
      await db.transaction(async (tx) => {
        await spendCodeProof(deps, tx, user.id, proof, origin);
        await markSteppedUp(tx, user.id, session);
      });
    }
  });
  return { message: SECURITY_MESSAGES.steppedUp, expiresInSeconds: STEP_UP_SECONDS };
}

export async function startStepUpPasskey(deps: AppDeps, user: SessionUser): Promise<PasskeyOptionsResponse> {
  const state = await getSecondFactorState(deps.database.db, user.id);
  if (state.passkeyCount === 0) throw noFactor();
  return asOptionsResponse(await startPasskeyProof(deps, { userId: user.id, purpose: "step_up" }));
}

/** Whether the user has a factor, which ones, and whether this session proved one in the last five minutes. */
export async function getStepUpState(db: DbOrTx, userId: string, session: SessionRef) {
  const [row] = await queryRows(
    db,
    sql`
    select has_second_factor(${userId}::uuid) as enabled,
           exists (select 1 from totp_factors where user_id = ${userId} and confirmed_at is not null) as has_totp,
           (select count(*) from passkeys where user_id = ${userId})::int as passkey_count,
           (select count(*) from recovery_codes where user_id = ${userId} and used_at is null)::int as recovery_left,
           session_stepped_up(${session.idHash}, ${userId}::uuid) as fresh`,
    z.object({
      enabled: z.boolean(),
      has_totp: z.boolean(),
      passkey_count: z.number(),
      recovery_left: z.number(),
      fresh: z.boolean(),
    }),
  );
  const state = {
    hasTotp: row!.has_totp,
    passkeyCount: Number(row!.passkey_count),
    recoveryCodesLeft: Number(row!.recovery_left),
  };
  const enabled = row!.enabled;
  return {
    enabled,
    fresh: row!.fresh,
    methods: methodsFor(enabled ? state : { ...state, recoveryCodesLeft: 0 }),
  };
}

/**
 * preHandler for security changes and staff money moves: when the user has a second factor, this session
 * must have stepped up in the last five minutes (403 stepUpRequired otherwise). Users without a factor pass.
 */
export async function requireFreshStepUp(request: FastifyRequest): Promise<void> {
  const user = signedInUser(request);
  const state = await getStepUpState(request.server.deps.database.db, user.id, request.session!);
  if (state.enabled && !state.fresh) throw stepUpRequired(state.methods);
}

/** The same guard for routes where only some bodies move money (e.g. completing a payment). */
export function requireFreshStepUpWhen(needsStepUp: (request: FastifyRequest) => boolean) {
  return async (request: FastifyRequest): Promise<void> => {
    if (needsStepUp(request)) await requireFreshStepUp(request);
  };
}
