import { z } from "zod";
import { BRAND } from "@/contract/brand";
import { endpoints } from "@/contract/endpoint";
import { refineNameCharacters } from "@/contract/person-name";
import { staffRole } from "@/contract/staff";

/** Spec §5 texts, word for word; the web shows them and the server answers with them. */
export const AUTH_MESSAGES = {
  loginMissing: "Missing information: Please fill in all fields",
  signupMissing: "Please fill in all fields including phone number",
  passwordsDoNotMatch: "Passwords do not match",
  passwordTooShort: "Password must be at least 6 characters long",
  resetPasswordTooShort: "Password must be at least 8 characters long",
  passwordTooLong: "Password must be at most 128 characters long",
  handleInvalid: `${BRAND.handleLabel} must be 3-20 characters, letters, numbers, and underscores only`,
  codeInvalid: "Please enter the 6-digit verification code",
  emailRequired: "Please enter your email address",
  emailInvalid: "Please enter a valid email address",
  resetMissing: "Please fill in all fields",
  phoneRequired: "Please enter a phone number",
  phoneInvalid: "Please enter a valid phone number",
  phoneLocked: "Phone number cannot be changed once added",
  verificationCodeRequired: "Please enter the verification code",
  verifyEmailFirst: "Please verify your email before logging in. We sent you a new code.",
  invalidCredentials: "Invalid email or password",
  invalidCode: "Invalid or expired code",
  commonPassword: "This password is too common. Choose a less predictable password.",
} as const;

export const PASSWORD_MIN = 6;
export const RESET_PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const HANDLE_PATTERN = /^[a-z0-9_]{3,20}$/;
export const CODE_PATTERN = /^\d{6}$/;
/** Digits with optional +, spaces, dashes, dots and brackets; 7–15 digits in all (E.164 allows 15). */
export const PHONE_PATTERN = /^\+?[0-9().\s-]{7,24}$/;

const required = (message: string, max = 100) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

const email = (missing: string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .max(254, AUTH_MESSAGES.emailInvalid)
    .pipe(z.email({ error: AUTH_MESSAGES.emailInvalid }));

const phone = (missing: string) =>
  required(missing, 24).refine(
    (v) => PHONE_PATTERN.test(v) && v.replace(/\D/g, "").length >= 7 && v.replace(/\D/g, "").length <= 15,
    {
      message: AUTH_MESSAGES.phoneInvalid,
    },
  );

const otp = (missing: string) =>
  z.string({ error: missing }).trim().regex(CODE_PATTERN, AUTH_MESSAGES.codeInvalid);

export const registerInput = z.object({
  email: email(AUTH_MESSAGES.signupMissing),
  password: z
    .string({ error: AUTH_MESSAGES.signupMissing })
    .min(1, AUTH_MESSAGES.signupMissing)
    .min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort)
    .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong),
  firstName: required(AUTH_MESSAGES.signupMissing).superRefine(refineNameCharacters),
  lastName: required(AUTH_MESSAGES.signupMissing).superRefine(refineNameCharacters),
  pillarTag: z
    .string({ error: AUTH_MESSAGES.signupMissing })
    .trim()
    .min(1, AUTH_MESSAGES.signupMissing)
    .transform((v) => v.toLowerCase())
    .pipe(z.string().regex(HANDLE_PATTERN, AUTH_MESSAGES.handleInvalid)),
  phoneNumber: phone(AUTH_MESSAGES.signupMissing),
});
export type RegisterInput = z.infer<typeof registerInput>;

export const loginInput = z.object({
  email: z.string({ error: AUTH_MESSAGES.loginMissing }).trim().min(1, AUTH_MESSAGES.loginMissing).max(254),
  password: z
    .string({ error: AUTH_MESSAGES.loginMissing })
    .min(1, AUTH_MESSAGES.loginMissing)
    .max(PASSWORD_MAX),
});
export type LoginInput = z.infer<typeof loginInput>;

