import type { FastifyInstance } from "fastify";
import { onMailQueued } from "@/server/lib/mail/outbox";
import { type MailWorker, startMailWorker } from "@/server/lib/mail/worker";

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
    const unsubscribe = onMailQueued((message) => {
      app.log.info(
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
    worker = startMailWorker({ database, smtpUrl, from: config.mailFrom, log: app.log, ...options });
  });
  app.addHook("onClose", async () => {
    await worker?.stop();
  });
}
