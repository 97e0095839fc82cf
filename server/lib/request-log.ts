import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";

const requestLogs = new AsyncLocalStorage<FastifyBaseLogger>();

/**
 * Runs each request's hooks and handler with its logger in reach, for code that was not handed the request.
 * Only the dev mailbox's mail line reads it (register-mail.ts), so only dev-mailbox mode registers it: an
 * active AsyncLocalStorage puts a hook on every promise, which a server with SMTP_URL has no use for.
 */
export function registerRequestLog(app: FastifyInstance) {
  app.addHook("onRequest", (request, _reply, done) => requestLogs.run(request.log, done));
}

/** The current request's logger (its lines carry `reqId`), or `fallback` outside a request (workers, timers). */
export function currentLog(fallback: FastifyBaseLogger): FastifyBaseLogger {
  return requestLogs.getStore() ?? fallback;
}
