import { z } from "zod";

/** Texts the passkey routes answer with; the web shows them as they are. */
export const PASSKEY_MESSAGES = {
  nameRequired: "Please give this passkey a name",
  nameTooLong: "Passkey names can be at most 60 characters",
  nameInvalid: "Passkey names cannot contain control characters",
  notFound: "Passkey not found",
  alreadyRegistered: "This passkey is already registered",
  registrationFailed: "This passkey could not be registered. Please try again.",
  challengeExpired: "This passkey request expired or was already used. Please try again.",
  verificationFailed: "Your passkey could not be verified. Please try again.",
  loginFailed: "We couldn't sign you in with that passkey. Use your password, or try another passkey.",
  needsPublicUrl: "Passkeys need PUBLIC_URL: this server has no public address configured for them",
  accountFrozen: "This account is frozen. Please contact support.",
  removed: "Passkey removed",
} as const;

export const PASSKEY_NAME_MAX = 60;

export const passkeyName = z
  .string({ error: PASSKEY_MESSAGES.nameRequired })
  .trim()
  .min(1, PASSKEY_MESSAGES.nameRequired)
  .max(PASSKEY_NAME_MAX, PASSKEY_MESSAGES.nameTooLong)
  // C0/C1 controls, and line/paragraph separators: a name lands in e-mail subjects and screen readers.
  .refine((v) => !/[\p{Cc}\u2028\u2029]/u.test(v), PASSKEY_MESSAGES.nameInvalid);

const base64url = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9_-]*$/, "Expected base64url");
const bigBase64url = z
  .string()
  .max(65536)
  .regex(/^[A-Za-z0-9_-]*$/, "Expected base64url");

/** The browser's RegistrationResponseJSON (shape only: the server verifies the contents). */
export const registrationResponse = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: bigBase64url.min(1),
    attestationObject: bigBase64url.min(1),
    authenticatorData: bigBase64url.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: bigBase64url.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** The browser's AuthenticationResponseJSON (shape only). */
export const authenticationResponse = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: bigBase64url.min(1),
    authenticatorData: bigBase64url.min(1),
    signature: bigBase64url.min(1),
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

export const passkeyInfo = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** "multiDevice" (synced, e.g. iCloud Keychain / Google Password Manager) or "singleDevice". */
  deviceType: z.enum(["singleDevice", "multiDevice"]).nullable(),
  backedUp: z.boolean(),
});
export type PasskeyInfo = z.infer<typeof passkeyInfo>;
export const passkeyList = z.array(passkeyInfo);

export const passkeyIdParams = z.object({ id: z.string().max(100) });

export const createPasskeyInput = z.object({ name: passkeyName, response: registrationResponse });
export type CreatePasskeyInput = z.infer<typeof createPasskeyInput>;

export const renamePasskeyInput = z.object({ name: passkeyName });
export type RenamePasskeyInput = z.infer<typeof renamePasskeyInput>;

/** WebAuthn options are passed to the browser as they are; their shape is @simplewebauthn's. */
export const webauthnOptions = z.record(z.string(), z.unknown());

export const passkeyLoginOptionsResponse = z.object({ challengeId: z.string(), options: webauthnOptions });
export type PasskeyLoginOptionsResponse = z.infer<typeof passkeyLoginOptionsResponse>;

export const passkeyLoginInput = z.object({
  challengeId: z.string().max(100),
  response: authenticationResponse,
});
export type PasskeyLoginInput = z.infer<typeof passkeyLoginInput>;
