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
 * Rows here are the /api routes that are not contract endpoints (each says why); a contract endpoint gets its
 * row from its contract.
 */
const HAND_WRITTEN: Readonly<Record<string, readonly [RouteAccess, ...ErrorCode[]]>> = {
  // Signing out answers a redirect or an HTML page, which no contract declares.
  "GET /api/logout": ["public"],
  "POST /api/logout": ["public"],
  // Clears a stale signed-in cookie before its 401, which a contract's access check (earlier) would not.
  "GET /api/auth/user": ["user"],
  // Uploads: the sign-in check runs after the body's checks, and the bytes stream under a token of their own.
  "POST /api/objects/upload": ["user", "RATE_LIMITED"],
  "PUT /api/objects/upload/:token": [
    "user",
    "FORBIDDEN",
    "CONFLICT",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
    "RATE_LIMITED",
  ],
  // The live updates stream (decision 034): the reply is taken over for server-sent events.
  "GET /api/events": ["user", "BAD_REQUEST", "RATE_LIMITED"],
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
