import type { EndpointTable } from "@/contract/endpoint";
import { MONEY_REQUEST_ENDPOINTS } from "@/contract/money-requests";
import { RECIPIENT_ENDPOINTS } from "@/contract/recipients";
import { SAVINGS_ENDPOINTS } from "@/contract/savings";
import { SAVINGS_ADMIN_ENDPOINTS } from "@/contract/savings-admin";
import { SCHEDULE_ENDPOINTS } from "@/contract/schedules";
import { SELF_LIMITS_ENDPOINTS } from "@/contract/self-limits";
import { TAG_PAYMENT_ENDPOINTS } from "@/contract/tag-payments";
import { TRANSFER_ENDPOINTS, TRANSFER_RECEIPT_ENDPOINTS } from "@/contract/transfers";
import { TRANSFER_ADMIN_ENDPOINTS } from "@/contract/transfers-admin";

/**
 * Every endpoint declared with a contract (decision 075), by `METHOD /path`. The server registers each area's
 * table in that area; this union is what is generated and checked from them: the staff role table
 * (contract/admin-route-roles.generated.ts), the error codes OpenAPI documents, the abuse catalogue's access, and
 * the web client's types (callEndpoint in web/lib/api.ts, types only: no schema reaches the bundle).
 */
export const ENDPOINTS = {
  ...SAVINGS_ENDPOINTS,
  ...SAVINGS_ADMIN_ENDPOINTS,
  ...TRANSFER_ENDPOINTS,
  ...TRANSFER_RECEIPT_ENDPOINTS,
  ...TRANSFER_ADMIN_ENDPOINTS,
  ...SELF_LIMITS_ENDPOINTS,
  ...TAG_PAYMENT_ENDPOINTS,
  ...MONEY_REQUEST_ENDPOINTS,
  ...RECIPIENT_ENDPOINTS,
  ...SCHEDULE_ENDPOINTS,
} satisfies EndpointTable;

export type Endpoints = typeof ENDPOINTS;
export type ContractKey = keyof Endpoints;
