import { BRAND } from "@/contract/brand";
import { MONEY_REQUEST_NOTE_HINT } from "@/contract/money-requests";
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

function plainMail(to: string, kind: string, subject: string, heading: string, lines: string[]): MailMessage {
  return {
    to,
    kind,
    subject: `${BRAND.name}: ${subject}`,
    text: `${heading}\n\n${lines.join("\n\n")}\n\n— ${BRAND.name}`,
    html: renderLayout({ heading, bodyHtml: lines.map(paragraph).join("") }),
  };
}

/** Sent when a scheduled transfer's run was not made (decision 036). `reason` reads after "was not made:". */
export function scheduledTransferSkippedMail(
  to: string,
  {
    firstName,
    amount,
    recipientName,
    day,
    reason,
    then,
    url,
  }: {
    firstName: string;
    amount: string;
    recipientName: string;
    day: string;
    reason: string;
    then: string;
    /** The Schedules page. */
    url: string;
  },
): MailMessage {
  return plainMail(
    to,
    "schedule_skipped",
    "a scheduled transfer was skipped",
    "A scheduled transfer was skipped",
    [
      `Hi ${firstName}, your scheduled transfer of ${amount} to ${recipientName} for ${day} was not made: ${reason}.`,
      `${then} You can review or change the schedule here: ${url}`,
    ],
  );
}

/**
 * Sent to the customer asked for money by $tag (decision 037). The requester's note never goes into the bank's own
 * e-mail (decision 037's amendment): it is the requester's words, URLs included, and would read as signed by
 * the bank. The e-mail only says there is one, to be read in the app.
 */
export function moneyRequestedMail(
  to: string,
  {
    firstName,
    requesterTag,
    amount,
    hasNote,
    url,
  }: { firstName: string; requesterTag: string; amount: string; hasNote: boolean; url: string },
): MailMessage {
  return plainMail(
    to,
    "money_requested",
    `${requesterTag} requested ${amount}`,
    `${requesterTag} requested money`,
    [
      hasNote
        ? `Hi ${firstName}, ${requesterTag} asked you for ${amount} ${MONEY_REQUEST_NOTE_HINT}.`
        : `Hi ${firstName}, ${requesterTag} asked you for ${amount}.`,
      `Pay or decline it here: ${url}`,
      "Nothing moves until you choose to pay.",
    ],
  );
}

/** Sent to the requester when their request was paid or declined. */
export function moneyRequestAnsweredMail(
  to: string,
  {
    firstName,
    payerTag,
    amount,
    answer,
  }: { firstName: string; payerTag: string; amount: string; answer: "paid" | "declined" },
): MailMessage {
  if (answer === "paid") {
    return plainMail(to, "money_request_paid", `${payerTag} paid your request`, "Your request was paid", [
      `Hi ${firstName}, ${payerTag} paid your request for ${amount}. It is in your balance now.`,
    ]);
  }
  return plainMail(
    to,
    "money_request_declined",
    `${payerTag} declined your request`,
    "Your request was declined",
    [`Hi ${firstName}, ${payerTag} declined your request for ${amount}. No money moved.`],
  );
}

/** Sent when a month's savings interest is paid (decision 068). `amount` is already formatted; `month` "November 2026". */
export function savingsClosedMail(
  to: string,
  { firstName, moved, interest }: { firstName: string; moved: string; interest: string },
): MailMessage {
  return plainMail(to, "savings_closed", "Your savings account is closed", "Savings account closed", [
    `Hi ${firstName}, your ${BRAND.name} savings account is closed and its ${moved} is in your checking account` +
      (interest === "$0.00" ? "." : `, ${interest} of it interest paid at closing.`),
    "You can open a savings account again at any time from your dashboard.",
  ]);
}

export function interestPaidMail(
  to: string,
  { firstName, amount, month }: { firstName: string; amount: string; month: string },
): MailMessage {
  return plainMail(to, "interest_paid", `${amount} interest paid into your savings`, "Interest paid", [
    `Hi ${firstName}, ${amount} of interest for ${month} was paid into your ${BRAND.name} savings account.`,
  ]);
}

/** Sent to every customer with savings when an approved change of the APY is coming (decision 071). */
export function savingsRateChangeMail(
  to: string,
  {
    firstName,
    from,
    to: next,
    effectiveOn,
  }: { firstName: string; from: string; to: string; effectiveOn: string },
): MailMessage {
  return plainMail(
    to,
    "savings_rate_change",
    "Your savings rate is changing",
    "Your savings rate is changing",
    [
      `Hi ${firstName}, the Annual Percentage Yield on your ${BRAND.name} savings account changes from ${from} to ${next} on ${effectiveOn}.`,
      "Interest earned before that day keeps its rate; from that day your balance earns the new one. The rate is variable and may change again.",
    ],
  );
}
