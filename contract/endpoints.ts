import { KYC_ADMIN_ENDPOINTS } from "@/contract/admin-onboarding";
import { AUDIT_ENDPOINTS, DATA_ACCESS_ENDPOINTS } from "@/contract/audit";
import { COMPLIANCE_ENDPOINTS } from "@/contract/compliance";
import type { EndpointTable } from "@/contract/endpoint";
import { KYC_ENDPOINTS } from "@/contract/kyc";
import { MONITORING_ENDPOINTS } from "@/contract/monitoring";
import { SAVINGS_ENDPOINTS } from "@/contract/savings";
import { SAVINGS_ADMIN_ENDPOINTS } from "@/contract/savings-admin";

/**
 * Every endpoint declared with a contract (decision 075), by `METHOD /path`. The server registers each area's
 * table in that area; this union is what is generated and checked from them: the staff role table
 * (contract/admin-route-roles.generated.ts), the error codes OpenAPI documents, the abuse catalogue's access, and
 * the web client's types (callEndpoint in web/lib/api.ts, types only: no schema reaches the bundle).
 */
export const ENDPOINTS = {
  ...SAVINGS_ENDPOINTS,
  ...SAVINGS_ADMIN_ENDPOINTS,
  ...KYC_ENDPOINTS,
  ...KYC_ADMIN_ENDPOINTS,
  ...COMPLIANCE_ENDPOINTS,
  ...MONITORING_ENDPOINTS,
  ...AUDIT_ENDPOINTS,
  ...DATA_ACCESS_ENDPOINTS,
} satisfies EndpointTable;

export type Endpoints = typeof ENDPOINTS;
export type ContractKey = keyof Endpoints;
