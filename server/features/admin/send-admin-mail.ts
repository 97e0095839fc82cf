import { sql } from "drizzle-orm";
import { ADMIN_MESSAGES, type PaymentNotificationInput, type TestEmailInput } from "@/contract/admin";
import { BRAND } from "@/contract/brand";
import { formatMoney, parseMoney } from "@/contract/money";
import type { Db, Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { escapeHtml } from "@/server/lib/mail/html";
import { enqueueMail, wakeMailWorker } from "@/server/lib/mail/outbox";
import { type MailMessage, paymentNotificationMail, testCodeMail } from "@/server/lib/mail/templates";
import { generateCode } from "@/server/lib/one-time-codes";

// The Email Test tab's samples (docs/architecture.md "Design notes"): a realistic "you received $5,000.00
// from Acme Corp" in a customer's inbox, with no money behind it, reads as real — a lure signed by the bank.
// So samples go to staff addresses only, and each one says it is a test in its subject and at the top of its
// body.

const TEST_BANNER = `TEST E-MAIL from ${BRAND.name} staff, checking mail delivery. It is a sample: no money moved and nothing changed on any account.`;

/** The sample as it is sent: "[TEST]" before the subject, the banner above the text and the HTML body. */
export function asTestMail(mail: MailMessage): MailMessage {
  const banner = `<div style="margin:0;padding:12px 16px;background:#fef3c7;border-bottom:2px solid #d97706;color:#78350f;font-family:Arial,Helvetica,sans-serif;font-size:14px;font-weight:bold;text-align:center">${escapeHtml(TEST_BANNER)}</div>`;
  return {
    ...mail,
    subject: `[TEST] ${mail.subject}`,
    text: `${TEST_BANNER}\n\n${mail.text}`,
    html: mail.html.replace(/<body[^>]*>/, (body) => `${body}\n${banner}`),
  };
}

/** 422 unless `email` is a staff member's (any role): a sample never reaches a customer or a stranger. */
async function requireStaffAddress(tx: Tx, email: string): Promise<void> {
  const [owner] = await tx
    .select({ staffRoles: users.staffRoles })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  if (!owner || owner.staffRoles.length === 0) {
    throw new AppError("test_mail_staff_only", ADMIN_MESSAGES.testMailStaffOnly, { field: "email" });
  }
}

/** Queues a test e-mail carrying a fresh 6-digit code, to check the mail service end to end. */
export async function sendTestEmail(
  db: Db,
  actorId: string,
  input: TestEmailInput,
): Promise<{ email: string }> {
  await db.transaction(async (tx) => {
    await requireStaffAddress(tx, input.email);
    await enqueueMail(tx, asTestMail(testCodeMail(input.email, input.firstName, generateCode())));
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
    await requireStaffAddress(tx, input.email);
    await enqueueMail(
      tx,
      asTestMail(
        paymentNotificationMail(input.email, {
          recipientName: input.recipientName,
          fromName: input.fromName,
          amount: formatMoney(cents),
        }),
      ),
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
