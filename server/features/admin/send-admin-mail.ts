import type { PaymentNotificationInput, TestEmailInput } from "@/contract/admin";
import { formatMoney, parseMoney } from "@/contract/money";
import type { Db } from "@/server/db/client";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { enqueueMail, wakeMailWorker } from "@/server/lib/mail/outbox";
import { paymentNotificationMail, testCodeMail } from "@/server/lib/mail/templates";
import { generateCode } from "@/server/lib/one-time-codes";

/** Queues a test e-mail carrying a fresh 6-digit code, to check the mail service end to end. */
export async function sendTestEmail(
  db: Db,
  actorId: string,
  input: TestEmailInput,
): Promise<{ email: string }> {
  await db.transaction(async (tx) => {
    await enqueueMail(tx, testCodeMail(input.email, input.firstName, generateCode()));
    await writeAudit(tx, {
      actorId,
      action: "mail.test_email",
      targetType: "mail",
      targetId: input.email,
      after: { email: input.email },
    });
  });
  wakeMailWorker();
  return { email: input.email };
}

export async function sendPaymentNotification(
  db: Db,
  actorId: string,
  input: PaymentNotificationInput,
): Promise<void> {
  const cents = parseMoney(input.amount);
  if (cents === null || cents <= 0) {
    throw new AppError("VALIDATION", "Amount must be a positive dollar amount with at most 2 decimals");
  }
  await db.transaction(async (tx) => {
    await enqueueMail(
      tx,
      paymentNotificationMail(input.email, {
        recipientName: input.recipientName,
        fromName: input.fromName,
        amount: formatMoney(cents),
      }),
    );
    await writeAudit(tx, {
      actorId,
      action: "mail.payment_notification",
      targetType: "mail",
      targetId: input.email,
      after: { email: input.email, amountCents: cents, fromName: input.fromName },
    });
  });
  wakeMailWorker();
}
