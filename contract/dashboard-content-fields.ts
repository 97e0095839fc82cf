// No zod here: the dashboard imports this, and zod costs ~26 KB gzip and its schema building on a phone
// (report-bundle.mjs checks the dashboard loads no zod).

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
