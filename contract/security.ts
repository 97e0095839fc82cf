import { z } from "zod";
import { currentUser, loginInput, loginResponse, messageResponse } from "@/contract/auth";
import { endpoints } from "@/contract/endpoint";
import { refineNameCharacters } from "@/contract/person-name";
import { undoSendBlockInput, undoSendBlockResponse } from "@/contract/self-limits";

/** Second factors: TOTP (RFC 6238), single-use recovery codes and passkeys (WebAuthn). */
export const SECOND_FACTOR_METHODS = ["totp", "recovery", "passkey"] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

export const TOTP_CODE_PATTERN = /^\d{6}$/;
/** Ten codes of 10 base32 characters, shown as `xxxxx-xxxxx`; the dash and case are ignored on entry. */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-?[a-z2-7]{5}$/i;
/** A half-done login and a step-up each last five minutes. */
export const PENDING_LOGIN_SECONDS = 5 * 60;
export const STEP_UP_SECONDS = 5 * 60;

export const SECURITY_MESSAGES = {
  codeRequired: "Enter the 6-digit code from your authenticator app",
  recoveryCodeRequired: "Enter one of your recovery codes",
  secondFactorInvalid: "That code is not right. Check your authenticator app and try again.",
  recoveryCodeInvalid: "That recovery code is not valid or was already used",
  secondFactorLocked:
    "Too many wrong codes, so codes are locked for your security. Check your e-mail: reset your password with “Forgot password?” to unlock them.",
  loginExpired: "Your sign-in timed out. Please enter your password again.",
  secondFactorRequired: "Verify it's you to finish signing in",
  stepUpRequired: "Confirm it's you with your second factor to continue",
  steppedUp: "Verified",
  adminSecondFactorRequired:
    "Set up a second factor (an authenticator app or a passkey) before using the back office",
  totpAlreadyEnabled: "Two-step verification with an authenticator app is already on",
  totpNotPending: "Start the authenticator setup again: there is no setup waiting for a code",
  totpNotEnabled: "Two-step verification with an authenticator app is not on",
  totpEnabled: "Authenticator app added. Save your recovery codes now: they are shown only once.",
  totpDisabled: "Authenticator app removed",
  recoveryCodesRegenerated: "New recovery codes created. The old ones no longer work.",
  passwordWrong: "Password is incorrect",
  passkeysUnavailable: "Passkeys are not available yet",
  noPasskey: "There is no passkey on this account to confirm with. Use your authenticator app instead.",
  idempotencyKeyRequired:
    "An Idempotency-Key header is required to confirm a transfer with your second factor",
  // "This wasn't me", frozen accounts and new-device alerts.
  frozen:
    "Your account is frozen. Every device was signed out and new transfers are stopped. Reset your password to sign in again.",
  alreadyFrozen:
    "Your account is already frozen. Reset your password to sign in, and contact support to lift the freeze.",
  linkInvalid: "This link is not valid. Use the newest link from your e-mail, or contact support.",
  linkExpired: "This link has expired. Contact support if you did not make this change.",
  linkUsed: "This link was already used. Contact support if you need help with your account.",
  accountFrozen:
    "Your account is frozen for your security, so new transfers are stopped. Please contact support to lift the freeze.",
  passwordResetRequired:
    "For your security this account was frozen. Reset your password with “Forgot password?” to sign in again.",
  unfrozen: "The freeze was lifted. The customer can send money again once they have reset their password.",
  notFrozen: "This account is not frozen",
} as const;

export const totpCode = z
  .string({ error: SECURITY_MESSAGES.codeRequired })
  .trim()
  .regex(TOTP_CODE_PATTERN, SECURITY_MESSAGES.codeRequired);

export const recoveryCode = z
  .string({ error: SECURITY_MESSAGES.recoveryCodeRequired })
  .trim()
  .regex(RECOVERY_CODE_PATTERN, SECURITY_MESSAGES.recoveryCodeInvalid);

/** One proof of a second factor: a TOTP code, a recovery code, or a WebAuthn assertion for a challenge. */
export const secondFactorProof = z.discriminatedUnion(
  "method",
  [
    z.object({ method: z.literal("totp"), code: totpCode }),
    z.object({ method: z.literal("recovery"), code: recoveryCode }),
    z.object({
      method: z.literal("passkey"),
      challengeId: z.uuid({ error: "Invalid passkey challenge" }),
      // AuthenticationResponseJSON, checked by the WebAuthn verifier rather than here.
      response: z.looseObject({}),
    }),
  ],
  { error: "Choose a way to verify it's you: totp, recovery or passkey" },
);
export type SecondFactorProof = z.infer<typeof secondFactorProof>;

export const secondFactorMethods = z.array(z.enum(SECOND_FACTOR_METHODS));

