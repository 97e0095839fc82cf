import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isErrorReason } from "@/contract/error-reasons";
import type { ErrorBody, ErrorCode } from "@/contract/errors";
import { AppError, isUnavailableError, pgErrorCode } from "@/server/lib/errors";
import { INVALID_TEXT_MESSAGE } from "@/server/lib/text-guard";

interface ZodLikeIssue {
  message: string;
  instancePath?: string;
  params?: {
    issue?: { path?: PropertyKey[]; code?: string; message?: string };
    /** A contract rule's own params: `reason` names the refusal (e.g. contract/person-name.ts). */
    params?: { reason?: unknown };
  };
}

/**
 * A validation problem the contract names a reason for (a custom issue with `params.reason`): answered like an
 * AppError of that reason, its flag and the field set, so clients branch on it as on any refusal.
 */
function contractRefusal(issues: ZodLikeIssue[]): AppError | null {
  const first = issues[0];
  const reason = first?.params?.params?.reason;
  if (!first || !isErrorReason(reason)) return null;
  const field = first.instancePath?.split("/").filter(Boolean).join(".");
  return new AppError(reason, first.message, field ? { field } : {});
}

/** First validation problem, readably: contract messages as written, otherwise "field: problem". */
function describeValidation(issues: ZodLikeIssue[]): string {
  const first = issues[0];
  if (!first) return "Invalid request";
  const issue = first.params?.issue;
  const message = issue?.message ?? first.message;
  const field = (issue?.path ?? first.instancePath?.split("/").filter(Boolean) ?? []).join(".");
  if (/received undefined/.test(message)) return field ? `${field} is required` : "Request body is required";
  if (/^(Invalid input|Too (big|small)|Invalid|Unrecognized key)/.test(message) && field)
    return `${field}: ${message}`;
  return message;
}

/** Stable codes for Fastify's own 4xx (body parsing, routing), so clients never have to read the message. */
const CLIENT_ERROR_CODES: Partial<Record<number, ErrorCode>> = {
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

/**
 * Input PostgreSQL cannot store (a NUL byte: 22021 character_not_in_repertoire, 22P05 untranslatable_character)
 * is the client's mistake, not ours.
 */
const PG_BAD_INPUT_CODES = new Set(["22021", "22P05"]);

/**
 * Fastify's router answers an over-long path parameter (414) or an undecodable URL (400) before any hook
 * runs; this gives them the same `{ message, code, requestId }` shape as every other error.
 */
export function routerErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = err.code === "FST_ERR_MAX_PARAM_LENGTH";
  void reply
    .code(tooLong ? 414 : 400)
    .header("x-request-id", request.id)
    .header("cache-control", "no-store")
    .send({
      message: tooLong ? "The address is too long" : "The address is not valid",
      code: tooLong ? "URI_TOO_LONG" : "BAD_REQUEST",
      requestId: request.id,
    } satisfies ErrorBody);
}

function isClientAbort(err: FastifyError, request: FastifyRequest): boolean {
  return err.code === "ECONNRESET" && (request.raw.readableAborted || request.raw.destroyed);
}

/** The one place that turns any failure into `{ message, code, reason?, requestId, ...flags }`; 5xx text never leaks. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const requestId = request.id;
    if (err instanceof AppError) {
      const { message, code, reason, status, flags } = err;
      return reply.status(status).send({ message, code, reason, requestId, ...flags } satisfies ErrorBody);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const refusal = contractRefusal(err.validation as ZodLikeIssue[]);
      if (refusal) {
        const { message, code, reason, status, flags } = refusal;
        return reply.status(status).send({ message, code, reason, requestId, ...flags } satisfies ErrorBody);
      }
      return reply.status(400).send({
        message: describeValidation(err.validation as ZodLikeIssue[]),
        code: "VALIDATION",
        requestId,
      } satisfies ErrorBody);
    }
    if (PG_BAD_INPUT_CODES.has(pgErrorCode(err) ?? "")) {
      return reply.status(400).send({
        message: INVALID_TEXT_MESSAGE,
        code: "VALIDATION",
        requestId,
      } satisfies ErrorBody);
    }
    if (isClientAbort(err, request)) {
      // The client hung up mid-request: nothing of ours failed and nobody is left to answer.
      request.log.info({ reason: err.message }, "client aborted the request");
      return reply
        .status(400)
        .send({ message: "Request aborted", code: "BAD_REQUEST", requestId } satisfies ErrorBody);
    }
    if (isUnavailableError(err)) {
      request.server.processHealth.note(err);
      request.log.error({ err }, "backing service unavailable");
      // Never a guess: the connection may have been lost during COMMIT (a failover), so the write may or may not
      // have happened. The client's retry with the same Idempotency-Key finds which (decision 027).
      const unavailable = new AppError(
        "service_unavailable",
        "The service is temporarily unavailable. Please try again shortly.",
      );
      const { message, code, reason, status, flags } = unavailable;
      return reply.status(status).send({ message, code, reason, requestId, ...flags } satisfies ErrorBody);
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({
        message: "Too many requests. Please wait a moment and try again.",
        code: "RATE_LIMITED",
        requestId,
      } satisfies ErrorBody);
    }
    if (status >= 400 && status < 500) {
      const message =
        err.code === "FST_ERR_CTP_BODY_TOO_LARGE"
          ? "Request body is too large"
          : err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
            ? "Unsupported content type: send JSON with Content-Type: application/json"
            : err.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
              ? "Request body is empty: send a JSON object"
              : err instanceof SyntaxError || err.code === "FST_ERR_CTP_INVALID_JSON_BODY"
                ? "Malformed JSON in request body"
                : err.message;
      return reply
        .status(status)
        .send({ message, code: CLIENT_ERROR_CODES[status] ?? "BAD_REQUEST", requestId } satisfies ErrorBody);
    }
    request.log.error({ err }, "unhandled error");
    return reply.status(500).send({
      message: "Something went wrong on our side. Please try again.",
      code: "INTERNAL",
      requestId,
    } satisfies ErrorBody);
  });
}
