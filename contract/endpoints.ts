import { APPROVALS_ENDPOINTS } from "@/contract/approvals";
import type { EndpointTable } from "@/contract/endpoint";
import { PAYMENTS_ADMIN_ENDPOINTS } from "@/contract/payments";
import { SAVINGS_ENDPOINTS } from "@/contract/savings";
import { SAVINGS_ADMIN_ENDPOINTS } from "@/contract/savings-admin";
import { SETTLEMENT_ADMIN_ENDPOINTS, SETTLEMENT_ENDPOINTS } from "@/contract/settlement";
import { STATEMENTS_ENDPOINTS } from "@/contract/statements";
import { TAX_FORM_ADMIN_ENDPOINTS } from "@/contract/tax-forms";
import { TREASURY_ENDPOINTS } from "@/contract/treasury";

/**
 * Every endpoint declared with a contract (decision 075), by `METHOD /path`. The server registers each area's
 * table in that area; this union is what is generated and checked from them: the staff role table
 * (contract/admin-route-roles.generated.ts), the error codes OpenAPI documents, the abuse catalogue's access, and
 * the web client's types (callEndpoint in web/lib/api.ts, types only: no schema reaches the bundle).
 */
export const ENDPOINTS = {
  ...SAVINGS_ENDPOINTS,
  ...SAVINGS_ADMIN_ENDPOINTS,
  ...STATEMENTS_ENDPOINTS,
  ...TAX_FORM_ADMIN_ENDPOINTS,
  ...SETTLEMENT_ENDPOINTS,
  ...SETTLEMENT_ADMIN_ENDPOINTS,
  ...TREASURY_ENDPOINTS,
  ...PAYMENTS_ADMIN_ENDPOINTS,
  ...APPROVALS_ENDPOINTS,
} satisfies EndpointTable;

export type Endpoints = typeof ENDPOINTS;
export type ContractKey = keyof Endpoints;
