import { formatBankTime } from "@/contract/bank-time";
import { BRAND } from "@/contract/brand";
import { escapeHtml, paragraph, renderLayout } from "@/server/lib/mail/html";
import type { MailMessage } from "@/server/lib/mail/templates";

/** The bank's own clock for customers: New York time, with its zone so nobody has to guess ("… ET", as the web). */
export function formatSecurityTime(date: Date): string {
  return formatBankTime(date);
}

const WASNT_ME_INTRO =
  "If this wasn't you, freeze your account now. One click signs out every device and stops new transfers:";

function wasntMeButton(url: string): string {
  return `<p style="margin:16px 0"><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#b91c1c;color:#ffffff;border-radius:6px;font-size:14px;font-weight:bold;text-decoration:none">This wasn't me</a></p>`;
}

function detailsTable(rows: [string, string][]): string {
  const cells = rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;font-size:14px;color:#6b7280;vertical-align:top">${escapeHtml(label)}</td><td style="padding:4px 0;font-size:14px">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 12px">${cells}</table>`;
}

/** One layout for every security notice: what happened, the details, and the single-use link (7 days). */
function securityMail(
  to: string,
  kind: string,
  {
    subject,
    heading,
    intro,
    details,
    freezeUrl,
  }: {
    subject: string;
    heading: string;
    intro: string;
    details: [string, string][];
    freezeUrl: string;
  },
): MailMessage {
  const outro = "The link works once and expires in 7 days. If this was you, there is nothing to do.";
  const text = [
    heading,
    intro,
    details.map(([label, value]) => `${label}: ${value}`).join("\n"),
    `${WASNT_ME_INTRO}\nThis wasn't me: ${freezeUrl}`,
    outro,
    `— ${BRAND.name}`,
  ].join("\n\n");
  return {
    to,
    kind,
    subject,
    text,
    html: renderLayout({
      heading,
      bodyHtml:
        paragraph(intro) +
        detailsTable(details) +
        paragraph(WASNT_ME_INTRO) +
        wasntMeButton(freezeUrl) +
        paragraph(outro),
    }),
  };
}

export function newDeviceMail(
  to: string,
  {
    firstName,
    when,
    browser,
    place,
    freezeUrl,
  }: {
    firstName: string;
    when: Date;
    browser: string;
    place: string;
    freezeUrl: string;
  },
): MailMessage {
  return securityMail(to, "new_device", {
    subject: `${BRAND.name}: new sign-in from ${browser}`,
    heading: "New sign-in to your account",
    intro: `Hello ${firstName}, your ${BRAND.name} account was just signed in to from a browser we have not seen before.`,
    details: [
      ["Time", formatSecurityTime(when)],
      ["Browser", browser],
      ["Approximate place", place],
    ],
    freezeUrl,
  });
}

export function passwordChangedMail(
  to: string,
  { firstName, when, freezeUrl }: { firstName: string; when: Date; freezeUrl: string },
): MailMessage {
  return securityMail(to, "password_changed", {
    subject: `Your ${BRAND.name} password was changed`,
    heading: "Your password was changed",
    intro: `Hello ${firstName}, the password of your ${BRAND.name} account was just changed and your other sessions were signed out.`,
    details: [["Time", formatSecurityTime(when)]],
    freezeUrl,
  });
}

/** `amount` is already formatted ("$1,234.56"). */
export function transferRequestedMail(
  to: string,
  {
    firstName,
    when,
    amount,
    recipientName,
    address,
    freezeUrl,
  }: {
    firstName: string;
    when: Date;
    amount: string;
    recipientName: string;
    address: string;
    freezeUrl: string;
  },
): MailMessage {
  return securityMail(to, "transfer_requested", {
    subject: `${BRAND.name}: transfer of ${amount} requested`,
    heading: "Transfer requested",
    intro: `Hello ${firstName}, a USDC transfer was requested from your ${BRAND.name} account. It waits for review before it is sent.`,
    details: [
      ["Time", formatSecurityTime(when)],
      ["Amount", amount],
      ["To", recipientName],
      ["Wallet", address],
    ],
    freezeUrl,
  });
}

/** A second factor was added, removed or renewed: `change` says what happened, `subject` names it in the inbox. */
export function secondFactorChangedMail(
  to: string,
  {
    firstName,
    when,
    subject,
    change,
    freezeUrl,
  }: { firstName: string; when: Date; subject: string; change: string; freezeUrl: string },
): MailMessage {
  return securityMail(to, "second_factor_changed", {
    subject: `${BRAND.name}: ${subject}`,
    heading: "Your sign-in security changed",
    intro: `Hello ${firstName}, ${change.charAt(0).toLowerCase()}${change.slice(1)}`,
    details: [
      ["Change", change],
      ["Time", formatSecurityTime(when)],
    ],
    freezeUrl,
  });
}

/** A raise of the customer's own daily limit, sent when it is asked for: it takes effect 24 hours later. */
export function dailyLimitRaiseMail(
  to: string,
  {
    firstName,
    when,
    limit,
    effectiveAt,
    freezeUrl,
  }: {
    firstName: string;
    when: Date;
    limit: string;
    effectiveAt: Date;
    freezeUrl: string;
  },
): MailMessage {
  return securityMail(to, "daily_limit_raised", {
    subject: `${BRAND.name}: your daily limit will rise to ${limit}`,
    heading: "Your daily limit will rise",
    intro: `Hello ${firstName}, a raise of the daily limit you set yourself was asked for. It takes effect in 24 hours; until then your current limit stays.`,
    details: [
      ["Asked", formatSecurityTime(when)],
      ["New limit", limit],
      ["Takes effect", formatSecurityTime(effectiveAt)],
    ],
    freezeUrl,
  });
}

/**
 * "Block crypto sends" was switched on (decision 047): its own "This wasn't me" link undoes the block for a few
 * hours instead of freezing the account, since a block someone else switched on keeps the customer's money in.
 */
export function sendBlockOnMail(
  to: string,
  {
    firstName,
    when,
    cooldown,
    undoHours,
    undoUrl,
  }: { firstName: string; when: Date; cooldown: string; undoHours: number; undoUrl: string },
): MailMessage {
  const heading = "You blocked crypto sends";
  const intro = `Hello ${firstName}, "Block crypto sends" was switched on for your ${BRAND.name} account. No USDC can leave your account until it is switched off and its cooldown of ${cooldown} has run. Payments by $tag are not blocked.`;
  const details: [string, string][] = [
    ["Switched on", formatSecurityTime(when)],
    ["Cooldown after switching off", cooldown],
  ];
  const undoIntro = `If you did not do this, undo it now. The link removes the block, signs out every device and asks for a new password:`;
  const outro = `The link works once, for ${undoHours} hours. If this was you, there is nothing to do.`;
  return {
    to,
    kind: "send_block_on",
    subject: `${BRAND.name}: crypto sends are blocked on your account`,
    text: [
      heading,
      intro,
      details.map(([label, value]) => `${label}: ${value}`).join("\n"),
      `${undoIntro}\nThis wasn't me: ${undoUrl}`,
      outro,
      `— ${BRAND.name}`,
    ].join("\n\n"),
    html: renderLayout({
      heading,
      bodyHtml:
        paragraph(intro) +
        detailsTable(details) +
        paragraph(undoIntro) +
        wasntMeButton(undoUrl) +
        paragraph(outro),
    }),
  };
}
