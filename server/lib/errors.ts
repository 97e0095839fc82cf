import { ERROR_REASONS, type ErrorReason, isErrorReason } from "@/contract/error-reasons";
import type { ErrorCode, ErrorDetails, ErrorFlags } from "@/contract/errors";

/** Each contract error code's one HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>;

/** The `true` flags of reasons, the details' own fields never among them. */
function flagsOf(reasons: readonly ErrorReason[]): ErrorFlags {
  const flags: ErrorFlags = {};
  for (const reason of reasons) for (const flag of ERROR_REASONS[reason].flags) flags[flag] = true;
  return flags;
}

/**
 * A failure the client should see: a domain reason (contract/error-reasons.ts: its code, status and flags) or,
 * for a failure no client branches on, a bare code; the spec's message; details (amounts, fields, methods).
 * Flags come only from a reason: `wraps` is a reason whose flags the body keeps as well (a stale approval
 * says what made it stale).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly reason: ErrorReason | undefined;
  readonly details: ErrorDetails;
  /** Everything next to the message on the wire: the reason's flags and the details. */
  readonly flags: ErrorFlags;

  constructor(
    kind: ErrorCode | ErrorReason,
    message: string,
    details: ErrorDetails = {},
    wraps?: ErrorReason,
  ) {
    super(message);
    this.name = "AppError";
    this.reason = isErrorReason(kind) ? kind : undefined;
    this.code = this.reason ? ERROR_REASONS[this.reason].code : (kind as ErrorCode);
    this.details = withoutFlags(details);
    const reasons = [wraps, this.reason].filter((r): r is ErrorReason => r !== undefined);
    this.flags = { ...this.details, ...flagsOf(reasons) };
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

const FLAG_NAMES: ReadonlySet<string> = new Set(Object.values(ERROR_REASONS).flatMap((entry) => entry.flags));

/** A flag smuggled in as a detail (a spread, a cast) is dropped: flags come from reasons only. */
function withoutFlags(details: ErrorDetails): ErrorDetails {
  return Object.fromEntries(Object.entries(details).filter(([key]) => !FLAG_NAMES.has(key)));
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EPIPE",
  // Out of file descriptors or local ports: no new connection to the database can be opened.
  "EMFILE",
  "ENFILE",
  "EADDRNOTAVAIL",
  "53300", // too_many_connections: PostgreSQL's own connection slots are full
  // read_only_sql_transaction: a standby (or a primary being demoted) took the connection for a moment
  // during a failover. Writes never land on a standby; the client retries and reaches the new primary.
  "25006",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08001",
  "08003",
  "08006",
]);

/** True for errors that mean the database (or another backing service) is unreachable rather than a bug. */
export function isUnavailableError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (
      typeof message === "string" &&
      /Connection terminated|not queryable|timeout exceeded when trying to connect|Query read timeout|Database ping timeout|PGlite is closed|Cannot use a pool after calling end/i.test(
        message,
      )
    )
      return true;
  }
  return false;
}

/** The PostgreSQL error code (e.g. 23505 unique violation), wherever Drizzle wrapped it. */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The constraint a PostgreSQL error names (e.g. which unique index or CHECK), wherever Drizzle wrapped it. */
export function pgConstraint(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const constraint = (e as { constraint?: unknown }).constraint;
    if (typeof constraint === "string") return constraint;
  }
  return undefined;
}
