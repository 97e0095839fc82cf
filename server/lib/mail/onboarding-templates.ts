import { BRAND } from "@/contract/brand";
import { paragraph, renderLayout } from "@/server/lib/mail/html";
import type { MailMessage } from "@/server/lib/mail/templates";

function plainMail(to: string, kind: string, subject: string, heading: string, lines: string[]): MailMessage {
  return {
    to,
    kind,
    subject,
    text: `${heading}\n\n${lines.join("\n\n")}\n\n— ${BRAND.name}`,
    html: renderLayout({ heading, bodyHtml: lines.map(paragraph).join("") }),
  };
}

export function applicationReceivedMail(to: string, firstName: string): MailMessage {
  return plainMail(
    to,
    "kyc_submitted",
    `We received your ${BRAND.name} application`,
    "Application received",
    [
      `Hello ${firstName}, thank you for applying for a ${BRAND.name} checking account.`,
      "We are reviewing your identity documents. Review can take up to 24 hours; we will e-mail you when it is done.",
    ],
  );
}

export function kycApprovedMail(to: string, firstName: string): MailMessage {
  return plainMail(
    to,
    "kyc_approved",
    `Your ${BRAND.name} identity verification is approved`,
    "You are verified",
    [
      `Hello ${firstName}. Congratulations! Your account has been approved.`,
      "Your identity verification is complete.",
    ],
  );
}

export function kycRejectedMail(to: string, firstName: string, reason: string): MailMessage {
  return plainMail(
    to,
    "kyc_rejected",
    `Your ${BRAND.name} identity verification was not approved`,
    "Identity verification not approved",
    [
      `Hello ${firstName}, your application was not approved. You can submit a new application.`,
      `Reason: ${reason}`,
    ],
  );
}

/** Only the last four digits of the account number travel by e-mail. */
export function accountApprovedMail(to: string, firstName: string, accountNumber: string): MailMessage {
  return plainMail(
    to,
    "account_approved",
    `Your ${BRAND.name} checking account is open`,
    "Your account is open",
    [
      `Hello ${firstName}, your checking account application has been approved.`,
      `Your account number ends in ${accountNumber.slice(-4)}. Sign in to ${BRAND.name} to see the full details.`,
    ],
  );
}

export function accountRejectedMail(
  to: string,
  firstName: string,
  statusMessage: string | null,
): MailMessage {
  return plainMail(
    to,
    "account_rejected",
    `Your ${BRAND.name} checking account application`,
    "Account application not approved",
    [
      `Hello ${firstName}, your checking account application was not approved. You can submit a new application.`,
      ...(statusMessage ? [`Message from our team: ${statusMessage}`] : []),
    ],
  );
}
