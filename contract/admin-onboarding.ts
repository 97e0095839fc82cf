import { z } from "zod";
import { userIdParams } from "@/contract/admin";
import { optionalReason, pendingApprovalResponse } from "@/contract/approvals";
import { revealDateOfBirthResponse, revealSsnInput, revealSsnResponse } from "@/contract/audit";
import { endpoints } from "@/contract/endpoint";
import {
  ACCOUNT_REQUEST_STATUSES,
  accountRequest,
  KYC_STATUSES,
  kycApplication,
  onboardingState,
} from "@/contract/kyc";
import { pageOf, pageQueryWithStatus } from "@/contract/pages";

/** Spec §8 admin toasts and the server's refusals for the Account Requests and KYC Applications tabs. */
export const ONBOARDING_ADMIN_MESSAGES = {
  accountRequestUpdated: "Account request updated successfully",
  kycUpdated: "KYC status updated successfully",
  kycReset: "KYC status reset to pending successfully",
  rejectReasonRequired: "Please provide a reason for rejection",
  accountRequestNotFound: "Account request not found",
  kycNotFound: "KYC application not found",
  onlyPendingApprove: "Only pending applications can be approved",
  onlyPendingReject: "Only pending applications can be rejected",
  onlyRejectedReset: "Only rejected applications can be reset to pending",
  superseded: "This application has been replaced by a newer one",
  accountNumberInvalid: "Account number must be 9 digits (100000000 to 999999999)",
  routingNumberInvalid: "Routing number must be 9 digits",
  accountNumberTaken: "This account number is already in use",
  statusInvalid: "Status must be one of pending, in_review, approved, rejected",
  ssnTakenOnReset: "This SSN is now linked to another account, so the application cannot be reopened",
  tooLong: "Please shorten this field",
  /** 409 identityNotApproved: an account opens only for a verified identity. */
  identityNotApproved: "Identity verification must be approved before the account can be opened",
} as const;

/** Spec §9. */
export const DEFAULT_ROUTING_NUMBER = "021000021";
export const ACCOUNT_NUMBER_MIN = 100_000_000;
export const ACCOUNT_NUMBER_MAX = 999_999_999;

/** Who the item belongs to, for the back-office tables. */
export const onboardingUser = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  pillarTag: z.string(),
  phoneNumber: z.string().nullable(),
});
export type OnboardingUser = z.infer<typeof onboardingUser>;

/** GET /api/admin/kyc-applications item: SSN masked; `isCurrent` false once the user submitted a newer one. */
export const adminKycApplication = kycApplication.extend({
  user: onboardingUser,
  isCurrent: z.boolean(),
});
export type AdminKycApplication = z.infer<typeof adminKycApplication>;
export const adminKycApplicationPage = pageOf(adminKycApplication);
export const kycApplicationsQuery = pageQueryWithStatus(KYC_STATUSES);

/** GET /api/admin/account-requests item. */
export const adminAccountRequest = accountRequest.extend({
  adminNotes: z.string().nullable(),
  /** The customer's current identity check (null: none): the account opens only once it is approved. */
  kycStatus: z.enum(KYC_STATUSES).nullable(),
  user: onboardingUser,
  isCurrent: z.boolean(),
});
export type AdminAccountRequest = z.infer<typeof adminAccountRequest>;
export const adminAccountRequestPage = pageOf(adminAccountRequest);
export const accountRequestsQuery = pageQueryWithStatus(ACCOUNT_REQUEST_STATUSES);

export const idParams = z.object({ id: z.uuid({ error: "Invalid id" }) });

const note = (max: number) =>
  z
    .string()
    .trim()
    .max(max, ONBOARDING_ADMIN_MESSAGES.tooLong)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * PUT /api/admin/account-requests/{id}. Any status may be set. On `approved` the server keeps an existing
 * account number, else takes `accountNumber` or draws a unique random one; `routingNumber` defaults to
 * 021000021; `approvedAt` is the server's time (a sent value is accepted and ignored).
 * Omitted `statusMessage` / `adminNotes` keep their values; null or "" clears them.
 */
