import type { DashboardContentField } from "@/contract/dashboard-content-fields";

/** How the editor groups and names the dashboard's content fields, in the dashboard's own order. */
export const CONTENT_GROUPS: {
  title: string;
  fields: { key: DashboardContentField; label: string; long?: boolean }[];
}[] = [
  {
    title: "Welcome",
    fields: [
      { key: "welcomeTitle", label: "Welcome title" },
      { key: "welcomeMessage", label: "Welcome message", long: true },
    ],
  },
  {
    title: "Balance card",
    fields: [
      { key: "balanceLabel", label: "Balance label" },
      { key: "availableLabel", label: "Available label" },
      { key: "pendingLabel", label: "Pending label" },
      { key: "cardName", label: "Card name" },
      { key: "cardNumber", label: "Card number" },
    ],
  },
  {
    title: "Account status",
    fields: [
      { key: "statusTitle", label: "Status title" },
      { key: "statusMessage", label: "Status message", long: true },
    ],
  },
  {
    title: "Sections",
    fields: [
      { key: "transactionTitle", label: "Transactions title" },
      { key: "quickActionTitle", label: "Quick actions title" },
    ],
  },
];
