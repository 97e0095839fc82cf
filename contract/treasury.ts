import { z } from "zod";
import { idParams } from "@/contract/admin-onboarding";
import { pendingApprovalResponse } from "@/contract/approvals";
import { endpoints } from "@/contract/endpoint";

/** The treasury's part of the Settlement tab (decision 060): sweeps, the hot wallet's ceiling and forecast. */
export const treasuryMovementKind = z.enum(["sweep", "to_cold", "return"]);
export const treasuryMovementStatus = z.enum(["queued", "signed", "sent", "completed", "failed"]);

export const treasuryMovement = z.object({
  id: z.string(),
  kind: treasuryMovementKind,
  status: treasuryMovementStatus,
  /** Dollars and cents of what it moves (a sweep: what it moved once mined, else what the address held). */
  amount: z.string(),
  fromAddress: z.string(),
  toAddress: z.string(),
  txHash: z.string().nullable(),
  explorerUrl: z.string().nullable(),
  nonce: z.number().nullable(),
  confirmations: z.number(),
  ageSeconds: z.number(),
  /** Sent, not mined, older than PAYOUT_REBROADCAST_AFTER; or queued and waiting. */
  stuck: z.boolean(),
  waitingReason: z.enum(["gas_price", "usdc", "gas"]).nullable(),
  failureReason: z.string().nullable(),
});
export type TreasuryMovement = z.infer<typeof treasuryMovement>;

export const treasuryAlert = z.object({
  kind: z.enum(["floor", "forecast", "sweeps_waiting", "movement_stuck", "not_sweepable"]),
  message: z.string(),
});
export type TreasuryAlert = z.infer<typeof treasuryAlert>;

export const treasuryOverview = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("manual"), message: z.string() }),
  z.object({
    mode: z.literal("chain"),
    sweepsEnabled: z.boolean(),
    policy: z.object({
      minAmount: z.string(),
      minAgeSeconds: z.number(),
      maxGasGwei: z.string(),
      ceiling: z.string().nullable(),
      coldWallet: z.string().nullable(),
    }),
    forecast: z.object({
      /** The hot wallet's USDC less what is signed and not yet mined; null when the node did not answer. */
      available: z.string().nullable(),
      /** Payouts completed in the last 24 hours. */
      lastDayOutflow: z.string(),
      /** At the last day's rate; null with no outflow (or no balance read). */
      hoursLeft: z.number().nullable(),
    }),
    /** Deposit addresses holding credited money the next sweep will take, and those the server cannot sweep. */
    sweepsWaiting: z.number(),
    notSweepable: z.object({ addresses: z.number(), amount: z.string() }),
    counts: z.record(treasuryMovementStatus, z.number()),
    movements: z.array(treasuryMovement),
    alerts: z.array(treasuryAlert),
  }),
]);
export type TreasuryOverview = z.infer<typeof treasuryOverview>;

/** POST /api/admin/settlement/deposits/:id/return: why the deposit goes back (kept on the approval). */
export const depositReturnInput = z.object({
  reason: z
    .string({ error: "Please give a reason: a second staff member reviews this" })
    .trim()
    .min(1, "Please give a reason: a second staff member reviews this")
    .max(500, "Please keep the reason under 500 characters"),
});
export type DepositReturnInput = z.infer<typeof depositReturnInput>;

/**
 * The treasury (decision 060; finance and owners): sweeps, the hot wallet's ceiling and forecast. A return of an
 * uncreditable deposit to its sender is proposed here and approved by a second finance member on the approvals
 * routes (step-up both times); only then is the on-chain return queued. With no chain every deposit is unknown.
 */
export const TREASURY_ENDPOINTS = endpoints({
  "GET /api/admin/settlement/treasury": { access: ["finance"], replies: { 200: treasuryOverview } },
  "POST /api/admin/settlement/deposits/:id/return": {
    access: ["finance"],
    params: idParams,
    body: depositReturnInput,
    replies: { 202: pendingApprovalResponse },
    errors: ["NOT_FOUND", "deposit_not_returnable", "approval_pending"],
    stepUp: true,
  },
});
