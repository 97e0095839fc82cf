import { z } from "zod";
import { loginResponse, messageResponse } from "@/contract/auth";
import { endpoints } from "@/contract/endpoint";

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

/**
 * Passkeys (decision 075): the user's list, registration, rename and removal, and passwordless sign-in. The
 * registration's two steps are also limited per address (20 a minute, the server's route config).
 */
export const PASSKEY_ENDPOINTS = endpoints({
  "GET /api/auth/passkeys": { access: "user", replies: { 200: passkeyList } },
  /** Adding a factor to an account that already has one needs a fresh proof of an existing one. */
  "POST /api/auth/passkeys/registration-options": {
    access: "user",
    replies: { 200: webauthnOptions },
    errors: ["passkeys_unavailable", "too_many_passkeys"],
    stepUp: true,
    limit: { perMinute: 10, by: "user", bucket: "passkey-options" },
  },
  "POST /api/auth/passkeys": {
    access: "user",
    body: createPasskeyInput,
    replies: { 200: passkeyInfo },
    errors: ["passkeys_unavailable", "passkey_registration_failed", "passkey_exists", "too_many_passkeys"],
    limit: { perMinute: 10, by: "user", bucket: "passkey-register" },
  },
  "PATCH /api/auth/passkeys/:id": {
    access: "user",
    params: passkeyIdParams,
    body: renamePasskeyInput,
    replies: { 200: passkeyInfo },
    errors: ["NOT_FOUND"],
  },
  "DELETE /api/auth/passkeys/:id": {
    access: "user",
    params: passkeyIdParams,
    replies: { 200: messageResponse },
    errors: ["NOT_FOUND"],
    stepUp: true,
  },
  "POST /api/auth/passkey-login/options": {
    access: "public",
    replies: { 200: passkeyLoginOptionsResponse },
    errors: ["passkeys_unavailable"],
    limit: { perMinute: 20, by: "ip" },
  },
  "POST /api/auth/passkey-login": {
    access: "public",
    body: passkeyLoginInput,
    replies: { 200: loginResponse },
    errors: ["passkeys_unavailable", "passkey_login_failed", "password_reset_required"],
    limit: { perMinute: 10, by: "ip" },
  },
});
