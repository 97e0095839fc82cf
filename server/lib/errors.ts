import type { ErrorCode, ErrorFlags } from "@/contract/errors";

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

/** A failure the client should see: one code mapped once to a status, the spec's message, and optional flags. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly flags: ErrorFlags;

  constructor(code: ErrorCode, message: string, flags: ErrorFlags = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.flags = flags;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
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
      /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Database ping timeout|PGlite is closed|Cannot use a pool after calling end/i.test(
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
