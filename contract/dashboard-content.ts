import { z } from "zod";
import { userIdParams } from "@/contract/admin";
import { endpoints } from "@/contract/endpoint";

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

/** GET /api/dashboard-content: the signed-in customer's own dashboard texts. */
export const DASHBOARD_CONTENT_ENDPOINTS = endpoints({
  "GET /api/dashboard-content": { access: "user", replies: { 200: dashboardContent } },
});

/** Support: a customer's dashboard texts as staff read and override them. */
export const DASHBOARD_CONTENT_ADMIN_ENDPOINTS = endpoints({
  "GET /api/admin/dashboard-content/:userId": {
    access: ["support"],
    params: userIdParams,
    replies: { 200: dashboardContent },
    errors: ["NOT_FOUND"],
  },
  "PUT /api/admin/dashboard-content/:userId": {
    access: ["support"],
    params: userIdParams,
    body: updateDashboardContentInput,
    replies: { 200: dashboardContent },
    errors: ["NOT_FOUND"],
  },
});
