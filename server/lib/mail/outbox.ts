import { EventEmitter } from "node:events";
import type { DbOrTx } from "@/server/db/client";
import { mailOutbox } from "@/server/db/schema";
import type { MailMessage } from "@/server/lib/mail/templates";

// In-process signal: "queued" as a row is written (dev logging), "wake" once the caller's transaction committed.
const signal = new EventEmitter();
signal.setMaxListeners(0);

/**
 * Writes the message to the outbox in the caller's transaction: if the request's change rolls back, so
 * does its mail, and a down SMTP server never fails the request. Call `wakeMailWorker()` after commit.
 */
export async function enqueueMail(dbOrTx: DbOrTx, message: MailMessage): Promise<void> {
  await enqueueMails(dbOrTx, [message]);
}

/** Several messages in one statement (a jobs-room consumer's batch), as enqueueMail writes one. */
export async function enqueueMails(dbOrTx: DbOrTx, messages: MailMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await dbOrTx.insert(mailOutbox).values(
    messages.map((message) => ({
      toAddress: message.to,
      subject: oneLine(message.subject),
      textBody: message.text,
      htmlBody: message.html,
      kind: message.kind,
    })),
  );
  for (const message of messages) signal.emit("queued", message);
}

// A header must stay one line, whatever a user typed into a name.
const oneLine = (subject: string) => subject.replace(/[\r\n]+/g, " ");

/** Tells the worker(s) in this process to look at the outbox now instead of at the next poll. */
export function wakeMailWorker(): void {
  signal.emit("wake");
}

export function onMailQueued(listener: (message: MailMessage) => void): () => void {
  signal.on("queued", listener);
  return () => signal.off("queued", listener);
}

export function onMailWake(listener: () => void): () => void {
  signal.on("wake", listener);
  return () => signal.off("wake", listener);
}