export const updateAccountRequestInput = z.object({
  status: z.enum(ACCOUNT_REQUEST_STATUSES, { error: ONBOARDING_ADMIN_MESSAGES.statusInvalid }),
  statusMessage: note(1000).optional(),
  adminNotes: note(2000).optional(),
  accountNumber: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .pipe(z.string().regex(/^[1-9]\d{8}$/, ONBOARDING_ADMIN_MESSAGES.accountNumberInvalid))
    .nullish(),
  routingNumber: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .pipe(z.string().regex(/^\d{9}$/, ONBOARDING_ADMIN_MESSAGES.routingNumberInvalid))
    .nullish(),
  approvedAt: z.unknown().optional(),
});
export type UpdateAccountRequestInput = z.infer<typeof updateAccountRequestInput>;

export const updateAccountRequestResponse = z.object({
  message: z.string(),
  accountRequest: adminAccountRequest,
});
export type UpdateAccountRequestResponse = z.infer<typeof updateAccountRequestResponse>;

/** PUT /api/admin/kyc/{id}/approve (notes optional) and /reject (notes required, non-blank after trimming). */
export const reviewKycInput = z.preprocess(
  (v) => v ?? {},
  // `reason`: resetting a rejected application waits for a second staff member and needs one.
  z.object({ notes: note(2000).optional(), reason: optionalReason }),
);
export type ReviewKycInput = z.infer<typeof reviewKycInput>;

export const reviewKycResponse = z.object({ message: z.string(), kyc: adminKycApplication });
export type ReviewKycResponse = z.infer<typeof reviewKycResponse>;

const COMPLIANCE = ["compliance"] as const;
const KYC_DECISION = {
  access: COMPLIANCE,
  params: idParams,
  body: reviewKycInput,
  replies: { 200: reviewKycResponse },
} as const;

/** Back office for onboarding: identity checks and account opening are compliance's. */
export const KYC_ADMIN_ENDPOINTS = endpoints({
  "GET /api/admin/kyc-applications": {
    access: COMPLIANCE,
    query: kycApplicationsQuery,
    replies: { 200: adminKycApplicationPage },
  },
  // Approving waits while a sanctions hit's case is open.
  "PUT /api/admin/kyc/:id/approve": {
    ...KYC_DECISION,
    errors: ["NOT_FOUND", "CONFLICT", "compliance_case_open", "ssn_duplicate"],
  },
  "PUT /api/admin/kyc/:id/reject": { ...KYC_DECISION, errors: ["BAD_REQUEST", "NOT_FOUND", "CONFLICT"] },
  // Reopening a rejected application waits for a second compliance member (maker-checker): 202.
  "PUT /api/admin/kyc/:id/reset": {
    ...KYC_DECISION,
    replies: { 200: reviewKycResponse, 202: pendingApprovalResponse },
    errors: ["NOT_FOUND", "CONFLICT", "ssn_duplicate", "reason_required", "approval_pending"],
  },
  // Sensitive reads: each reveal is audited with its reason.
  "POST /api/admin/kyc/:id/ssn/reveal": {
    access: COMPLIANCE,
    params: idParams,
    body: revealSsnInput,
    replies: { 200: revealSsnResponse },
    errors: ["reason_required", "NOT_FOUND", "ssn_unreadable"],
  },
  "POST /api/admin/kyc/:id/dob/reveal": {
    access: COMPLIANCE,
    params: idParams,
    body: revealSsnInput,
    replies: { 200: revealDateOfBirthResponse },
    errors: ["reason_required", "NOT_FOUND"],
  },
  // The onboarding state (no SSN, documents or full account number) also feeds support's dashboard-text preview.
  "GET /api/admin/users/:userId/onboarding": {
    access: ["support", "compliance"],
    params: userIdParams,
    replies: { 200: onboardingState },
    errors: ["NOT_FOUND"],
  },
  "GET /api/admin/account-requests": {
    access: COMPLIANCE,
    query: accountRequestsQuery,
    replies: { 200: adminAccountRequestPage },
  },
  // An account opens only for a verified identity.
  "PUT /api/admin/account-requests/:id": {
    access: COMPLIANCE,
    params: idParams,
    body: updateAccountRequestInput,
    replies: { 200: updateAccountRequestResponse },
    errors: ["NOT_FOUND", "CONFLICT", "identity_not_approved"],
  },
});
