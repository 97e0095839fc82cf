import { randomBytes } from "node:crypto";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { count, eq, sql } from "drizzle-orm";
import { type CreatePasskeyInput, PASSKEY_MESSAGES, type PasskeyInfo } from "@/contract/passkeys";
import type { AppDeps } from "@/server/app-deps";
import { authChallenges, passkeys, users } from "@/server/db/schema";
import { consumeChallenge, findOpenChallenge } from "@/server/features/auth/passkeys/challenges";
import { toPasskeyInfo } from "@/server/features/auth/passkeys/manage-passkeys";
import { notifyPasskeyChange } from "@/server/features/auth/passkeys/passkey-mail";
import { relyingParty } from "@/server/features/auth/passkeys/relying-party";
import {
  CHALLENGE_TTL_SECONDS,
  readClientData,
  userHandleBytes,
} from "@/server/features/auth/passkeys/webauthn-data";
import { AppError, pgErrorCode } from "@/server/lib/errors";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import type { SessionUser } from "@/server/lib/session";

/** Plenty for phones, laptops and security keys, and a bound on what one account can store. */
export const MAX_PASSKEYS = 20;
const MAX_CREDENTIAL_ID_CHARS = 1364;
// ES256, RS256, EdDSA: what platform authenticators and security keys use.
const ALGORITHMS = [-7, -257, -8];

const registrationFailed = () =>
  new AppError("passkey_registration_failed", PASSKEY_MESSAGES.registrationFailed);
const challengeExpired = () => new AppError("passkey_registration_failed", PASSKEY_MESSAGES.challengeExpired);
const tooManyPasskeys = () =>
  new AppError("too_many_passkeys", `You can have at most ${MAX_PASSKEYS} passkeys. Remove one first.`);
const alreadyRegistered = () => new AppError("passkey_exists", PASSKEY_MESSAGES.alreadyRegistered);

/** Options for navigator.credentials.create, with a single-use challenge stored for the user. */
export async function createRegistrationOptions(
  deps: AppDeps,
  user: SessionUser,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(deps.config);
  const { db } = deps.database;
  const existing = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  if (existing.length >= MAX_PASSKEYS) {
    throw tooManyPasskeys();
  }
  // Loaded on first use: most processes never see a passkey, and the library costs ~25 MiB resident.
  const { generateRegistrationOptions } = await import("@simplewebauthn/server");
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`,
    userID: userHandleBytes(user.id),
    challenge: new Uint8Array(randomBytes(32)),
    timeout: CHALLENGE_TTL_SECONDS * 1000,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports ?? undefined })),
    // Discoverable, so the same passkey also signs in without an e-mail address.
    authenticatorSelection: {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "preferred",
    },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await db.insert(authChallenges).values({
    userId: user.id,
    purpose: "passkey_register",
    challenge: options.challenge,
    expiresAt: sql`now() + make_interval(secs => ${CHALLENGE_TTL_SECONDS})`,
  });
  return options;
}

/**
 * Verifies the authenticator's attestation against the user's open challenge, then spends the challenge,
 * stores the credential and mails the owner in one transaction.
 */
export async function registerPasskey(
  deps: AppDeps,
  user: SessionUser,
  input: CreatePasskeyInput,
): Promise<PasskeyInfo> {
  const rp = relyingParty(deps.config);
  const { db } = deps.database;
  const response = input.response as RegistrationResponseJSON;
  const clientData = readClientData(response.response.clientDataJSON);
  if (!clientData) throw registrationFailed();

  const challenge = await findOpenChallenge(
    db,
    eq(authChallenges.userId, user.id),
    eq(authChallenges.purpose, "passkey_register"),
    eq(authChallenges.challenge, clientData.challenge),
  );
  if (!challenge) throw challengeExpired();
  if (!rp.isAllowedOrigin(clientData.origin)) throw registrationFailed();

  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>["registrationInfo"];
  try {
    const { verifyRegistrationResponse } = await import("@simplewebauthn/server");
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: clientData.challenge,
      expectedOrigin: clientData.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!result.verified) throw registrationFailed();
    info = result.registrationInfo;
  } catch {
    throw registrationFailed();
  }
  const { credential } = info;
  // WebAuthn ids are at most 1023 bytes; a longer one would not fit the unique index anyway.
  if (credential.id.length > MAX_CREDENTIAL_ID_CHARS) throw registrationFailed();
  const [taken] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.credentialId, credential.id));
  if (taken) throw alreadyRegistered();

  let row: typeof passkeys.$inferSelect;
  try {
    row = await db.transaction(async (tx) => {
      if (!(await consumeChallenge(tx, challenge.id))) throw challengeExpired();
      // The user row is locked so parallel registrations are counted one after the other against the cap.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
      const [{ total } = { total: 0 }] = await tx
        .select({ total: count() })
        .from(passkeys)
        .where(eq(passkeys.userId, user.id));
      if (total >= MAX_PASSKEYS) throw tooManyPasskeys();
      const [inserted] = await tx
        .insert(passkeys)
        .values({
          userId: user.id,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString("base64url"),
          counter: credential.counter,
          transports: credential.transports ?? null,
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          name: input.name,
        })
        .returning();
      await notifyPasskeyChange(tx, deps, user, { kind: "added", passkeyName: input.name });
      return inserted!;
    });
  } catch (err) {
    if (pgErrorCode(err) === "23505") throw alreadyRegistered();
    throw err;
  }
  wakeMailWorker();
  return toPasskeyInfo(row);
}
