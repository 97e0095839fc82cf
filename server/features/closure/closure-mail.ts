import { BRAND } from "@/contract/brand";
import { paragraph, renderLayout } from "@/server/lib/mail/html";
import type { MailMessage } from "@/server/lib/mail/templates";

/** The e-mail confirming a closure: when, by whom, and that statements stay available (decision 059). */
export function closureMail(
  to: string,
  { firstName, when, byStaff }: { firstName: string; when: string; byStaff: boolean },
): MailMessage {
  const heading = "Your account is closed";
  const intro = byStaff
    ? `Hello ${firstName}, ${BRAND.name} closed your account on ${when}.`
    : `Hello ${firstName}, you closed your ${BRAND.name} account on ${when}.`;
  const rest = [
    "The account can no longer send or receive money. Money sent to it is not credited.",
    "You can still sign in to read your history and download your statements and tax forms.",
    "If you did not ask for this, reply to this e-mail or contact support in the app.",
  ];
  return {
    to,
    kind: "account_closed",
    subject: `Your ${BRAND.name} account is closed`,
    text: [heading, intro, ...rest, `— ${BRAND.name}`].join("\n\n"),
    html: renderLayout({ heading, bodyHtml: paragraph(intro) + rest.map(paragraph).join("") }),
  };
}
