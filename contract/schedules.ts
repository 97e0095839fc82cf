import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { passkeyOptionsResponse, secondFactorProof } from "@/contract/security";

/** How often a schedule runs (decision 036): once on its date, or every week, two weeks or month from it. */
export const SCHEDULE_CADENCES = ["once", "weekly", "every_two_weeks", "monthly"] as const;
export const scheduleCadence = z.enum(SCHEDULE_CADENCES, {
  error: "Choose how often: once, weekly, every two weeks or monthly",
});
export type ScheduleCadence = z.infer<typeof scheduleCadence>;

export const SCHEDULE_CADENCE_LABELS: Record<ScheduleCadence, string> = {
  once: "Once",
  weekly: "Every week",
  every_two_weeks: "Every two weeks",
  monthly: "Every month",
};

export const SCHEDULE_STATUSES = ["active", "paused", "completed", "cancelled"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Schedules one customer may keep open (active or paused); ended ones do not count. */
export const SCHEDULE_LIMIT = 20;
/** How far ahead a schedule may start or end: the runner and the customer both plan within this. */
export const SCHEDULE_HORIZON_DAYS = 366 * 2;
/** Runs shown per schedule, and on the dashboard's "Coming up". */
export const UPCOMING_RUNS = 3;

/** Why a run was skipped: the money-out refusals' reasons, and the schedule's own. */
export const SKIP_REASONS = [
  "insufficient_funds",
  "daily_limit",
  "personal_daily_limit",
  "daily_count_limit",
  "sends_blocked",
  "account_frozen",
  "account_closed",
  "setup_incomplete",
  "staff_account",
  "under_review",
  "recipient_removed",
  "not_made",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What the customer reads about a skipped run: what happened, never a compliance reason. */
export const SKIP_REASON_TEXT: Record<SkipReason, string> = {
  insufficient_funds: "there was not enough available balance",
  daily_limit: "it would have gone over the daily limit of $2,000.00",
  personal_daily_limit: "it would have gone over your own daily limit",
  daily_count_limit: "you reached the number of transfers allowed today",
  sends_blocked: "crypto sends are blocked on your account",
  account_frozen: "your account is frozen",
  account_closed: "your account is closed",
  setup_incomplete: "your account cannot send money yet",
  staff_account: "staff accounts cannot send money",
  under_review: "this transfer needs a review first",
  recipient_removed: "the recipient was removed from your saved recipients",
  not_made: "it could not be made",
};

export const SCHEDULE_MESSAGES = {
  notFound: "Schedule not found",
  recipientNotFound: "Recipient not found",
  staffCannotSchedule: "Scheduled transfers are for customers sending money",
  dateInvalid: "Enter a date as YYYY-MM-DD",
  startInPast: "The first transfer date cannot be in the past",
  startTooFar: "The first transfer date must be within two years",
  endBeforeStart: "The end date must be on or after the first transfer date",
  endTooFar: "The end date must be within two years",
  amountInvalid: "Enter a valid amount",
  amountPositive: "Amount must be greater than $0.00",
  amountOverLimit: "A scheduled transfer cannot be more than the daily limit of $2,000.00",
  limit: `You can keep at most ${SCHEDULE_LIMIT} scheduled transfers. Cancel one to add another.`,
  ended: "This schedule has ended and cannot be changed",
  notPaused: "This schedule is not paused",
  notActive: "This schedule is not running",
  nothingLeft: "There are no transfers left in this schedule",
  created: "Transfer scheduled",
  paused: "Schedule paused",
  resumed: "Schedule resumed",
  updated: "Schedule updated",
  cancelled: "Schedule cancelled",
} as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date (YYYY-MM-DD) that exists: 2026-02-30 is refused. */
export const calendarDate = z
  .string({ error: SCHEDULE_MESSAGES.dateInvalid })
  .regex(DAY, SCHEDULE_MESSAGES.dateInvalid)
  .refine((day) => {
    const parsed = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
  }, SCHEDULE_MESSAGES.dateInvalid);

const amount = z.union([z.number(), z.string().max(30)], { error: "Amount is required" });
const purpose = z
  .string()
  .trim()
  .min(1, "Transfer purpose is required")
  .max(200, "Transfer purpose must be at most 200 characters");

export const createScheduleInput = z.strictObject({
  recipientId: z.string().max(100),
  amount,
  cadence: scheduleCadence,
  startOn: calendarDate,
  endOn: calendarDate.nullable().optional(),
  purpose: purpose.optional(),
  /** A random key the client makes per form; a passkey signs it with the schedule's fields. */
  requestKey: z
    .string()
    .min(8)
    .max(100)
    .regex(/^[\x21-\x7e]+$/),
  /** Required when the customer has a second factor, as for a transfer. */
  secondFactor: secondFactorProof.optional(),
});
export type CreateScheduleInput = z.infer<typeof createScheduleInput>;

/** POST /api/schedules/passkey-options: the fields a passkey signs for a new schedule. */
export const schedulePasskeyOptionsInput = createScheduleInput.omit({ secondFactor: true });
export type SchedulePasskeyOptionsInput = z.infer<typeof schedulePasskeyOptionsInput>;

/** PATCH /api/schedules/:id (after a step-up): the amount, cadence, dates or purpose. */
export const editScheduleInput = z
  .strictObject({
    amount: amount.optional(),
    cadence: scheduleCadence.optional(),
    startOn: calendarDate.optional(),
    endOn: calendarDate.nullable().optional(),
    purpose: purpose.optional(),
  })
  .refine((edit) => Object.keys(edit).length > 0, "Nothing to change");
export type EditScheduleInput = z.infer<typeof editScheduleInput>;

// Any string: a malformed id is answered 404 by the service, like a missing or someone else's one.
export const scheduleIdParams = z.object({ id: z.string().max(100) });

export const scheduleRun = z.object({
  runOn: z.string(),
  outcome: z.enum(["made", "skipped"]),
  reason: z.enum(SKIP_REASONS).nullable(),
  transferId: z.string().nullable(),
});
export type ScheduleRun = z.infer<typeof scheduleRun>;

export const transferSchedule = z.object({
  id: z.string(),
  recipientId: z.string().nullable(),
  recipientName: z.string(),
  address: z.string(),
  amountCents: z.number().int(),
  formattedAmount: z.string(),
  purpose: z.string(),
  cadence: scheduleCadence,
  startOn: z.string(),
  endOn: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  /** The next run dates (New York calendar days), at most UPCOMING_RUNS; empty when paused or ended. */
  upcoming: z.array(z.string()),
  lastRun: scheduleRun.nullable(),
  createdAt: z.string(),
});
export type TransferSchedule = z.infer<typeof transferSchedule>;

export const scheduleList = z.object({ items: z.array(transferSchedule), limit: z.number().int() });
export type ScheduleList = z.infer<typeof scheduleList>;

export const scheduleResponse = z.object({ message: z.string(), schedule: transferSchedule });
export type ScheduleResponse = z.infer<typeof scheduleResponse>;

/** GET /api/schedules/upcoming: the dashboard's "Coming up", soonest first. */
export const upcomingRun = z.object({
  scheduleId: z.string(),
  runOn: z.string(),
  recipientName: z.string(),
  amountCents: z.number().int(),
  formattedAmount: z.string(),
});
export const upcomingRuns = z.object({ items: z.array(upcomingRun) });
export type UpcomingRuns = z.infer<typeof upcomingRuns>;

/** Every schedule endpoint's refusal of staff (customers_only), and a schedule not the caller's (404). */
const SCHEDULE_REFUSALS = ["customers_only", "NOT_FOUND"] as const;
const changes = { perMinute: 30, by: "user", bucket: "schedule-change" } as const;

/**
 * A customer's scheduled and recurring transfers to saved recipients (decision 036). Schedules send money, which
 * staff never do from the customer side, so every endpoint refuses them (customers_only) before anything else.
 * Editing, pausing and resuming change when money leaves, so each asks for a fresh step-up (decision 036).
 * (Marked pure: the web's pages import this file's messages and leave the table out of their bundles.)
 */
export const SCHEDULE_ENDPOINTS = /* @__PURE__ */ endpoints({
  "GET /api/schedules": { access: "user", replies: { 200: scheduleList }, errors: ["customers_only"] },
  "GET /api/schedules/upcoming": {
    access: "user",
    replies: { 200: upcomingRuns },
    errors: ["customers_only"],
  },
  "POST /api/schedules": {
    access: "user",
    body: createScheduleInput,
    replies: { 201: scheduleResponse },
    errors: [
      ...SCHEDULE_REFUSALS,
      "VALIDATION",
      "BAD_REQUEST",
      "schedule_limit_reached",
      "step_up_required",
      "second_factor_invalid",
      "second_factor_locked",
    ],
    limit: changes,
  },
  "POST /api/schedules/passkey-options": {
    access: "user",
    body: schedulePasskeyOptionsInput,
    replies: { 200: passkeyOptionsResponse },
    errors: [...SCHEDULE_REFUSALS, "VALIDATION", "BAD_REQUEST", "no_passkey"],
    limit: changes,
  },
  "PATCH /api/schedules/:id": {
    access: "user",
    params: scheduleIdParams,
    body: editScheduleInput,
    replies: { 200: scheduleResponse },
    errors: [...SCHEDULE_REFUSALS, "VALIDATION", "schedule_state"],
    stepUp: true,
    limit: changes,
  },
  "POST /api/schedules/:id/pause": {
    access: "user",
    params: scheduleIdParams,
    replies: { 200: scheduleResponse },
    errors: [...SCHEDULE_REFUSALS, "schedule_state"],
    stepUp: true,
    limit: changes,
  },
  "POST /api/schedules/:id/resume": {
    access: "user",
    params: scheduleIdParams,
    replies: { 200: scheduleResponse },
    errors: [...SCHEDULE_REFUSALS, "VALIDATION", "schedule_state"],
    stepUp: true,
    limit: changes,
  },
  "POST /api/schedules/:id/cancel": {
    access: "user",
    params: scheduleIdParams,
    replies: { 200: scheduleResponse },
    errors: [...SCHEDULE_REFUSALS, "schedule_state"],
    limit: changes,
  },
});
