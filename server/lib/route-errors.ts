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
  // Account closure (decision 059).
  "GET /api/logout": ["public"],
  "POST /api/logout": ["public"],
  // The signed-in user's own security settings.
  "GET /api/auth/user": ["user"],
  // KYC and uploads.
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
  "GET /api/transfers/:id/receipt.pdf": ["user", "NOT_FOUND"],
  // Pushed updates and the notification centre (decision 034).
  "GET /api/events": ["user", "BAD_REQUEST", "RATE_LIMITED"],
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
  // Money in on chain: the customer's own deposit address (409 without an open account, in chain mode).
  // Back office: customers, KYC and staff.
  "GET /api/admin/users/:userId/self-limits": ["admin", "NOT_FOUND"],
  "POST /api/admin/users/:userId/lift-send-block": ["admin", "NOT_FOUND", "CONFLICT"],
  // The Settlement tab (decision 038); reconciling or speeding up with no chain is 409 manual_settlement.
  // The treasury (decision 060).
  // Savings (decision 071).
  // Form 1099-INT (decision 070).
  // Back office: money, content and approvals.
  "GET /api/admin/transfer-requests": ["admin"],
  "PUT /api/admin/transfer-requests/:id": ["admin", "NOT_FOUND", "CONFLICT"],
  "POST /api/admin/users/:userId/self-limit-notes": ["admin", "NOT_FOUND"],
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
