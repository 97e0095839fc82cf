import { type Endpoint, isStaffAccess } from "@/contract/endpoint";
import { ENDPOINTS } from "@/contract/endpoints";
import { ERROR_REASONS, isErrorReason } from "@/contract/error-reasons";
import type { ErrorCode } from "@/contract/errors";

/** Who may call a route: anyone, a signed-in user, or staff (/api/admin/*, by role). */
export type RouteAccess = "public" | "user" | "admin";

/**
 * Each /api route's caller and the error codes its service can answer with beyond what the OpenAPI document
 * derives from the route itself (400 for a request schema, 401/403 from the access, 403 cross-site on a
 * mutation, 413/415 for a JSON body, 429 for a per-IP limit). Keyed like the abuse catalogue; the OpenAPI
 * test fails for a route without a row, and checks every refusal the authorization matrix sees is listed.
 * Rows here are the routes not yet declared by contract; a contract's endpoint gets its row from the contract.
 */
const HAND_WRITTEN: Readonly<Record<string, readonly [RouteAccess, ...ErrorCode[]]>> = {
  // Sign-up, sign-in and codes.
  "POST /api/auth/register": ["public", "CONFLICT"],
  "POST /api/auth/verify-email": ["public", "CONFLICT", "RATE_LIMITED"],
  "POST /api/auth/resend-verification": ["public", "RATE_LIMITED"],
  "POST /api/auth/login": ["public", "UNAUTHORIZED", "FORBIDDEN", "RATE_LIMITED"],
  "POST /api/auth/login/verify": ["public", "UNAUTHORIZED", "RATE_LIMITED"],
  "POST /api/auth/login/passkey-options": ["public", "UNAUTHORIZED"],
  "POST /api/auth/passkey-login/options": ["public"],
  "POST /api/auth/passkey-login": ["public", "UNAUTHORIZED"],
  "POST /api/auth/forgot-password": ["public", "RATE_LIMITED"],
  "POST /api/auth/reset-password": ["public", "RATE_LIMITED"],
  "POST /api/account/freeze": ["public", "GONE"],
  "POST /api/account/freeze/check": ["public", "GONE"],
  "POST /api/account/send-block/undo": ["public", "GONE"],
  // Account closure (decision 059).
  "GET /api/account/closure": ["user"],
  "POST /api/account/close": ["user", "BAD_REQUEST", "FORBIDDEN", "CONFLICT", "RATE_LIMITED"],
  "GET /api/logout": ["public"],
  "POST /api/logout": ["public"],
  // The signed-in user's own security settings.
  "GET /api/auth/user": ["user"],
  "POST /api/auth/send-password-otp": ["user", "RATE_LIMITED"],
  "POST /api/auth/change-password": ["user", "RATE_LIMITED"],
  "PUT /api/user/phone": ["user", "CONFLICT"],
  "GET /api/auth/sessions": ["user"],
  "DELETE /api/auth/sessions/:id": ["user", "NOT_FOUND"],
  "DELETE /api/auth/sessions": ["user"],
  "GET /api/auth/passkeys": ["user"],
  "POST /api/auth/passkeys/registration-options": ["user", "RATE_LIMITED"],
  "POST /api/auth/passkeys": ["user", "CONFLICT", "RATE_LIMITED"],
  "PATCH /api/auth/passkeys/:id": ["user", "NOT_FOUND"],
  "DELETE /api/auth/passkeys/:id": ["user", "NOT_FOUND"],
  "POST /api/auth/step-up": ["user", "RATE_LIMITED"],
  "POST /api/auth/step-up/passkey-options": ["user", "BAD_REQUEST", "RATE_LIMITED"],
  "GET /api/auth/second-factor": ["user"],
  "POST /api/auth/totp/enroll": ["user", "CONFLICT", "RATE_LIMITED"],
  "POST /api/auth/totp/confirm": ["user", "CONFLICT", "RATE_LIMITED"],
  "POST /api/auth/totp/disable": ["user", "CONFLICT", "RATE_LIMITED"],
  "POST /api/auth/recovery-codes": ["user", "CONFLICT", "RATE_LIMITED"],
  "GET /api/account/data-access": ["user"],
  // KYC and uploads.
  "GET /api/kyc/status": ["user"],
  "POST /api/kyc/create": ["user", "NOT_FOUND", "CONFLICT", "UNSUPPORTED_MEDIA_TYPE", "RATE_LIMITED"],
  "POST /api/kyc/upload-document": [
    "user",
    "NOT_FOUND",
    "CONFLICT",
    "UNSUPPORTED_MEDIA_TYPE",
    "RATE_LIMITED",
  ],
  "POST /api/objects/upload": ["user", "RATE_LIMITED"],
  "PUT /api/objects/upload/:token": [
    "user",
    "FORBIDDEN",
    "CONFLICT",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
    "RATE_LIMITED",
  ],
  // Balances, history, statements, chat.
  "GET /api/account/summary": ["user"],
  "GET /api/transactions/recent": ["user"],
  "GET /api/transactions": ["user"],
  "GET /api/transactions/export.csv": ["user"],
  "GET /api/dashboard-content": ["user"],
  "GET /api/transfers/:id/receipt.pdf": ["user", "NOT_FOUND"],
  "GET /api/chat/messages": ["user"],
  "GET /api/chat/unread": ["user"],
  "POST /api/chat/send": ["user", "RATE_LIMITED"],
  // Pushed updates and the notification centre (decision 034).
  "GET /api/events": ["user", "BAD_REQUEST", "RATE_LIMITED"],
  "GET /api/events/position": ["user"],
  "GET /api/notifications": ["user"],
  "GET /api/notifications/unread": ["user"],
  "POST /api/notifications/:id/read": ["user", "NOT_FOUND"],
  "POST /api/notifications/read-all": ["user"],
  "GET /api/notifications/preferences": ["user"],
  "PUT /api/notifications/preferences": ["user", "BAD_REQUEST"],
  // Money out and saved recipients.
  "POST /api/transfer/request": ["user", "FORBIDDEN", "CONFLICT", "UNPROCESSABLE", "RATE_LIMITED"],
  "POST /api/transfer/passkey-options": ["user", "FORBIDDEN", "RATE_LIMITED"],
  "GET /api/transfer/limits": ["user"],
  "GET /api/transfer/self-limits": ["user"],
  "GET /api/transfer/tag/:tag": ["user", "FORBIDDEN", "NOT_FOUND", "RATE_LIMITED"],
  "POST /api/transfer/tag-payments": [
    "user",
    "FORBIDDEN",
    "NOT_FOUND",
    "CONFLICT",
    "UNPROCESSABLE",
    "RATE_LIMITED",
  ],
  // Savings (decision 068).
  // Requests for money by $tag (decision 037): asked only of who can be paid, paid through the tag payment.
  "POST /api/transfer/requests": ["user", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "RATE_LIMITED"],
  "GET /api/transfer/requests": ["user", "FORBIDDEN"],
  "POST /api/transfer/requests/:id/pay": [
    "user",
    "FORBIDDEN",
    "NOT_FOUND",
    "CONFLICT",
    "UNPROCESSABLE",
    "RATE_LIMITED",
  ],
  "POST /api/transfer/requests/:id/decline": ["user", "NOT_FOUND", "CONFLICT"],
  "POST /api/transfer/requests/:id/cancel": ["user", "NOT_FOUND", "CONFLICT"],
  // Blocking a requester (issue 46 §30): only from a request the customer received; staff never bank.
  "POST /api/transfer/requests/:id/block": ["user", "NOT_FOUND", "RATE_LIMITED"],
  "GET /api/transfer/request-blocks": ["user", "FORBIDDEN"],
  "DELETE /api/transfer/request-blocks/:id": ["user", "NOT_FOUND", "RATE_LIMITED"],
  "PUT /api/transfer/self-limits/daily-limit": ["user", "FORBIDDEN", "RATE_LIMITED"],
  "PUT /api/transfer/self-limits/send-block": ["user", "FORBIDDEN", "CONFLICT", "RATE_LIMITED"],
  "GET /api/transfers/:id": ["user", "NOT_FOUND"],
  "POST /api/transfers/:id/cancel": ["user", "NOT_FOUND", "CONFLICT"],
  "GET /api/recipients": ["user", "FORBIDDEN"],
  "GET /api/recipients/address-check": ["user", "FORBIDDEN"],
  "POST /api/recipients": ["user", "FORBIDDEN", "CONFLICT", "UNPROCESSABLE", "RATE_LIMITED"],
  "PATCH /api/recipients/:id": ["user", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "RATE_LIMITED"],
  "DELETE /api/recipients/:id": ["user", "FORBIDDEN", "NOT_FOUND", "RATE_LIMITED"],
  // Scheduled transfers (decision 036).
  "GET /api/schedules": ["user", "FORBIDDEN"],
  "GET /api/schedules/upcoming": ["user", "FORBIDDEN"],
  "POST /api/schedules": ["user", "FORBIDDEN", "BAD_REQUEST", "NOT_FOUND", "UNPROCESSABLE", "RATE_LIMITED"],
  "POST /api/schedules/passkey-options": ["user", "FORBIDDEN", "BAD_REQUEST", "NOT_FOUND", "RATE_LIMITED"],
  "PATCH /api/schedules/:id": ["user", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "RATE_LIMITED"],
  "POST /api/schedules/:id/pause": ["user", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "RATE_LIMITED"],
  "POST /api/schedules/:id/resume": ["user", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "RATE_LIMITED"],
  "POST /api/schedules/:id/cancel": ["user", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "RATE_LIMITED"],
  // Back office: customers, KYC and staff.
  "GET /api/admin/stats": ["admin"],
  "GET /api/admin/users": ["admin"],
  "GET /api/admin/users/:userId": ["admin", "NOT_FOUND"],
  "DELETE /api/admin/users/:userId": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/users/:userId/close": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/users/:userId/unfreeze": ["admin", "NOT_FOUND", "CONFLICT"],
  "GET /api/admin/users/:userId/self-limits": ["admin", "NOT_FOUND"],
  "POST /api/admin/users/:userId/lift-send-block": ["admin", "NOT_FOUND", "CONFLICT"],
  "GET /api/admin/users/:userId/onboarding": ["admin", "NOT_FOUND"],
  "POST /api/admin/test-email": ["admin", "UNPROCESSABLE"],
  "POST /api/admin/send-payment-notification": ["admin", "UNPROCESSABLE"],
  "GET /api/admin/kyc-applications": ["admin"],
  "PUT /api/admin/kyc/:id/approve": ["admin", "NOT_FOUND", "CONFLICT"],
  "PUT /api/admin/kyc/:id/reject": ["admin", "NOT_FOUND", "CONFLICT"],
  "PUT /api/admin/kyc/:id/reset": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/kyc/:id/ssn/reveal": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/kyc/:id/dob/reveal": ["admin", "NOT_FOUND"],
  "GET /api/admin/compliance/cases": ["admin"],
  "GET /api/admin/compliance/cases/:id": ["admin", "NOT_FOUND"],
  "PUT /api/admin/compliance/cases/:id/assignee": ["admin", "NOT_FOUND"],
  "POST /api/admin/compliance/cases/:id/comments": ["admin", "NOT_FOUND"],
  "PUT /api/admin/compliance/cases/:id/narrative": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/compliance/cases/:id/documents": [
    "admin",
    "NOT_FOUND",
    "BAD_REQUEST",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
  "POST /api/admin/compliance/cases/:id/links": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/compliance/cases/:id/decisions": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/compliance/cases/:id/decisions/:decisionId/approve": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/compliance/cases/:id/decisions/:decisionId/reject": ["admin", "NOT_FOUND", "CONFLICT"],
  "GET /api/admin/compliance/cases/:id/report.json": ["admin", "NOT_FOUND"],
  "GET /api/admin/compliance/cases/:id/report.pdf": ["admin", "NOT_FOUND"],
  // Reports a regulator asks for (decision 055): the SAR's FinCEN fields and file, OFAC's reports.
  "GET /api/admin/compliance/cases/:id/sar": ["admin", "NOT_FOUND"],
  "PUT /api/admin/compliance/cases/:id/sar": ["admin", "NOT_FOUND", "CONFLICT"],
  "GET /api/admin/compliance/cases/:id/report.xml": ["admin", "NOT_FOUND", "CONFLICT"],
  "GET /api/admin/compliance/ofac-reports": ["admin"],
  "GET /api/admin/compliance/ofac-reports/annual.csv": ["admin"],
  "POST /api/admin/compliance/ofac-reports/:id/filed": ["admin", "NOT_FOUND", "CONFLICT"],
  "GET /api/admin/compliance/members": ["admin"],
  "GET /api/admin/compliance/lists": ["admin"],
  "POST /api/admin/compliance/lists": ["admin", "UNPROCESSABLE"],
  "POST /api/admin/compliance/search": ["admin", "CONFLICT"],
  "GET /api/admin/monitoring/alerts": ["admin"],
  "GET /api/admin/monitoring/alerts/:id": ["admin", "NOT_FOUND"],
  // Savings (decision 071).
  "GET /api/admin/account-requests": ["admin"],
  "PUT /api/admin/account-requests/:id": ["admin", "NOT_FOUND", "CONFLICT"],
  "GET /api/admin/staff": ["admin"],
  "POST /api/admin/staff": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/staff/:userId/grant": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/staff/:userId/revoke": ["admin", "NOT_FOUND", "CONFLICT"],
  "GET /api/admin/chats": ["admin"],
  "GET /api/admin/chats/:userId": ["admin", "NOT_FOUND"],
  "GET /api/admin/chats/:userId/customer": ["admin", "NOT_FOUND"],
  "POST /api/admin/chats/:userId/reply": ["admin", "NOT_FOUND", "RATE_LIMITED"],
  "GET /api/admin/audit": ["admin"],
  "GET /api/admin/audit.csv": ["admin"],
  // Back office: money, content and approvals.
  "GET /api/admin/transfer-requests": ["admin"],
  "PUT /api/admin/transfer-requests/:id": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/users/:userId/self-limit-notes": ["admin", "NOT_FOUND"],
  "GET /api/admin/dashboard-content/:userId": ["admin", "NOT_FOUND"],
  "PUT /api/admin/dashboard-content/:userId": ["admin", "NOT_FOUND"],
};

/** A contract's row: its access, its service's codes, and 429 for a per-caller limit (a per-IP one is in its config). */
function rowOf(endpoint: Endpoint): readonly [RouteAccess, ...ErrorCode[]] {
  const access: RouteAccess = isStaffAccess(endpoint.access) ? "admin" : endpoint.access;
  const codes = (endpoint.errors ?? []).map((error) =>
    isErrorReason(error) ? ERROR_REASONS[error].code : error,
  );
  // A required Idempotency-Key (400) that was used for another body (409); a per-caller limit.
  if (endpoint.idempotent) codes.push("VALIDATION", "CONFLICT");
  if (endpoint.limit?.by === "user") codes.push("RATE_LIMITED");
  return [access, ...new Set(codes)];
}

export const ROUTE_ERRORS: Readonly<Record<string, readonly [RouteAccess, ...ErrorCode[]]>> = {
  ...HAND_WRITTEN,
  ...Object.fromEntries(Object.entries(ENDPOINTS).map(([key, endpoint]) => [key, rowOf(endpoint)])),
};
