import { BRAND } from "@/contract/brand";
import { codeBlock, escapeHtml, paragraph, renderLayout } from "@/server/lib/mail/html";

/** A rendered message, ready for the outbox; `code` is never stored, only logged in dev mailbox mode. */
export interface MailMessage {
  to: string;
  kind: string;
  subject: string;
  text: string;
  html: string;
  code?: string;
}

const CODE_MINUTES = 10;

function codeMail(
  to: string,
  kind: string,
  { subject, heading, intro, code }: { subject: string; heading: string; intro: string; code: string },
): MailMessage {
  const outro = `This code expires in ${CODE_MINUTES} minutes. If you did not ask for it, you can ignore this e-mail.`;
  return {
    to,
    kind,
    code,
    subject,
    text: `${heading}\n\n${intro}\n\n${code}\n\n${outro}\n\n— ${BRAND.name}`,
    html: renderLayout({ heading, bodyHtml: paragraph(intro) + codeBlock(code) + paragraph(outro) }),
  };
}

export function verificationCodeMail(to: string, firstName: string, code: string): MailMessage {
  return codeMail(to, "verification_code", {
    subject: `Your ${BRAND.name} verification code`,
    heading: `Welcome to ${BRAND.name}, ${firstName}`,
    intro: "Enter this code to verify your e-mail address:",
    code,
  });
}

export function passwordResetCodeMail(to: string, firstName: string, code: string): MailMessage {
  return codeMail(to, "password_reset_code", {
    subject: `Your ${BRAND.name} password reset code`,
    heading: `Reset your password, ${firstName}`,
    intro: "Enter this code to choose a new password:",
    code,
  });
}

export function passwordChangeCodeMail(to: string, firstName: string, code: string): MailMessage {
  return codeMail(to, "password_change_code", {
    subject: `Your ${BRAND.name} password change code`,
    heading: `Confirm your password change, ${firstName}`,
    intro: "Enter this code in Settings to confirm your new password:",
    code,
  });
}

export function testCodeMail(to: string, firstName: string, code: string): MailMessage {
  return codeMail(to, "test_email", {
    subject: `${BRAND.name} test e-mail`,
    heading: `Hello ${firstName}, this is a test`,
    intro: "Mail delivery works. Here is a one-time code to check it end to end:",
    code,
  });
}

/** `amount` is already formatted for display (e.g. "$1,234.56"). */
export function paymentNotificationMail(
  to: string,
  { recipientName, fromName, amount }: { recipientName: string; fromName: string; amount: string },
): MailMessage {
  const heading = "You received a payment";
  const text = `Hello ${recipientName}, ${fromName} sent you ${amount}. It will show in your ${BRAND.name} account once it completes.`;
  return {
    to,
    kind: "payment_notification",
    subject: `${BRAND.name}: you received ${amount} from ${fromName}`,
    text: `${heading}\n\n${text}\n\n— ${BRAND.name}`,
    html: renderLayout({
      heading,
      bodyHtml: `<p style="margin:0 0 12px;font-size:14px;line-height:20px">Hello ${escapeHtml(recipientName)}, ${escapeHtml(fromName)} sent you <strong>${escapeHtml(amount)}</strong>. It will show in your ${escapeHtml(BRAND.name)} account once it completes.</p>`,
    }),
  };
}
