import { z } from "zod";
import { pendingApprovalResponse } from "@/contract/approvals";
import { endpoints } from "@/contract/endpoint";

/**
 * Finance's side of savings (decision 071): the APY's maker-checker (an owner proposes, a second
 * finance member or owner approves), the rate history, and the back office's figures.
 */

/** The highest APY an owner may propose: 20.00 % (savings_rates_apy_check allows no more). */
export const MAX_PROPOSED_APY_BPS = 2000;

export const SAVINGS_RATE_MESSAGES = {
  apyInvalid: "Enter the APY as a percentage above 0 and at most 20.00, e.g. 2.75",
  effectiveInvalid: "Enter the effective date as YYYY-MM-DD",
  effectiveNotFuture:
    "The new rate must start on a future day (New York): interest already accrued never changes",
  alreadyApproved: "A rate is already approved from that day: choose another day",
  effectivePassed:
    "Its effective day has come: interest from that day may have accrued at the old rate. Reject it and propose a new date",
  notProposed: "This rate is no longer a proposal",
  changingTitle: "Your savings rate is changing",
} as const;

/** "2.75" or "2.75%" → 275 basis points; null when it is not a percentage with at most two decimals. */
export function parseApyBps(text: string): number | null {
  const m = /^\s*(\d{1,2})(?:\.(\d{1,2}))?\s*%?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/** POST /api/admin/savings/rates: the APY in basis points (275 = 2.75 %) from a future New York day. */
export const proposeSavingsRateInput = z.strictObject({
  apyBps: z
    .number({ error: SAVINGS_RATE_MESSAGES.apyInvalid })
    .int(SAVINGS_RATE_MESSAGES.apyInvalid)
    .min(1, SAVINGS_RATE_MESSAGES.apyInvalid)
    .max(MAX_PROPOSED_APY_BPS, SAVINGS_RATE_MESSAGES.apyInvalid),
  effectiveOn: z.iso.date({ error: SAVINGS_RATE_MESSAGES.effectiveInvalid }),
  reason: z
    .string({ error: "Please give a reason: a second staff member reviews this change" })
    .trim()
    .min(1, "Please give a reason: a second staff member reviews this change")
    .max(500, "Please keep the reason under 500 characters"),
});
export type ProposeSavingsRateInput = z.infer<typeof proposeSavingsRateInput>;
export const proposeSavingsRateResponse = pendingApprovalResponse;

const person = z.object({ id: z.string(), email: z.string().nullable() }).nullable();

export const savingsRateRow = z.object({
  id: z.string(),
  apyBps: z.number().int(),
  apy: z.string(),
  effectiveOn: z.string(),
  status: z.enum(["proposed", "approved", "rejected"]),
  /** The rate in force the day before, when approved (the customers' notice says old → new). */
  previousApy: z.string().nullable(),
  proposedBy: person,
  decidedBy: person,
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  approvalId: z.string().nullable(),
  /** Customers told of an approved change: "done", "sending", or null (not announced: the opening rate, a proposal). */
  notice: z.enum(["sending", "done"]).nullable(),
});
export type SavingsRateRow = z.infer<typeof savingsRateRow>;

/** GET /api/admin/savings/rates: every rate, the latest effective day first (a few rows a year). */
export const savingsRateHistory = z.object({
  today: z.string(),
  current: z.object({ apyBps: z.number().int(), apy: z.string() }),
  rates: z.array(savingsRateRow),
});
export type SavingsRateHistory = z.infer<typeof savingsRateHistory>;

const money = z.object({ amount: z.string(), cents: z.number().int() });

export const interestPeriod = z.object({
  /** A New York day (YYYY-MM-DD) or a month's first day. */
  on: z.string(),
  /** Accrued in the period, in millionths of a dollar, and rounded down to the cent for display. */
  accruedMicros: z.number().int(),
  accrued: z.string(),
  accountDays: z.number().int(),
  paid: money,
  accountsPaid: z.number().int(),
});
export type InterestPeriod = z.infer<typeof interestPeriod>;

/** GET /api/admin/savings/finance: the back office's savings figures (decision 071). */
export const savingsFinance = z.object({
  today: z.string(),
  deposits: z.object({
    checking: z.object({ total: money, accounts: z.number().int() }),
    savings: z.object({ total: money, accounts: z.number().int() }),
  }),
  /** The last 31 New York days with interest accrued or paid, newest first. */
  days: z.array(interestPeriod),
  /** The last 12 months, newest first. */
  months: z.array(interestPeriod),
  forecast: z.object({
    month: z.string(),
    days: z.number().int(),
    /** The savings balances now, held all next month at each day's approved rate. */
    balance: money,
    expense: money,
    rates: z.array(z.object({ from: z.string(), apy: z.string() })),
  }),
});
export type SavingsFinance = z.infer<typeof savingsFinance>;

/** Finance's Savings tab and the rate's maker-checker (decision 071): owners propose, finance or owners approve. */
export const SAVINGS_ADMIN_ENDPOINTS = endpoints({
  "GET /api/admin/savings/finance": { access: ["finance"], replies: { 200: savingsFinance } },
  "GET /api/admin/savings/rates": { access: ["finance"], replies: { 200: savingsRateHistory } },
  "POST /api/admin/savings/rates": {
    access: ["owner"],
    body: proposeSavingsRateInput,
    replies: { 202: proposeSavingsRateResponse },
    errors: ["VALIDATION", "CONFLICT"],
    stepUp: true,
  },
});
