import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Database } from "@/server/db/client";
import type { LoopSpec } from "@/server/jobs/loop";
import { onMailWake } from "@/server/lib/mail/outbox";

export interface MailWorkerOptions {
  database: Database;
  smtpUrl: string;
  from: string;
  log: FastifyBaseLogger;
  /** How often the outbox is polled besides the in-process wake-up; default 2 s. */
  pollMs?: number;
  /** First retry delay, doubled per attempt up to one hour; default 5 s. */
  retryBaseMs?: number;
  maxAttempts?: number;
  batchSize?: number;
}

interface ClaimedRow {
  id: string | number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

const LEASE_SECONDS = 300;
const MAX_BACKOFF_MS = 60 * 60 * 1000;

/**
 * Delivers the outbox through SMTP, as a loop of the jobs room: a pass every `pollMs` and whenever this process
 * queued mail (`wakeMailWorker`). A claim pushes `next_attempt_at` forward as a lease in one statement with SKIP
 * LOCKED, so several instances never send the same row and no transaction stays open while talking to the mail
 * server; a crashed sender's rows come back when the lease runs out.
 */
export function mailWorkerLoop(options: MailWorkerOptions): LoopSpec {
  const { database, log } = options;
  const pollMs = options.pollMs ?? 2000;
  const retryBaseMs = options.retryBaseMs ?? 5000;
  const maxAttempts = options.maxAttempts ?? 10;
  const batchSize = options.batchSize ?? 10;
  // Pooled: a claimed batch goes out over up to five kept-open connections instead of a new connection
  // (greeting, EHLO, QUIT) per message; under transfer load that was ~5 mails a second.
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    pool: true,
    maxConnections: 5,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as Parameters<typeof nodemailer.createTransport>[0]);

  // Both named prepared statements: under transfer load the worker runs them several times a second.
  const claim = () =>
    database.prepared<ClaimedRow>(
      "mail_claim",
      `update mail_outbox set next_attempt_at = now() + make_interval(secs => $2)
       where id in (
         select id from mail_outbox where status = 'pending' and next_attempt_at <= now()
         order by next_attempt_at, id limit $1 for update skip locked)
       returning id, to_address, subject, text_body, html_body, attempts`,
      [batchSize, LEASE_SECONDS],
    );

  /** Marks the batch's sent rows in one statement (one round trip per batch, not per message). */
  const markSent = (ids: ClaimedRow["id"][]) =>
    database.prepared(
      "mail_mark_sent",
      `update mail_outbox set status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null
       where id in (select jsonb_array_elements_text($1::jsonb)::bigint)`,
      [JSON.stringify(ids.map(String))],
    );

  /** Sends one claimed row: true once the server took it (the caller marks it sent); a failure is recorded here. */
  async function deliver(row: ClaimedRow): Promise<boolean> {
    try {
      await transport.sendMail({
        from: options.from,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      });
      return true;
    } catch (err) {
      const attempts = row.attempts + 1;
      const failed = attempts >= maxAttempts;
      const delayMs = Math.min(retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
      const message = err instanceof Error ? err.message : String(err);
      await database.query(
        `update mail_outbox set attempts = $2, last_error = $3, status = $4,
         next_attempt_at = now() + make_interval(secs => $5) where id = $1`,
        [row.id, attempts, message.slice(0, 1000), failed ? "failed" : "pending", delayMs / 1000],
      );
      const details = { mailId: row.id, attempts, err: message };
      if (failed) log.error(details, "mail delivery failed for good");
      else log.warn({ ...details, retryInMs: delayMs }, "mail delivery failed; will retry");
      return false;
    }
  }

  /**
   * Claims one batch of due mail and sends it; a full batch asks for another pass at once (a stop waits for one
   * batch, not the whole outbox). A short batch emptied the outbox as of the claim: mail committed since wakes
   * the loop again.
   */
  async function sendBatch() {
    const rows = await claim();
    if (rows.length === 0) return 0;
    // Each row is claimed by this worker alone (lease); deliver records a failure, the sent ones are marked
    // together once the batch is done (a crash before that resends them when the lease runs out, as before).
    const delivered = await Promise.all(rows.map(deliver));
    const ids = rows.filter((_, i) => delivered[i]).map((row) => row.id);
    if (ids.length > 0) await markSent(ids);
    return { done: ids.length, more: rows.length === batchSize };
  }

  return {
    name: "mail-worker",
    everyMs: pollMs,
    pass: sendBatch,
    wakeOn: onMailWake,
    onStop: () => transport.close(),
  };
}
