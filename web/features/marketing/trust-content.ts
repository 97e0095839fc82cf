import { BRAND } from "@/contract/brand";

/**
 * The Privacy Policy, Terms of Service and Security pages. Every figure here is what the code does
 * (server/lib/session.ts, server/lib/housekeeping.ts, one-time codes, the device cookie); change them together.
 */
export interface TrustSection {
  title: string;
  paragraphs?: string[];
  items?: string[];
  /** Two-column rows: what, and how long or how. */
  rows?: { what: string; detail: string }[];
}

export interface TrustDocument {
  path: "/privacy" | "/terms" | "/security";
  title: string;
  eyebrow: string;
  summary: string;
  sections: TrustSection[];
}

const name = BRAND.name;
const UPDATED = "Last updated November 2026";

const PRIVACY: TrustDocument = {
  path: "/privacy",
  title: "Privacy Policy",
  eyebrow: UPDATED,
  summary: `What ${name} stores about you, why, how it is protected and how long we keep it. Plain language, no surprises.`,
  sections: [
    {
      title: "What we store",
      rows: [
        {
          what: "Your account",
          detail:
            "Name, e-mail address, phone number, Pillar tag and when you joined. Your password is never stored: only an argon2id hash of it, which cannot be turned back into the password.",
        },
        {
          what: "Identity check (KYC)",
          detail:
            "The details you give when you apply for an account: legal name, home address, account type, company name for business accounts, and your Social Security number.",
        },
        {
          what: "Identity documents",
          detail:
            "The images or PDFs you upload: both sides of your driver's license, and for business accounts the LLC and EIN documents.",
        },
        {
          what: "Money",
          detail:
            "Your balance, transactions, transfer requests (amount, recipient name, USDC wallet address, purpose) and incoming payments.",
        },
        {
          what: "Support chat",
          detail: "The messages you exchange with our support team.",
        },
        {
          what: "Sign-ins",
          detail:
            "Each session's browser, IP address and times, and a record of every browser that signed in to your account (its browser name, IP address and a hash of a random device cookie) so we can e-mail you when a new one does.",
        },
        {
          what: "Audit log",
          detail:
            "Every change our staff make to your money or identity records, and every time staff open your SSN or documents: who, what, when, before and after.",
        },
      ],
    },
    {
      title: "How we protect it",
      items: [
        "Your SSN is encrypted with AES-256-GCM before it is written to our database. To stop one person opening several accounts we also keep a blind index: a keyed fingerprint (HMAC) that can tell two SSNs are equal without revealing either. Screens and staff tools show only the last four digits (***-**-1234).",
        "Identity documents are only ever served through an access check: to you, and to staff reviewing your application. Upload links are signed and expire within minutes.",
        "Your session cookie is random, HttpOnly (page scripts cannot read it) and only its SHA-256 hash is stored, so even a copy of our database cannot sign anyone in.",
        "Staff reads of your SSN and documents are recorded in the audit log.",
      ],
    },
    {
      title: "How long we keep it",
      paragraphs: [
        "Short-lived security records are deleted automatically; a clean-up runs every 15 minutes on every server.",
      ],
      rows: [
        {
          what: "Sessions",
          detail:
            "End after 30 minutes without activity or 12 hours after sign-in, whichever comes first, and are deleted at the next clean-up.",
        },
        { what: "One-time codes", detail: "Expire after 10 minutes; deleted one day after they expire." },
        {
          what: "E-mails we send you",
          detail:
            "Our copy (it contains codes and links) is deleted 7 days after delivery. Mail that could not be delivered yet is kept until it is.",
        },
        {
          what: 'Sign-in challenges and unused "This wasn\'t me" links',
          detail:
            "Deleted one day after they expire (links are valid for 7 days). A used link is kept as the record of the freeze.",
        },
        { what: "Transfer retry records", detail: "Deleted after 7 days." },
        {
          what: "Device records",
          detail:
            "Kept while your account is open. The device cookie in your browser expires after 400 days unless you sign in again.",
        },
        {
          what: "Account, identity details, documents, transactions, chat and audit log",
          detail:
            "There is no automatic deletion today: we keep them while your account is open and afterwards for as long as banking and anti-money-laundering law requires us to. The audit log is kept indefinitely.",
        },
      ],
    },
    {
      title: "Cookies",
      items: [
        "Session cookie (HttpOnly): keeps you signed in; ends with your session.",
        `"Signed in" hint (pillar_signed_in=1): holds no secret; it only tells the app to check your session, so signed-out visits make no account request. Cleared when you log out.`,
        "Device cookie (HttpOnly, 400 days): recognises your browser so a sign-in from a new one triggers an e-mail alert.",
        "Second-factor cookie (5 minutes): holds a half-finished sign-in while you enter your code.",
        "We use no advertising or tracking cookies.",
      ],
    },
    {
      title: "Who we share it with",
      paragraphs: [
        `We do not sell your data. We share it only with the providers that run ${name} for us (e-mail delivery and file storage), under contract and only for that purpose, and with authorities when the law requires it.`,
      ],
    },
    {
      title: "Your choices",
      items: [
        "See and end your active sessions in Settings → Security.",
        'Use the "This wasn\'t me" link in any security e-mail to freeze your account at once.',
        `Ask for a copy or a correction of your data through Contact Support or ${BRAND.supportEmail}.`,
      ],
    },
  ],
};

