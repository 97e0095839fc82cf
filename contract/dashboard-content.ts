import { z } from "zod";

export const DASHBOARD_CONTENT_FIELDS = [
  "welcomeTitle",
  "welcomeMessage",
  "balanceLabel",
  "availableLabel",
  "pendingLabel",
  "cardName",
  "cardNumber",
  "statusTitle",
  "statusMessage",
  "transactionTitle",
  "quickActionTitle",
] as const;
export type DashboardContentField = (typeof DASHBOARD_CONTENT_FIELDS)[number];

/**
 * Spec §3 defaults; cardName is the user's handle card, so it is filled per user. No card number by
 * default (issue "A customer's trust"): cards are not issued yet, so a made-up number only misleads;
 * it shows only when an admin sets one.
 */
export function defaultDashboardContent(pillarTag: string): Record<DashboardContentField, string> {
  return {
    welcomeTitle: "Welcome back!",
    welcomeMessage: "Here's your account overview",
    balanceLabel: "Total Balance",
    availableLabel: "Available",
    pendingLabel: "Pending",
    cardName: `$${pillarTag}`,
    cardNumber: "",
    statusTitle: "Account Request Status",
    statusMessage: "Your account application is being reviewed",
    transactionTitle: "Recent Transactions",
    quickActionTitle: "Quick Actions",
  };
}

const field = z.string().trim().max(200, "Each field must be at most 200 characters");

export const dashboardContent = z.object({
  userId: z.string(),
  welcomeTitle: z.string(),
  welcomeMessage: z.string(),
  balanceLabel: z.string(),
  availableLabel: z.string(),
  pendingLabel: z.string(),
  cardName: z.string(),
  cardNumber: z.string(),
  statusTitle: z.string(),
  statusMessage: z.string(),
  transactionTitle: z.string(),
  quickActionTitle: z.string(),
});
export type DashboardContent = z.infer<typeof dashboardContent>;

/** PUT body: any subset; an empty string restores that field's default. */
const override = field.optional().nullable();
export const updateDashboardContentInput = z.object({
  welcomeTitle: override,
  welcomeMessage: override,
  balanceLabel: override,
  availableLabel: override,
  pendingLabel: override,
  cardName: override,
  cardNumber: override,
  statusTitle: override,
  statusMessage: override,
  transactionTitle: override,
  quickActionTitle: override,
});
export type UpdateDashboardContentInput = z.infer<typeof updateDashboardContentInput>;