/** POST /api/auth/login when a second factor is on: no session yet, a pending-login cookie instead. */
export const loginSecondFactorResponse = z.object({
  message: z.string(),
  secondFactorRequired: z.literal(true),
  methods: secondFactorMethods,
});
export type LoginSecondFactorResponse = z.infer<typeof loginSecondFactorResponse>;

/**
 * POST /api/auth/login's 200 as one object (so the OpenAPI document keeps `user`): either signed in with
 * `user`, or `secondFactorRequired` with the `methods` to offer and no session yet.
 */
export const loginResult = z.object({
  message: z.string(),
  user: currentUser.optional(),
  secondFactorRequired: z.literal(true).optional(),
  methods: secondFactorMethods.optional(),
});

export const loginVerifyInput = z.object({ secondFactor: secondFactorProof });
export type LoginVerifyInput = z.infer<typeof loginVerifyInput>;

export const stepUpInput = z.object({ secondFactor: secondFactorProof });
export type StepUpInput = z.infer<typeof stepUpInput>;
export const stepUpResponse = z.object({ message: z.string(), expiresInSeconds: z.number().int() });
export type StepUpResponse = z.infer<typeof stepUpResponse>;

/** WebAuthn request options for the browser (PublicKeyCredentialRequestOptionsJSON), with the challenge's id. */
export const passkeyOptionsResponse = z.object({
  challengeId: z.string(),
  options: z.looseObject({ challenge: z.string() }),
});
export type PasskeyOptionsResponse = z.infer<typeof passkeyOptionsResponse>;

