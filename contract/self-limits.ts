import { z } from "zod";

/** The cooldowns "Block crypto sends" offers (issue 32 §5): the time a block lasts after it is switched off. */
export const SEND_BLOCK_COOLDOWNS = ["24 hours", "7 days", "30 days", "12 months"] as const;
export type SendBlockCooldown = (typeof SEND_BLOCK_COOLDOWNS)[number];

export const SELF_LIMIT_MESSAGES = {
  limitAtMostBank: "Your own daily limit must be less than the bank's $2,000",
  limitPositive: "Your own daily limit must be more than $0",
  cooldownShorter: "While sends are blocked, the cooldown can only be made longer",
  noteRequired: "Write a note",
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
});
export type SelfLimits = z.infer<typeof selfLimits>;

/** PUT /api/transfer/self-limits/daily-limit: a dollar amount below $2,000, or null for the bank's limit alone. */
export const setDailyLimitInput = z.strictObject({
  dailyLimit: z.union([z.string().max(20), z.number()]).nullable(),
});

/** PUT /api/transfer/self-limits/send-block. */
export const setSendBlockInput = z.strictObject({
  on: z.boolean(),
  /** Required to switch on; ignored when switching off (the cooldown chosen when it was switched on runs). */
  cooldown: z.enum(SEND_BLOCK_COOLDOWNS).optional(),
});

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
