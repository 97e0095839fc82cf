import { randomBytes } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { and, eq, lt, sql } from "drizzle-orm";
import { authenticationResponse, PASSKEY_MESSAGES } from "@/contract/passkeys";
import type { AppDeps } from "@/server/app-deps";
import type { DbOrTx } from "@/server/db/client";
import { authChallenges, passkeys } from "@/server/db/schema";
import { consumeChallenge, findOpenChallenge } from "@/server/features/auth/passkeys/challenges";
import { relyingParty } from "@/server/features/auth/passkeys/relying-party";
import {
  boundChallenge,
  CHALLENGE_TTL_SECONDS,
  isHex,
  isUuid,
  readClientData,
  userHandleOf,
} from "@/server/features/auth/passkeys/webauthn-data";
import { AppError } from "@/server/lib/errors";

export type PasskeyPurpose = "login" | "step_up" | "transfer";

// Second-factor and passwordless login assertions share one purpose; the row's user tells them apart.
const ROW_PURPOSE = { login: "passkey_login", step_up: "step_up", transfer: "transfer" } as const;

/** Why an assertion was refused; the caller picks the status (400 for a second factor, 401 for sign-in). */
export class PasskeyAssertionError extends Error {
  constructor(readonly reason: "expired" | "invalid") {
    super(reason === "expired" ? PASSKEY_MESSAGES.challengeExpired : PASSKEY_MESSAGES.verificationFailed);
    this.name = "PasskeyAssertionError";
  }
}

/** A single-use WebAuthn assertion challenge; userId null = passwordless (any of the user's discoverable credentials). */
export async function startPasskeyProof(
  deps: AppDeps,
  input: { userId: string | null; purpose: PasskeyPurpose; binding?: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const rp = relyingParty(deps.config);
  const binding = input.binding ?? "";
  if (!isHex(binding)) throw new Error("startPasskeyProof: binding must be a hex string");
  const { db } = deps.database;
  const allowCredentials = input.userId
    ? (
        await db
          .select({ id: passkeys.credentialId, transports: passkeys.transports })
          .from(passkeys)
          .where(eq(passkeys.userId, input.userId))
      ).map((p) => ({ id: p.id, transports: p.transports ?? undefined }))
    : undefined;
  const nonce = randomBytes(32).toString("hex");
  // Loaded on first use: most processes never see a passkey, and the library costs ~25 MiB resident.
  const { generateAuthenticationOptions } = await import("@simplewebauthn/server");
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials,
    challenge: boundChallenge(nonce, binding),
    timeout: CHALLENGE_TTL_SECONDS * 1000,
    // A passkey alone signs someone in, so it must prove the person (biometric or PIN), not just a touch.
    userVerification: input.userId ? "preferred" : "required",
  });
  const [row] = await db
    .insert(authChallenges)
    .values({
      userId: input.userId,
      purpose: ROW_PURPOSE[input.purpose],
      challenge: options.challenge,
      data: { nonce },
      expiresAt: sql`now() + make_interval(secs => ${CHALLENGE_TTL_SECONDS})`,
    })
    .returning({ id: authChallenges.id });
  return { challengeId: row!.id, options };
}

/** Consumes the challenge and moves the counter in one transaction, both conditional so a race has one winner. */
async function spendAssertion(db: DbOrTx, challengeId: string, passkeyId: string, newCounter: number) {
  await db.transaction(async (tx) => {
    if (!(await consumeChallenge(tx, challengeId))) throw new PasskeyAssertionError("expired");
    const moved = await tx
      .update(passkeys)
      .set({ counter: newCounter, lastUsedAt: sql`now()` })
      .where(
        and(
          eq(passkeys.id, passkeyId),
          // Synced passkeys report 0 every time; anything else must move forwards.
          newCounter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, newCounter),
        ),
      )
      .returning({ id: passkeys.id });
    if (moved.length === 0) throw new PasskeyAssertionError("invalid");
  });
}

/** A passkey's answer to a challenge: for a signed-in user (or null for passwordless), bound to `binding`. */
export interface PasskeyAssertionInput {
  challengeId: string;
  userId: string | null;
  purpose: PasskeyPurpose;
  binding?: string;
  response: unknown;
}

/**
 * Checks an assertion against a stored challenge and, only when it verifies, consumes the challenge and
 * moves the credential's counter in one transaction. Throws PasskeyAssertionError on any failure.
 */
export async function checkPasskeyAssertion(
  deps: AppDeps,
  input: PasskeyAssertionInput,
): Promise<{ userId: string; passkeyId: string }> {
  const rp = relyingParty(deps.config);
  const { db } = deps.database;
  const parsed = authenticationResponse.safeParse(input.response);
  const binding = input.binding ?? "";
  if (!parsed.success || !isHex(binding)) throw new PasskeyAssertionError("invalid");
  const response = parsed.data as AuthenticationResponseJSON;
  if (typeof input.challengeId !== "string" || !isUuid(input.challengeId))
    throw new PasskeyAssertionError("expired");

  const challenge = await findOpenChallenge(
    db,
    eq(authChallenges.id, input.challengeId.toLowerCase()),
    eq(authChallenges.purpose, ROW_PURPOSE[input.purpose]),
  );
  if (!challenge) throw new PasskeyAssertionError("expired");
  // A challenge made for one account (or for passwordless) is never spent by another caller's flow.
  if (challenge.userId !== input.userId) throw new PasskeyAssertionError("expired");
  const nonce = challenge.data?.nonce;
  if (typeof nonce !== "string") throw new PasskeyAssertionError("expired");

  const [passkey] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id));
  if (!passkey) throw new PasskeyAssertionError("invalid");
  if (challenge.userId && passkey.userId !== challenge.userId) throw new PasskeyAssertionError("invalid");
  const { userHandle } = response.response;
  if (userHandle && userHandle !== userHandleOf(passkey.userId)) throw new PasskeyAssertionError("invalid");

  const clientData = readClientData(response.response.clientDataJSON);
  if (!clientData || !rp.isAllowedOrigin(clientData.origin)) throw new PasskeyAssertionError("invalid");
  const expectedChallenge = Buffer.from(boundChallenge(nonce, binding)).toString("base64url");

  let newCounter: number;
  try {
    const { verifyAuthenticationResponse } = await import("@simplewebauthn/server");
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: clientData.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
      },
      requireUserVerification: challenge.userId === null,
    });
    if (!result.verified) throw new PasskeyAssertionError("invalid");
    newCounter = result.authenticationInfo.newCounter;
  } catch {
    // The library's messages name internals (expected challenges, counters); the client gets one clear text.
    throw new PasskeyAssertionError("invalid");
  }

  await spendAssertion(db, challenge.id, passkey.id, newCounter);
  return { userId: passkey.userId, passkeyId: passkey.id };
}

/** Verifies and consumes the challenge; throws AppError (400 second_factor_invalid, clear message) on any failure. */
export async function verifyPasskeyProof(
  deps: AppDeps,
  input: PasskeyAssertionInput,
): Promise<{ userId: string; passkeyId: string }> {
  try {
    return await checkPasskeyAssertion(deps, input);
  } catch (err) {
    if (err instanceof PasskeyAssertionError) {
      throw new AppError("second_factor_invalid", err.message);
    }
    throw err;
  }
}

export async function hasPasskeys(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .limit(1);
  return Boolean(row);
}