/** GET /api/auth/second-factor: what the Security card shows. */
export const secondFactorStatus = z.object({
  enabled: z.boolean(),
  totp: z.object({ enabled: z.boolean(), confirmedAt: z.string().nullable() }),
  passkeyCount: z.number().int(),
  recoveryCodesLeft: z.number().int(),
  methods: secondFactorMethods,
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatus>;

/** POST /api/auth/totp/enroll: the secret as a manual key and as an otpauth:// URI for the QR code. */
export const totpEnrollResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpEnrollResponse = z.infer<typeof totpEnrollResponse>;

export const totpConfirmInput = z.object({ code: totpCode });
export type TotpConfirmInput = z.infer<typeof totpConfirmInput>;

export const recoveryCodesResponse = z.object({
  message: z.string(),
  recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT),
});
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

/** Disabling needs the password and a current code (authenticator or recovery code) in the same request. */
export const totpDisableInput = z.object({
  password: z.string({ error: "Enter your password" }).min(1, "Enter your password").max(128),
  code: z
    .string({ error: SECURITY_MESSAGES.codeRequired })
    .trim()
    .refine(
      (v) => TOTP_CODE_PATTERN.test(v) || RECOVERY_CODE_PATTERN.test(v),
      SECURITY_MESSAGES.codeRequired,
    ),
});
export type TotpDisableInput = z.infer<typeof totpDisableInput>;

/** The body of the transfer passkey-options call: the transfer's own fields, which the signature will cover. */
export const transferPasskeyOptionsInput = z.object({
  amount: z.union([z.number(), z.string()], { error: "Amount is required" }),
  recipientName: z.string().trim().min(1).max(100).superRefine(refineNameCharacters),
  cryptoAddress: z.string().trim().min(1).max(100),
  idempotencyKey: z.string().min(1).max(255),
  /** As on the transfer itself: no challenge is issued for an unconfirmed lookalike address. */
  confirmLookalikeAddress: z.boolean().optional(),
  /** As on the transfer itself: no challenge is issued for an unconfirmed address without a checksum. */
  confirmUnchecksummedAddress: z.boolean().optional(),
});
export type TransferPasskeyOptionsInput = z.infer<typeof transferPasskeyOptionsInput>;

/** Why a "This wasn't me" link was mailed. */
export const FREEZE_REASONS = [
  "new_device",
  "password_changed",
  "second_factor",
  "transfer",
  "limit_raised",
] as const;
export type FreezeReason = (typeof FREEZE_REASONS)[number];

/** POST /api/account/freeze: the token from the link's fragment; any string, so a bad one gets the link's own answer. */
export const freezeAccountInput = z.object({
  token: z.string({ error: SECURITY_MESSAGES.linkInvalid }).max(200, SECURITY_MESSAGES.linkInvalid),
});
export type FreezeAccountInput = z.infer<typeof freezeAccountInput>;

export const freezeAccountResponse = z.object({ message: z.string(), alreadyFrozen: z.boolean() });
export type FreezeAccountResponse = z.infer<typeof freezeAccountResponse>;

/**
 * POST /api/account/freeze/check: what the link would do, without spending it, so the page can say "already
 * frozen" before asking again. Refuses a link that cannot freeze exactly as the freeze does (400/410 + flags).
 */
export const freezeLinkStatus = z.object({ alreadyFrozen: z.boolean() });
export type FreezeLinkStatus = z.infer<typeof freezeLinkStatus>;

/**
 * Signing in with a password (decision 075), registered with the rest of sign-up. Limited per address here and,
 * by the server's own preHandler, per account: a browser that signed in to the account before counts on its own.
 */
export const LOGIN_ENDPOINTS = endpoints({
  "POST /api/auth/login": {
    access: "public",
    body: loginInput,
    replies: { 200: loginResult },
    errors: ["UNAUTHORIZED", "email_not_verified", "password_reset_required", "RATE_LIMITED"],
    limit: { perMinute: 10, by: "ip" },
  },
});

/**
 * The second step of sign-in, step-up proofs and the authenticator's setup (decision 075). Each is also limited
 * per address (30 a minute, the server's route config); the half-done login's two are limited per pending login
 * by the server's own preHandler.
 */
export const SECOND_FACTOR_ENDPOINTS = endpoints({
  "POST /api/auth/login/verify": {
    access: "public",
    body: loginVerifyInput,
    replies: { 200: loginResponse },
    errors: ["login_expired", "second_factor_invalid", "second_factor_locked", "RATE_LIMITED"],
    limit: { perMinute: 30, by: "ip" },
  },
  "POST /api/auth/login/passkey-options": {
    access: "public",
    replies: { 200: passkeyOptionsResponse },
    errors: ["login_expired", "passkeys_unavailable", "RATE_LIMITED"],
    limit: { perMinute: 30, by: "ip" },
  },
  "POST /api/auth/step-up": {
    access: "user",
    body: stepUpInput,
    replies: { 200: stepUpResponse },
    errors: ["no_second_factor", "second_factor_invalid", "second_factor_locked"],
    limit: { perMinute: 10, by: "user", bucket: "step-up" },
  },
  "POST /api/auth/step-up/passkey-options": {
    access: "user",
    replies: { 200: passkeyOptionsResponse },
    errors: ["no_second_factor", "passkeys_unavailable"],
    limit: { perMinute: 10, by: "user", bucket: "step-up-passkey" },
  },
  "GET /api/auth/second-factor": { access: "user", replies: { 200: secondFactorStatus } },
  "POST /api/auth/totp/enroll": {
    access: "user",
    replies: { 200: totpEnrollResponse },
    errors: ["totp_already_enabled"],
    stepUp: true,
    limit: { perMinute: 10, by: "user", bucket: "totp-enroll" },
  },
  "POST /api/auth/totp/confirm": {
    access: "user",
    body: totpConfirmInput,
    replies: { 200: recoveryCodesResponse },
    errors: ["totp_not_pending", "second_factor_invalid"],
    limit: { perMinute: 10, by: "user", bucket: "totp-confirm" },
  },
  "POST /api/auth/totp/disable": {
    access: "user",
    body: totpDisableInput,
    replies: { 200: messageResponse },
    errors: ["password_wrong", "totp_not_enabled", "second_factor_invalid", "second_factor_locked"],
    limit: { perMinute: 5, by: "user", bucket: "totp-disable" },
  },
  "POST /api/auth/recovery-codes": {
    access: "user",
    replies: { 200: recoveryCodesResponse },
    errors: ["totp_not_enabled"],
    stepUp: true,
    limit: { perMinute: 5, by: "user", bucket: "recovery-codes" },
  },
});

/** "This wasn't me" (decision 075): public, since whoever reported it may have no working sign-in left. */
export const ACCOUNT_SECURITY_ENDPOINTS = endpoints({
  "POST /api/account/freeze": {
    access: "public",
    body: freezeAccountInput,
    replies: { 200: freezeAccountResponse },
    errors: ["freeze_link_invalid", "freeze_link_used", "freeze_link_expired"],
    limit: { perMinute: 10, by: "ip" },
  },
  "POST /api/account/freeze/check": {
    access: "public",
    body: freezeAccountInput,
    replies: { 200: freezeLinkStatus },
    errors: ["freeze_link_invalid", "freeze_link_used", "freeze_link_expired"],
    limit: { perMinute: 30, by: "ip" },
  },
  /** The link e-mailed when "Block crypto sends" is switched on: undoes it within hours (decision 047). */
  "POST /api/account/send-block/undo": {
    access: "public",
    body: undoSendBlockInput,
    replies: { 200: undoSendBlockResponse },
    errors: ["freeze_link_invalid", "freeze_link_used", "freeze_link_expired"],
    limit: { perMinute: 10, by: "ip" },
  },
});
