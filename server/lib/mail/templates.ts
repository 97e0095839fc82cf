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
    subject: `Your ${BRAND.name} verification code: ${code}`,
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
    subject: `${BRAND.name} test e-mail: your code ${code}`,
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

function securityNoticeMail(
  to: string,
  kind: string,
  { subject, heading, lines }: { subject: string; heading: string; lines: string[] },
): MailMessage {
  return {
    to,
    kind,
    subject,
    text: `${heading}\n\n${lines.join("\n\n")}\n\n— ${BRAND.name}`,
    html: renderLayout({ heading, bodyHtml: lines.map(paragraph).join("") }),
  };
}

export type SecondFactorEvent = "totp_enabled" | "totp_disabled" | "recovery_codes_regenerated";

const SECOND_FACTOR_EVENTS: Record<SecondFactorEvent, { subject: string; heading: string; line: string }> = {
  totp_enabled: {
    subject: "Two-step verification is on",
    heading: "Authenticator app added",
    line: "an authenticator app was added to your account. Signing in, sending money and security changes now ask for a code from it.",
  },
  totp_disabled: {
    subject: "Two-step verification was turned off",
    heading: "Authenticator app removed",
    line: "the authenticator app was removed from your account, so its codes no longer work.",
  },
  recovery_codes_regenerated: {
    subject: "New recovery codes were created",
    heading: "New recovery codes",
    line: "new recovery codes were created for your account. The previous codes no longer work.",
  },
};

/** Every change to a second factor is told to the owner, so a change they did not make does not go unnoticed. */
export function secondFactorChangedMail(
  to: string,
  firstName: string,
  event: SecondFactorEvent,
): MailMessage {
  const { subject, heading, line } = SECOND_FACTOR_EVENTS[event];
  return securityNoticeMail(to, `second_factor_${event}`, {
    subject: `${BRAND.name}: ${subject.charAt(0).toLowerCase()}${subject.slice(1)}`,
    heading,
    lines: [
      `Hello ${firstName}, ${line}`,
      `If this was not you, reset your password now and contact ${BRAND.supportEmail}.`,
    ],
  });
}

export function passkeyAddedMail(to: string, firstName: string, passkeyName: string): MailMessage {
  return securityNoticeMail(to, "passkey_added", {
    subject: `A passkey was added to your ${BRAND.name} account`,
    heading: "A passkey was added to your account",
    lines: [
      `Hello ${firstName}, a passkey named "${passkeyName}" was just added to your ${BRAND.name} account. It can now be used to sign in.`,
      `If this was not you, remove it in Settings, change your password and contact ${BRAND.supportEmail}.`,
    ],
  });
}

export function passkeyRemovedMail(to: string, firstName: string, passkeyName: string): MailMessage {
  return securityNoticeMail(to, "passkey_removed", {
    subject: `A passkey was removed from your ${BRAND.name} account`,
    heading: "A passkey was removed from your account",
    lines: [
      `Hello ${firstName}, the passkey named "${passkeyName}" was just removed from your ${BRAND.name} account and can no longer be used to sign in.`,
      `If this was not you, change your password now and contact ${BRAND.supportEmail}.`,
    ],
  });
}
