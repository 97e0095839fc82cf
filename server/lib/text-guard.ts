import type { FastifyInstance } from "fastify";
import { AppError } from "@/server/lib/errors";

export const INVALID_TEXT_MESSAGE = "Text must not contain NUL or invalid characters";

// A UTF-16 surrogate without its partner: PostgreSQL cannot store it (22P02 in a JSON column, 500 before). A NUL
// stays each route's business: chat strips it, elsewhere PostgreSQL's 22021 maps to the same 400.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isUnstorable = (text: string) => LONE_SURROGATE.test(text);
const MAX_DEPTH = 32;

/** True when any string (or object key) in a parsed JSON value holds a lone surrogate. */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isUnstorable(value);
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((item) => hasUnstorableText(item, depth + 1));
  // Buffers (upload bodies) are bytes, not text.
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return false;
  return Object.entries(value).some(([key, item]) => isUnstorable(key) || hasUnstorableText(item, depth + 1));
}

/**
 * Refuses such text where it enters (body, query, path) with 400 before any handler runs, so no route can
 * reach the database with it — including the ones that store it in a JSON column (idempotency keys, audit).
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook("preValidation", (request, _reply, done) => {
    if (
      hasUnstorableText(request.body) ||
      hasUnstorableText(request.query) ||
      hasUnstorableText(request.params)
    ) {
      done(new AppError("VALIDATION", INVALID_TEXT_MESSAGE));
      return;
    }
    done();
  });
}
