import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { pageOf, pageQuery } from "@/contract/pages";

/** The transaction-monitoring rules (decisions 031 and 054); server/features/monitoring/rules.ts holds them. */
export const RULE_NAMES = [
  "structuring",
  "velocity",
  "first_large_new_address",
  "rapid_in_out",
  "new_device_new_address",
  "dormant_reactivated",
  "many_to_one_address",
  "fan_out",
  "incoming_burst",
] as const;
export type RuleName = (typeof RULE_NAMES)[number];

/** What compliance reads for each rule. */
export const RULE_LABELS: Record<RuleName, string> = {
  structuring: "Structuring just under a limit",
  velocity: "Money out far above the customer's usual",
  first_large_new_address: "First large transfer to a new address",
  rapid_in_out: "Money in, then quickly out",
  new_device_new_address: "New device, then a transfer to a new address",
  dormant_reactivated: "Dormant account suddenly active",
  many_to_one_address: "Many customers paying one address",
  fan_out: "Money out to many new payees in a short time",
  incoming_burst: "Many payments in within a short time",
};

/**
 * The money events the rules judge: credit (money in from a bank or staff), deposit (USDC received on chain),
 * transfer (USDC sent out), tag_out / tag_in (a payment by $tag, the payer's and the payee's side).
 */
export const MONEY_EVENT_KINDS = ["credit", "deposit", "transfer", "tag_out", "tag_in"] as const;
export type MoneyEventKind = (typeof MONEY_EVENT_KINDS)[number];

export const MONITORING_MESSAGES = {
  alertNotFound: "Alert not found",
  unknownRule: "Unknown rule",
} as const;

export const monitoringAlert = z.object({
  id: z.string(),
  caseId: z.string(),
  rule: z.enum(RULE_NAMES),
  score: z.number(),
  blocking: z.boolean(),
  eventKind: z.enum(MONEY_EVENT_KINDS),
  eventId: z.string(),
  transferId: z.string().nullable(),
  evidence: z.record(z.string(), z.unknown()),
  customer: z
    .object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() })
    .nullable(),
  createdAt: z.string(),
});
export type MonitoringAlert = z.infer<typeof monitoringAlert>;
export const monitoringAlertPage = pageOf(monitoringAlert);

/** GET /api/admin/monitoring/alerts: newest first; ?rule= and ?caseId= narrow it, ?q= searches the customer. */
export const alertsQuery = pageQuery.extend({
  rule: z.enum(RULE_NAMES, { error: MONITORING_MESSAGES.unknownRule }).optional(),
  caseId: z.uuid({ error: "caseId must be a case's id" }).optional(),
});
export type AlertsQuery = z.infer<typeof alertsQuery>;

export const alertIdParams = z.object({ id: z.uuid({ error: MONITORING_MESSAGES.alertNotFound }) });

/** Transaction-monitoring alerts (decision 031): compliance's, like the cases they are filed on. */
export const MONITORING_ENDPOINTS = endpoints({
  "GET /api/admin/monitoring/alerts": {
    access: ["compliance"],
    query: alertsQuery,
    replies: { 200: monitoringAlertPage },
  },
  "GET /api/admin/monitoring/alerts/:id": {
    access: ["compliance"],
    params: alertIdParams,
    replies: { 200: monitoringAlert },
    errors: ["NOT_FOUND"],
  },
});