export const verifyEmailInput = z.object({
  email: email(AUTH_MESSAGES.emailRequired),
  otp: otp(AUTH_MESSAGES.codeInvalid),
  /**
   * The password the person typed when they signed up (or signed in unverified). When given, the code only
   * verifies a registration holding that password, so a stranger who re-registered the address in between
   * cannot have their password confirmed by the owner's code.
   */
  password: z.string().max(PASSWORD_MAX).optional(),
});
export type VerifyEmailInput = z.infer<typeof verifyEmailInput>;

export const emailOnlyInput = z.object({ email: email(AUTH_MESSAGES.emailRequired) });
export type EmailOnlyInput = z.infer<typeof emailOnlyInput>;

export const resetPasswordInput = z.object({
  email: email(AUTH_MESSAGES.resetMissing),
  resetCode: otp(AUTH_MESSAGES.resetMissing),
  newPassword: z
    .string({ error: AUTH_MESSAGES.resetMissing })
    .min(1, AUTH_MESSAGES.resetMissing)
    .min(RESET_PASSWORD_MIN, AUTH_MESSAGES.resetPasswordTooShort)
    .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

export const changePasswordInput = z.object({
  currentPassword: z
    .string({ error: AUTH_MESSAGES.resetMissing })
    .min(1, AUTH_MESSAGES.resetMissing)
    .max(PASSWORD_MAX),
  newPassword: z
    .string({ error: AUTH_MESSAGES.resetMissing })
    .min(1, AUTH_MESSAGES.resetMissing)
    .min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort)
    .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong),
  otpCode: otp(AUTH_MESSAGES.verificationCodeRequired),
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const updatePhoneInput = z.object({ phoneNumber: phone(AUTH_MESSAGES.phoneRequired) });
export type UpdatePhoneInput = z.infer<typeof updatePhoneInput>;

/** What GET /api/auth/user answers for the signed-in user (spec §3 User, §7). */
export const currentUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  pillarTag: z.string(),
  phoneNumber: z.string().nullable(),
  /** Holds any staff role (see staffRoles). */
  isAdmin: z.boolean(),
  /** Back-office roles; empty for customers. The web shows staff only what their roles allow. */
  staffRoles: z.array(staffRole),
  isEmailVerified: z.boolean(),
  isVerified: z.boolean(),
  status: z.string(),
  /** "This wasn't me" froze the account: new transfers are refused until staff lift it. */
  isFrozen: z.boolean(),
  createdAt: z.string(),
  /** An authenticator app or a passkey is enrolled: money out and security changes ask for it. */
  secondFactorEnabled: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUser>;

/** Plain acknowledgement used by the code-sending and password endpoints. */
export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

export const sessionInfo = z.object({
  id: z.string(),
  browser: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;
export const sessionList = z.array(sessionInfo);

/** POST /api/auth/register success: the web moves to the code view. */
export const registerResponse = z.object({
  message: z.string(),
  email: z.string(),
  requiresVerification: z.literal(true),
});
export type RegisterResponse = z.infer<typeof registerResponse>;

/** POST /api/auth/login success; the session cookie is set alongside. */
export const loginResponse = z.object({ message: z.string(), user: currentUser });
export type LoginResponse = z.infer<typeof loginResponse>;

/** POST /api/auth/send-password-otp: the code's lifetime drives the form's countdown. */
export const sendCodeResponse = z.object({ message: z.string(), expiresInSeconds: z.number() });
export type SendCodeResponse = z.infer<typeof sendCodeResponse>;

export const updatePhoneResponse = z.object({ message: z.string(), phoneNumber: z.string() });
export type UpdatePhoneResponse = z.infer<typeof updatePhoneResponse>;

export const sessionIdParams = z.object({ id: z.string().max(100) });

/** Server answers beyond the spec's form texts, shared so the web can match on them if it wants. */
export const AUTH_SERVER_MESSAGES = {
  emailTaken: "An account with this email already exists",
  emailNotVerified: "An account with this email already exists but is not verified. We sent you a new code.",
  handleTaken: `This ${BRAND.handleLabel} is already taken`,
  registered: "Registration successful. Please check your email for the verification code.",
  verified: "Email verified successfully. You can now log in.",
  registrationChanged:
    "This email was registered again after your code was sent. Sign up again to get a new code for your details.",
  adminNeedsVerifiedEmail: "This account has not verified its email yet, so it cannot be made an admin",
  verificationResent: "If this email needs verification, a new code is on its way.",
  loggedIn: "Login successful",
  resetRequested: "If an account exists for this email, we sent a password reset code.",
  passwordReset: "Password reset successfully. You can now log in with your new password.",
  passwordOtpSent: "Verification code sent to your email",
  passwordChanged: "Password changed successfully. Other sessions were signed out.",
  currentPasswordWrong: "Current password is incorrect",
  samePassword: "New password must be different from the current password",
  phoneUpdated: "Phone number updated successfully",
  sessionNotFound: "Session not found",
  sessionRevoked: "Session signed out",
  otherSessionsRevoked: "All other sessions were signed out",
  codeTooSoon: "Please wait a moment before requesting another code",
  tooManyCodes: "Too many codes requested. Please try again in an hour.",
  tooManyAttempts: "Too many attempts. Please wait a minute and try again.",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden: administrators only",
} as const;

/**
 * Sign-up, codes, password reset and change, the phone number and the user's sessions (decision 075). Sign-in
 * itself is in contract/security.ts (its answer names the second factor); GET /api/auth/user and /api/logout
 * stay plain routes (a stale hint cookie is cleared before the 401; a redirect and an HTML page).
 */
export const AUTH_ENDPOINTS = endpoints({
  "POST /api/auth/register": {
    access: "public",
    body: registerInput,
    replies: { 200: registerResponse },
    errors: [
      "VALIDATION",
      "common_password",
      "name_characters_invalid",
      "email_taken",
      "pillar_tag_taken",
      "registration_unverified",
      "RATE_LIMITED",
    ],
    limit: { perMinute: 10, by: "ip" },
  },
  "POST /api/auth/verify-email": {
    access: "public",
    body: verifyEmailInput,
    replies: { 200: messageResponse },
    errors: ["invalid_code", "registration_changed", "RATE_LIMITED"],
    limit: { perMinute: 20, by: "ip" },
  },
  "POST /api/auth/resend-verification": {
    access: "public",
    body: emailOnlyInput,
    replies: { 200: messageResponse },
    errors: ["RATE_LIMITED"],
    limit: { perMinute: 5, by: "ip" },
  },
  /** Also limited per e-mail (the server's own preHandler): a code sent seconds ago keeps the same answer. */
  "POST /api/auth/forgot-password": {
    access: "public",
    body: emailOnlyInput,
    replies: { 200: messageResponse },
    errors: ["RATE_LIMITED"],
    limit: { perMinute: 5, by: "ip" },
  },
  "POST /api/auth/reset-password": {
    access: "public",
    body: resetPasswordInput,
    replies: { 200: messageResponse },
    errors: ["invalid_code", "common_password", "RATE_LIMITED"],
    limit: { perMinute: 10, by: "ip" },
  },
  /** Also limited per address (5 a minute, the server's route config). */
  "POST /api/auth/send-password-otp": {
    access: "user",
    replies: { 200: sendCodeResponse },
    errors: ["RATE_LIMITED"],
    limit: { perMinute: 5, by: "user", bucket: "password-otp" },
  },
  /** Also limited per address (10 a minute, the server's route config). */
  "POST /api/auth/change-password": {
    access: "user",
    body: changePasswordInput,
    replies: { 200: messageResponse },
    errors: ["current_password_wrong", "common_password", "BAD_REQUEST", "invalid_code", "RATE_LIMITED"],
    stepUp: true,
    limit: { perMinute: 10, by: "user", bucket: "change-password" },
  },
  "PUT /api/user/phone": {
    access: "user",
    body: updatePhoneInput,
    replies: { 200: updatePhoneResponse },
    errors: ["VALIDATION", "phone_locked"],
  },
  "GET /api/auth/sessions": { access: "user", replies: { 200: sessionList } },
  "DELETE /api/auth/sessions/:id": {
    access: "user",
    params: sessionIdParams,
    replies: { 200: messageResponse },
    errors: ["NOT_FOUND"],
  },
  "DELETE /api/auth/sessions": { access: "user", replies: { 200: messageResponse } },
});
