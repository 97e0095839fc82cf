import { BRAND } from "@/contract/brand";
import { paragraph, renderLayout } from "@/server/lib/mail/html";
import type { MailMessage } from "@/server/lib/mail/templates";

const SETTLED_WORDING = {
  completed: { subject: "your transfer was sent", heading: "Your transfer was sent" },
  failed: { subject: "your transfer failed", heading: "Your transfer failed" },
  cancelled: { subject: "your transfer was cancelled", heading: "Your transfer was cancelled" },
} as const;

/** Sent when an outgoing USDC transfer reaches a final state. `amount` is already formatted. */
export function transferSettledMail(
  to: string,
  {
    firstName,
    status,
    amount,
    recipientName,
    why,
  }: {
    firstName: string;
    status: keyof typeof SETTLED_WORDING;
    amount: string;
    recipientName: string;
    /** Plain words on why it failed (a payout the chain refused); none for staff's moves. */
    why?: string;
  },
): MailMessage {
  const { subject, heading } = SETTLED_WORDING[status];
  const body =
    status === "completed"
      ? `Hi ${firstName}, your USDC transfer of ${amount} to ${recipientName} has been sent.`
      : `Hi ${firstName}, your USDC transfer of ${amount} to ${recipientName} was ${status}.${why ? ` ${why}` : ""} The held amount is available in your balance again.`;
  return {
    to,
    kind: `transfer_${status}`,
    subject: `${BRAND.name}: ${subject}`,
    text: `${heading}\n\n${body}\n\n— ${BRAND.name}`,
    html: renderLayout({ heading, bodyHtml: paragraph(body) }),
  };
}

/** Sent when money is credited to the customer's balance. */
export function moneyArrivedMail(
  to: string,
  { firstName, amount, description }: { firstName: string; amount: string; description: string },
): MailMessage {
  const heading = "Money arrived in your account";
  const body = `Hi ${firstName}, ${amount} was added to your ${BRAND.name} balance (${description}).`;
  return {
    to,
    kind: "money_arrived",
    subject: `${BRAND.name}: ${amount} arrived in your account`,
    text: `${heading}\n\n${body}\n\n— ${BRAND.name}`,
    html: renderLayout({ heading, bodyHtml: paragraph(body) }),
  };
}
