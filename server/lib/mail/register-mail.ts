import type { FastifyInstance } from "fastify";
import { onMailQueued } from "@/server/lib/mail/outbox";
import type { MailWorker } from "@/server/lib/mail/worker";
import { currentLog, registerRequestLog } from "@/server/lib/request-log";

/**
 * With SMTP_URL: the outbox worker starts when the app is ready and stops on close.
 * Without it (dev mailbox mode): mail stays in the outbox, listed at /dev/mailbox, and codes are logged.
 */
export function registerMail(
  app: FastifyInstance,
  options: false | { pollMs?: number; retryBaseMs?: number } = {},
): void {
  const { config, database } = app.deps;
  if (!config.smtpUrl) {
    registerRequestLog(app);
    const unsubscribe = onMailQueued((message) => {
      // Queued while serving a request: log through its logger so the line carries the request id.
      currentLog(app.log).info(
        { to: message.to, kind: message.kind, subject: message.subject, code: message.code },
        "dev mailbox: mail kept in the outbox (SMTP_URL not set)",
      );
    });
    app.addHook("onClose", async () => unsubscribe());
    return;
  }
  if (options === false) return;
  const smtpUrl = config.smtpUrl;
  let worker: MailWorker | undefined;
  app.addHook("onReady", async () => {
    // The worker runs outside any request: its lines are told apart by component instead of a request id.
    const log = app.log.child({ component: "mail-worker" });
    // Loaded only with SMTP_URL: nodemailer stays out of a dev-mailbox process's memory.
    const { startMailWorker } = await import("@/server/lib/mail/worker");
    worker = startMailWorker({ database, smtpUrl, from: config.mailFrom, log, ...options });
  });
  app.addHook("onClose", async () => {
    await worker?.stop();
  });
}
