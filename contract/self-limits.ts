import { z } from "zod";
import { endpoints } from "@/contract/endpoint";

/** The cooldowns "Block crypto sends" offers (decision 035): the time a block lasts after it is switched off. */
export const SEND_BLOCK_COOLDOWNS = ["24 hours", "7 days", "30 days", "12 months"] as const;
export type SendBlockCooldown = (typeof SEND_BLOCK_COOLDOWNS)[number];

/** "a 7-day cooldown": the cooldown as an adjective, for the copy around it. */
export const COOLDOWN_ADJECTIVES: Record<SendBlockCooldown, string> = {
  "24 hours": "24-hour",
  "7 days": "7-day",
  "30 days": "30-day",
  "12 months": "12-month",
};

/** What "Block crypto sends" covers (decision 047): USDC leaving the bank, never payments inside it. */
export const SEND_BLOCK_SCOPE =
  "It stops USDC leaving Pillar: crypto transfers and their schedules. Paying someone by $tag and paying a request stay inside Pillar and are not blocked; your daily limit covers those.";

/** How long the "This wasn't me" link e-mailed when the block is switched on can undo it (decision 047). */
export const SEND_BLOCK_UNDO_HOURS = 6;

export const SELF_LIMIT_MESSAGES = {
  limitAtMostBank: "Your own daily limit must be less than the bank's $2,000",
  limitPositive: "Your own daily limit must be more than $0",
  cooldownShorter: "While sends are blocked, the cooldown can only be made longer",
  noteRequired: "Write a note",
  passwordConfirmRequired: "Enter your password to confirm this change",
  notBlocked: "Crypto sends are not blocked on this account",
  identityCheckRequired: "Say how you re-verified the customer's identity",
  liftReasonRequired: "Give the reason for lifting the block",
  undone:
    "The block on crypto sends is undone. Every device was signed out: reset your password to sign in again.",
  lifted: "The block on crypto sends was lifted.",
} as const;

/** A refusal while sends are blocked: on (no end yet), or switched off and cooling down until `until`. */
export const sendsBlockedMessage = (until: string | null) =>
  until
    ? `You blocked crypto sends. The block ends on ${until}, and no one can end it sooner.`
    : "You blocked crypto sends. Turn the block off in Settings; sending opens again after its cooldown.";

export const personalLimitMessage = (limit: string, remaining: string) =>
  `This is over the daily limit you set yourself (${limit}). You can send ${remaining} more today.`;

/** GET /api/transfer/self-limits: what is in force now and what is waiting. */
export const selfLimits = z.object({
  /** The customer's own daily limit in force ("$500.00"), or null: only the bank's. */
  personalDailyLimit: z.string().nullable(),
  personalDailyLimitCents: z.number().int().nullable(),
  /** A raise waiting 24 hours: the limit it brings (null: back to the bank's) and when. */
  pendingRaise: z
    .object({
      dailyLimit: z.string().nullable(),
      dailyLimitCents: z.number().int().nullable(),
      at: z.string(),
    })
    .nullable(),
  /** Sends are refused now (the block is on, or its cooldown runs). */
  sendsBlocked: z.boolean(),
  blockOn: z.boolean(),
  cooldown: z.enum(SEND_BLOCK_COOLDOWNS).nullable(),
  /** When a running cooldown ends (ISO 8601), or null. */
  blockedUntil: z.string().nullable(),
  /** The same instant as the refusal words it, in New York time with "ET" (formatBankTime), or null. */
  blockedUntilText: z.string().nullable(),
});
export type SelfLimits = z.infer<typeof selfLimits>;

/**
 * A change that can keep money in (lowering the limit, switching the block on) needs a fresh proof (decision 047):
 * the session's step-up when a second factor is enrolled, else the account password in the body.
 */
const confirmPassword = z.string().min(1).max(128).optional();

/** PUT /api/transfer/self-limits/daily-limit: a dollar amount below $2,000, or null for the bank's limit alone. */
export const setDailyLimitInput = z.strictObject({
  dailyLimit: z.union([z.string().max(20), z.number()]).nullable(),
  password: confirmPassword,
});

/** PUT /api/transfer/self-limits/send-block. */
export const setSendBlockInput = z.strictObject({
  on: z.boolean(),
  /** Required to switch on; ignored when switching off (the cooldown chosen when it was switched on runs). */
  cooldown: z.enum(SEND_BLOCK_COOLDOWNS).optional(),
  password: confirmPassword,
});

/** What a change of the customer's own limits answers: its message and the limits now. */
export const selfLimitsAnswer = z.object({ message: z.string(), selfLimits });

/** POST /api/account/send-block/undo: the token from the e-mailed link's fragment (answered like a freeze link). */
export const undoSendBlockInput = z.object({
  token: z.string({ error: "This link is not valid" }).max(200, "This link is not valid"),
});
export const undoSendBlockResponse = z.object({ message: z.string() });

/**
 * POST /api/admin/users/:userId/lift-send-block: a compliance member proposes lifting a customer's own block after
 * re-verifying their identity; a second compliance member approves it in the Approvals tab (decision 047).
 */
export const liftSendBlockInput = z.strictObject({
  reason: z
    .string({ error: SELF_LIMIT_MESSAGES.liftReasonRequired })
    .trim()
    .min(1, SELF_LIMIT_MESSAGES.liftReasonRequired)
    .max(500, "Please keep the reason under 500 characters"),
  identityCheck: z
    .string({ error: SELF_LIMIT_MESSAGES.identityCheckRequired })
    .trim()
    .min(1, SELF_LIMIT_MESSAGES.identityCheckRequired)
    .max(500, "Please keep the identity check under 500 characters"),
});
export type LiftSendBlockInput = z.infer<typeof liftSendBlockInput>;

/** POST /api/admin/users/:id/self-limit-notes: staff record a note; they never change the limits. */
export const selfLimitNoteInput = z.strictObject({
  note: z.string().trim().min(1, SELF_LIMIT_MESSAGES.noteRequired).max(1000),
});
export const selfLimitNotes = z.object({
  selfLimits,
  notes: z.array(
    z.object({ id: z.string(), note: z.string(), staffId: z.string().nullable(), createdAt: z.string() }),
  ),
});

/** What a change of the customer's own limits is refused for: staff, the input, the fresh proof (decision 047). */
const SELF_LIMIT_REFUSALS = [
  "VALIDATION",
  "staff_account",
  "step_up_required",
  "password_confirm_required",
  "password_wrong",
] as const;

/**
 * The customer's own limits (decision 035): read, lower or raise the daily limit, switch the send block. The
 * password that confirms a change for a customer with no second factor has few guesses, counted per customer by
 * the server apart from the changes' own limit.
 * (Marked pure: the web's pages import this file's messages and leave the table out of their bundles.)
 */
export const SELF_LIMITS_ENDPOINTS = /* @__PURE__ */ endpoints({
  "GET /api/transfer/self-limits": { access: "user", replies: { 200: selfLimits } },
  "PUT /api/transfer/self-limits/daily-limit": {
    access: "user",
    body: setDailyLimitInput,
    replies: { 200: selfLimitsAnswer },
    errors: SELF_LIMIT_REFUSALS,
    limit: { perMinute: 20, by: "user", bucket: "self-limits" },
  },
  "PUT /api/transfer/self-limits/send-block": {
    access: "user",
    body: setSendBlockInput,
    replies: { 200: selfLimitsAnswer },
    errors: [...SELF_LIMIT_REFUSALS, "cooldown_shorter"],
    limit: { perMinute: 20, by: "user", bucket: "self-limits" },
  },
});
