import { AUTH_ENDPOINTS } from "@/contract/auth";
import { CLOSURE_ADMIN_ENDPOINTS, CLOSURE_ENDPOINTS } from "@/contract/closure";
import type { EndpointTable } from "@/contract/endpoint";
import { PASSKEY_ENDPOINTS } from "@/contract/passkeys";
import { SAVINGS_ENDPOINTS } from "@/contract/savings";
import { SAVINGS_ADMIN_ENDPOINTS } from "@/contract/savings-admin";
import { ACCOUNT_SECURITY_ENDPOINTS, LOGIN_ENDPOINTS, SECOND_FACTOR_ENDPOINTS } from "@/contract/security";

/**
 * Every endpoint declared with a contract (decision 075), by `METHOD /path`. The server registers each area's
 * table in that area; this union is what is generated and checked from them: the staff role table
 * (contract/admin-route-roles.generated.ts), the error codes OpenAPI documents, the abuse catalogue's access, and
 * the web client's types (callEndpoint in web/lib/api.ts, types only: no schema reaches the bundle).
 */
export const ENDPOINTS = {
  ...SAVINGS_ENDPOINTS,
  ...SAVINGS_ADMIN_ENDPOINTS,
  ...AUTH_ENDPOINTS,
  ...LOGIN_ENDPOINTS,
  ...PASSKEY_ENDPOINTS,
  ...SECOND_FACTOR_ENDPOINTS,
  ...ACCOUNT_SECURITY_ENDPOINTS,
  ...CLOSURE_ENDPOINTS,
  ...CLOSURE_ADMIN_ENDPOINTS,
} satisfies EndpointTable;

export type Endpoints = typeof ENDPOINTS;
export type ContractKey = keyof Endpoints;
