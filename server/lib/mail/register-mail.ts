import type { FastifyInstance } from "fastify";
import { onMailQueued } from "@/server/lib/mail/outbox";
import { currentLog, registerRequestLog } from "@/server/lib/request-log";

/**
 * Without SMTP_URL (dev mailbox mode): mail stays in the outbox, listed at /dev/mailbox, and codes are logged.
 * With it, the jobs room's mail worker delivers the outbox (server/jobs/loops.ts).
 */
export function registerMail(app: FastifyInstance): void {
  if (app.deps.config.smtpUrl) return;
  registerRequestLog(app);
  const unsubscribe = onMailQueued((message) => {
    // Queued while serving a request: log through its logger so the line carries the request id.
    currentLog(app.log).info(
      { to: message.to, kind: message.kind, subject: message.subject, code: message.code },
      "dev mailbox: mail kept in the outbox (SMTP_URL not set)",
    );
  });
  app.addHook("onClose", async () => unsubscribe());
}