const TERMS: TrustDocument = {
  path: "/terms",
  title: "Terms of Service",
  eyebrow: UPDATED,
  summary: `The agreement between you and ${name} when you open and use an account.`,
  sections: [
    {
      title: "Your account",
      items: [
        "You must be able to prove your identity with a Social Security number and a driver's license.",
        "One person, one account: an SSN already linked to an account cannot open another.",
        "The details you give must be true and your own. We review applications within 24 hours and may decline one.",
      ],
    },
    {
      title: "Fees and limits",
      items: [
        "Opening and keeping an account is free: no monthly or hidden fees.",
        "Outgoing transfers cost 2% of the amount, shown before you confirm (you send the amount; the recipient gets 98% of it).",
        "You can send up to $2,000 a day, counted per calendar day in New York time, including transfers still pending.",
      ],
    },
    {
      title: "Sending money",
      items: [
        "Transfers go out as USDC to the wallet address you enter (1 USD = 1 USDC). ACH transfers are not available.",
        "A transfer is held from your available balance while we review it, then completed or cancelled. Once completed it cannot be reversed, so check the address.",
        "Large transfers may need a second member of staff to approve them.",
      ],
    },
    {
      title: "Keeping your account safe",
      items: [
        "Keep your password, codes and devices to yourself. We will never ask for them.",
        'If something looks wrong, use "This wasn\'t me" in any security e-mail: we freeze the account, end every session and hold pending transfers until you reset your password and staff lift the freeze.',
      ],
    },
    {
      title: "Closing an account",
      paragraphs: [
        "Contact support to close your account. We close it once the balance is zero and nothing is in flight, and keep records as our Privacy Policy describes.",
      ],
    },
    {
      title: "Changes",
      paragraphs: [
        "If we change these terms we will tell you by e-mail before the change takes effect. Questions: Contact Support.",
      ],
    },
  ],
};

const SECURITY: TrustDocument = {
  path: "/security",
  title: "Security",
  eyebrow: "How we keep your account safe",
  summary: `What ${name} does to protect your money and identity, and what you can do too.`,
  sections: [
    {
      title: "Signing in",
      items: [
        "Passwords are hashed with argon2id, and the most common passwords are refused.",
        "Sessions end after 30 minutes without activity and 12 hours after sign-in at the latest. Logging out or changing your password ends them at once.",
        "Add an authenticator app or a passkey in Settings → Security. With either on, sign-in, sending money and security changes ask for it.",
        "Repeated wrong attempts are slowed down, without locking you out of a browser you have used before.",
      ],
    },
    {
      title: "Alerts and freezing",
      items: [
        "A sign-in from a browser new to your account e-mails you its time, browser and IP address.",
        "Password changes, second-factor changes and every transfer request are e-mailed too.",
        'Each of those e-mails has a "This wasn\'t me" link (valid 7 days) that freezes your account in one step.',
      ],
    },
    {
      title: "Your identity data",
      items: [
        "Your SSN is encrypted with AES-256-GCM and shown only as its last four digits.",
        "Uploads are limited to 10 MB and checked to really be images or PDFs. Documents are served only through an access check.",
        "Staff need a second factor to use the back office, and every change they make to your money or identity is audit-logged.",
      ],
    },
    {
      title: "Report a problem",
      paragraphs: [
        `Think you've found a vulnerability, or a message that claims to be from us? Write to ${BRAND.supportEmail}. We never ask for your password or codes by e-mail, chat or phone.`,
      ],
    },
  ],
};

export const TRUST_DOCUMENTS: readonly TrustDocument[] = [PRIVACY, TERMS, SECURITY];
