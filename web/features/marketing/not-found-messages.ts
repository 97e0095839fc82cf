/** The not-found screen shows one of these, picked once per visit (a list of 7). */
export const NOT_FOUND_MESSAGES = [
  "This page took a personal day. Even web pages need a break sometimes.",
  "We checked under the couch, behind the vault door and in the coin jar. Nothing.",
  "This page was transferred to an account that doesn't exist.",
  "Our auditors went through every ledger. This page never posted.",
  "This link bounced harder than a check with no funds behind it.",
  "Looks like this page went on vacation and forgot to set an out-of-office reply.",
  "You found something as rare as our hidden fees: it doesn't exist.",
] as const;
