import { ADMIN_ENDPOINTS } from "@/contract/admin";
import { KYC_ADMIN_ENDPOINTS } from "@/contract/admin-onboarding";
import { APPROVALS_ENDPOINTS } from "@/contract/approvals";
import { AUDIT_ENDPOINTS, DATA_ACCESS_ENDPOINTS } from "@/contract/audit";
import { AUTH_ENDPOINTS } from "@/contract/auth";
import { CHAT_ADMIN_ENDPOINTS, CHAT_ENDPOINTS } from "@/contract/chat";
import { CLOSURE_ADMIN_ENDPOINTS, CLOSURE_ENDPOINTS } from "@/contract/closure";
import { COMPLIANCE_ENDPOINTS } from "@/contract/compliance";
import { CREDITS_ADMIN_ENDPOINTS } from "@/contract/credits";
import { DASHBOARD_CONTENT_ADMIN_ENDPOINTS, DASHBOARD_CONTENT_ENDPOINTS } from "@/contract/dashboard-content";
import type { EndpointTable } from "@/contract/endpoint";
import { EVENTS_ENDPOINTS } from "@/contract/events";
import { KYC_ENDPOINTS } from "@/contract/kyc";
import { MONEY_REQUEST_ENDPOINTS } from "@/contract/money-requests";
import { MONITORING_ENDPOINTS } from "@/contract/monitoring";
import { NOTIFICATION_ENDPOINTS } from "@/contract/notifications";
import { PASSKEY_ENDPOINTS } from "@/contract/passkeys";
import { RECIPIENT_ENDPOINTS } from "@/contract/recipients";
import { SAVINGS_ENDPOINTS } from "@/contract/savings";
import { SAVINGS_ADMIN_ENDPOINTS } from "@/contract/savings-admin";
import { SCHEDULE_ENDPOINTS } from "@/contract/schedules";
import { ACCOUNT_SECURITY_ENDPOINTS, LOGIN_ENDPOINTS, SECOND_FACTOR_ENDPOINTS } from "@/contract/security";
import { SELF_LIMITS_ENDPOINTS } from "@/contract/self-limits";
import { SETTLEMENT_ADMIN_ENDPOINTS, SETTLEMENT_ENDPOINTS } from "@/contract/settlement";
import { STAFF_ENDPOINTS } from "@/contract/staff";
import { STATEMENTS_ENDPOINTS } from "@/contract/statements";
import { TAG_PAYMENT_ENDPOINTS } from "@/contract/tag-payments";
import { TAX_FORM_ADMIN_ENDPOINTS } from "@/contract/tax-forms";
import { ACCOUNTS_ENDPOINTS } from "@/contract/transactions";
import { TRANSFER_ENDPOINTS, TRANSFER_RECEIPT_ENDPOINTS } from "@/contract/transfers";
import { TRANSFER_ADMIN_ENDPOINTS } from "@/contract/transfers-admin";
import { TREASURY_ENDPOINTS } from "@/contract/treasury";

/**
 * Every endpoint declared with a contract (decision 075), by the area that serves it (server/features/<area>) and
 * by `METHOD /path`. The server registers each area's tables in that area; what is generated and checked from
 * them reads this: the staff role table (contract/admin-route-roles.generated.ts), the error codes OpenAPI
 * documents, the abuse catalogue's access, docs/endpoints.md and the web client's types (callEndpoint in
 * web/lib/api.ts, types only: no schema reaches the bundle).
 */
export const ENDPOINTS_BY_AREA = {
  accounts: ACCOUNTS_ENDPOINTS,
  admin: ADMIN_ENDPOINTS,
  approvals: APPROVALS_ENDPOINTS,
  audit: { ...AUDIT_ENDPOINTS, ...DATA_ACCESS_ENDPOINTS },
  auth: { ...AUTH_ENDPOINTS, ...LOGIN_ENDPOINTS, ...PASSKEY_ENDPOINTS, ...SECOND_FACTOR_ENDPOINTS },
  chat: { ...CHAT_ENDPOINTS, ...CHAT_ADMIN_ENDPOINTS },
  closure: { ...CLOSURE_ENDPOINTS, ...CLOSURE_ADMIN_ENDPOINTS },
  compliance: COMPLIANCE_ENDPOINTS,
  content: { ...DASHBOARD_CONTENT_ENDPOINTS, ...DASHBOARD_CONTENT_ADMIN_ENDPOINTS },
  credits: CREDITS_ADMIN_ENDPOINTS,
  events: EVENTS_ENDPOINTS,
  kyc: { ...KYC_ENDPOINTS, ...KYC_ADMIN_ENDPOINTS },
  monitoring: MONITORING_ENDPOINTS,
  notifications: NOTIFICATION_ENDPOINTS,
  recipients: RECIPIENT_ENDPOINTS,
  savings: { ...SAVINGS_ENDPOINTS, ...SAVINGS_ADMIN_ENDPOINTS },
  schedules: SCHEDULE_ENDPOINTS,
  security: ACCOUNT_SECURITY_ENDPOINTS,
  settlement: { ...SETTLEMENT_ENDPOINTS, ...SETTLEMENT_ADMIN_ENDPOINTS, ...TREASURY_ENDPOINTS },
  staff: STAFF_ENDPOINTS,
  statements: { ...STATEMENTS_ENDPOINTS, ...TAX_FORM_ADMIN_ENDPOINTS },
  "tag-payments": { ...TAG_PAYMENT_ENDPOINTS, ...MONEY_REQUEST_ENDPOINTS },
  transfers: {
    ...TRANSFER_ENDPOINTS,
    ...TRANSFER_RECEIPT_ENDPOINTS,
    ...TRANSFER_ADMIN_ENDPOINTS,
    ...SELF_LIMITS_ENDPOINTS,
  },
} as const satisfies Record<string, EndpointTable>;

type ByArea = typeof ENDPOINTS_BY_AREA;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

export type Endpoints = UnionToIntersection<ByArea[keyof ByArea]>;
export type ContractKey = keyof Endpoints & string;

/** Every area's endpoints in one table. */
export const ENDPOINTS: Endpoints = Object.assign({}, ...Object.values(ENDPOINTS_BY_AREA));
