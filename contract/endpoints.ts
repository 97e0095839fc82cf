import { ADMIN_ENDPOINTS } from "@/contract/admin";
import { CHAT_ADMIN_ENDPOINTS, CHAT_ENDPOINTS } from "@/contract/chat";
import { DASHBOARD_CONTENT_ADMIN_ENDPOINTS, DASHBOARD_CONTENT_ENDPOINTS } from "@/contract/dashboard-content";
import type { EndpointTable } from "@/contract/endpoint";
import { EVENTS_ENDPOINTS } from "@/contract/events";
import { NOTIFICATION_ENDPOINTS } from "@/contract/notifications";
import { SAVINGS_ENDPOINTS } from "@/contract/savings";
import { SAVINGS_ADMIN_ENDPOINTS } from "@/contract/savings-admin";
import { STAFF_ENDPOINTS } from "@/contract/staff";
import { ACCOUNTS_ENDPOINTS } from "@/contract/transactions";

/**
 * Every endpoint declared with a contract (decision 075), by `METHOD /path`. The server registers each area's
 * table in that area; this union is what is generated and checked from them: the staff role table
 * (contract/admin-route-roles.generated.ts), the error codes OpenAPI documents, the abuse catalogue's access, and
 * the web client's types (callEndpoint in web/lib/api.ts, types only: no schema reaches the bundle).
 */
export const ENDPOINTS = {
  ...SAVINGS_ENDPOINTS,
  ...SAVINGS_ADMIN_ENDPOINTS,
  ...ACCOUNTS_ENDPOINTS,
  ...ADMIN_ENDPOINTS,
  ...CHAT_ENDPOINTS,
  ...CHAT_ADMIN_ENDPOINTS,
  ...DASHBOARD_CONTENT_ENDPOINTS,
  ...DASHBOARD_CONTENT_ADMIN_ENDPOINTS,
  ...NOTIFICATION_ENDPOINTS,
  ...STAFF_ENDPOINTS,
  ...EVENTS_ENDPOINTS,
} satisfies EndpointTable;

export type Endpoints = typeof ENDPOINTS;
export type ContractKey = keyof Endpoints;
