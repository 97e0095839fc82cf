import { z } from "zod";

/** Texts for "This wasn't me", frozen accounts and new-device alerts; the web shows them as sent. */
export const SECURITY_MESSAGES = {
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

/** Why a "This wasn't me" link was mailed. */
export const FREEZE_REASONS = ["new_device", "password_changed", "second_factor", "transfer"] as const;
export type FreezeReason = (typeof FREEZE_REASONS)[number];

/** POST /api/account/freeze: the token from the link's fragment; any string, so a bad one gets the link's own answer. */
export const freezeAccountInput = z.object({
  token: z.string({ error: SECURITY_MESSAGES.linkInvalid }).max(200, SECURITY_MESSAGES.linkInvalid),
});
export type FreezeAccountInput = z.infer<typeof freezeAccountInput>;

export const freezeAccountResponse = z.object({ message: z.string(), alreadyFrozen: z.boolean() });
export type FreezeAccountResponse = z.infer<typeof freezeAccountResponse>;
