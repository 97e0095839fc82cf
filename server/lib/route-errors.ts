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
  "GET /api/statements": ["user"],
  "GET /api/statements/:month.pdf": ["user", "NOT_FOUND"],
  "GET /api/statements/tax-forms": ["user"],
  "GET /api/statements/tax-forms/:id.pdf": ["user", "NOT_FOUND"],
  "GET /api/statements/savings/:accountId/:month.pdf": ["user", "NOT_FOUND", "CONFLICT"],
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
  // Savings (decision 068).
  // Money in on chain: the customer's own deposit address (409 without an open account, in chain mode).
  "GET /api/deposits": ["user", "FORBIDDEN", "CONFLICT"],
  // Back office: customers, KYC and staff.
  "GET /api/admin/stats": ["admin"],
  "GET /api/admin/users": ["admin"],
  "GET /api/admin/users/:userId": ["admin", "NOT_FOUND"],
  "DELETE /api/admin/users/:userId": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/users/:userId/close": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/users/:userId/unfreeze": ["admin", "NOT_FOUND", "CONFLICT"],
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
  // The Settlement tab (decision 038); reconciling or speeding up with no chain is 409 manual_settlement.
  "GET /api/admin/settlement": ["admin"],
  "POST /api/admin/settlement/payouts/:id/speed-up": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/settlement/payouts/:id/settled-outside": [
    "admin",
    "NOT_FOUND",
    "CONFLICT",
    "UNPROCESSABLE",
  ],
  "GET /api/admin/settlement/reconciliations": ["admin"],
  "POST /api/admin/settlement/reconciliations": ["admin", "CONFLICT"],
  "GET /api/admin/settlement/reconciliations/:id": ["admin", "NOT_FOUND"],
  "GET /api/admin/settlement/reconciliations/:id/report.csv": ["admin", "NOT_FOUND"],
  "POST /api/admin/settlement/reconciliations/:id/items/:itemId/acknowledge": [
    "admin",
    "NOT_FOUND",
    "CONFLICT",
  ],
  // The treasury (decision 060).
  "GET /api/admin/settlement/treasury": ["admin"],
  "POST /api/admin/settlement/deposits/:id/return": ["admin", "NOT_FOUND", "CONFLICT"],
  // Savings (decision 071).
  // Form 1099-INT (decision 070).
  "GET /api/admin/tax-forms/runs": ["admin"],
  "POST /api/admin/tax-forms/runs": ["admin", "CONFLICT"],
  "GET /api/admin/tax-forms/pub1220": ["admin"],
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
  "GET /api/admin/incoming-payments": ["admin"],
  "POST /api/admin/incoming-payments": ["admin", "NOT_FOUND", "CONFLICT", "UNPROCESSABLE"],
  "PUT /api/admin/incoming-payments/:id": ["admin", "NOT_FOUND", "CONFLICT", "UNPROCESSABLE"],
  "GET /api/admin/transactions": ["admin"],
  "POST /api/admin/transactions": ["admin", "NOT_FOUND", "CONFLICT", "UNPROCESSABLE"],
  "PUT /api/admin/transactions/:id": ["admin", "NOT_FOUND", "CONFLICT", "UNPROCESSABLE"],
  "PUT /api/admin/users/:userId/balance": ["admin", "NOT_FOUND", "CONFLICT", "UNPROCESSABLE"],
  "GET /api/admin/ledger/verify": ["admin"],
  "GET /api/admin/dashboard-content/:userId": ["admin", "NOT_FOUND"],
  "PUT /api/admin/dashboard-content/:userId": ["admin", "NOT_FOUND"],
  "GET /api/admin/approvals": ["admin"],
  "POST /api/admin/approvals/:id/approve": ["admin", "NOT_FOUND", "CONFLICT", "UNPROCESSABLE"],
  "POST /api/admin/approvals/:id/reject": ["admin", "NOT_FOUND", "CONFLICT"],
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
