import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES, type LoginResponse } from "@/contract/auth";
import {
  type PasskeyOptionsResponse,
  PENDING_LOGIN_SECONDS,
  SECURITY_MESSAGES,
  type SecondFactorProof,
} from "@/contract/security";
import type { AppDeps } from "@/server/app-deps";
import type { Config } from "@/server/config";
import type { DbOrTx } from "@/server/db/client";
import { authChallenges, users } from "@/server/db/schema";
import { type LoginContext, openSession } from "@/server/features/auth/open-session";
import { startPasskeyProof } from "@/server/features/auth/passkeys/passkey-proof";
import { asOptionsResponse, spendCodeProof, verifySecondFactor } from "@/server/features/auth/second-factor";
import { recordSecondFactorFailure } from "@/server/features/auth/second-factor-lock";
import { AppError } from "@/server/lib/errors";

/** Five wrong proofs burn the pending login: the password has to be typed again. */
export const MAX_PENDING_LOGIN_ATTEMPTS = 5;

export function pendingLoginCookieName(config: Pick<Config, "cookieSecure">): string {
  return config.cookieSecure ? "__Host-pillar_2fa" : "pillar_2fa";
}

export function pendingLoginCookieOptions(config: Pick<Config, "cookieSecure">) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    secure: config.cookieSecure,
    maxAge: PENDING_LOGIN_SECONDS,
  };
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

const loginExpired = () => new AppError("login_expired", SECURITY_MESSAGES.loginExpired);

/** A password-checked login waiting for its second factor; only the SHA-256 of the cookie's token is stored. */
export async function startPendingLogin(db: DbOrTx, userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(authChallenges).values({
    tokenHash: hashToken(token),
    userId,
    purpose: "login",
    expiresAt: sql`now() + make_interval(secs => ${PENDING_LOGIN_SECONDS})`,
  });
  return token;
}

const liveLogin = (token: string) =>
  and(
    eq(authChallenges.tokenHash, hashToken(token)),
    eq(authChallenges.purpose, "login"),
    isNull(authChallenges.consumedAt),
    gt(authChallenges.expiresAt, sql`now()`),
    lt(authChallenges.attempts, MAX_PENDING_LOGIN_ATTEMPTS),
  );

async function findPendingLogin(db: DbOrTx, token: string | undefined) {
  if (!token || token.length < 20 || token.length > 100) throw loginExpired();
  const [row] = await db
    .select({ id: authChallenges.id, userId: authChallenges.userId })
    .from(authChallenges)
    .where(liveLogin(token));
  if (!row?.userId) throw loginExpired();
  const [user] = await db.select().from(users).where(eq(users.id, row.userId));
  if (!user?.isEmailVerified) throw loginExpired();
  return { challengeId: row.id, user };
}

/** A wrong proof counts against the pending login; the fifth burns it. */
async function countFailedAttempt(db: DbOrTx, challengeId: string): Promise<void> {
  await db
    .update(authChallenges)
    .set({
      attempts: sql`${authChallenges.attempts} + 1`,
      consumedAt: sql`case when ${authChallenges.attempts} + 1 >= ${MAX_PENDING_LOGIN_ATTEMPTS} then now() end`,
    })
    .where(eq(authChallenges.id, challengeId));
}

/** WebAuthn options for finishing this pending login with a passkey. */
export async function startLoginPasskey(
  deps: AppDeps,
  token: string | undefined,
): Promise<PasskeyOptionsResponse> {
  const { user } = await findPendingLogin(deps.database.db, token);
  return asOptionsResponse(await startPasskeyProof(deps, { userId: user.id, purpose: "login" }));
}

/**
 * Finishes a pending login: the proof is spent, the pending login consumed and the session opened in
 * one transaction, exactly as a login without a second factor opens it.
 */
export async function verifyPendingLogin(
  deps: AppDeps,
  token: string | undefined,
  proof: SecondFactorProof,
  context: LoginContext,
): Promise<LoginResponse & { token: string; deviceToken: string }> {
  const { db } = deps.database;
  const { challengeId, user } = await findPendingLogin(db, token);
  try {
    // A passkey is checked (and its challenge spent) up front; codes are spent inside the session's transaction.
    if (proof.method === "passkey") await verifySecondFactor(deps, db, user.id, proof, { purpose: "login" });
    const opened = await openSession(deps, user, context, {
      secondFactorEnabled: true,
      inTransaction: async (tx) => {
        // Conditional: of two requests racing with the same pending login, one wins.
        const consumed = await tx
          .update(authChallenges)
          .set({ consumedAt: sql`now()` })
          .where(and(eq(authChallenges.id, challengeId), liveLogin(token!)))
          .returning({ id: authChallenges.id });
        if (consumed.length !== 1) throw loginExpired();
        if (proof.method !== "passkey")
          await spendCodeProof(deps, tx, user.id, proof, { deviceToken: context.deviceToken });
      },
    });
    return {
      message: AUTH_SERVER_MESSAGES.loggedIn,
      user: opened.user,
      token: opened.token,
      deviceToken: opened.deviceToken,
    };
  } catch (error) {
    if (error instanceof AppError && error.reason === "second_factor_invalid") {
      await countFailedAttempt(db, challengeId);
      // Also against the account: a fresh pending login (the password again) does not start the count over.
      await recordSecondFactorFailure(deps, user.id);
    }
    throw error;
  }
}
