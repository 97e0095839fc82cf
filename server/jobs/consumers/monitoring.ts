import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows, type Tx } from "@/server/db/client";
import {
  loadMonitoringInputs,
  type MonitoringSubject,
} from "@/server/features/monitoring/load-monitoring-input";
import { monitoringConfig } from "@/server/features/monitoring/monitoring-config";
import { recordAlerts } from "@/server/features/monitoring/record-alerts";
import {
  evaluateRules,
  type MonitoringInput,
  newDeviceAlertAt,
  newDeviceRuleAtRequest,
  type RuleAlert,
} from "@/server/features/monitoring/rules";
import type { Consumer, JobEvent } from "@/server/jobs/consumer";
import { TRANSFER_REQUESTED, transferRequests } from "@/server/jobs/consumers/transfer-events";

/** The kind pay_by_tag writes once per payment by $tag or money request paid (pay-by-tag.sql). */
const TAG_PAYMENT_MADE = "tag_payment.made";
const tagPaymentMade = z.object({
  payment_id: z.guid(),
  payer_id: z.guid(),
  payee_id: z.guid(),
  amount_cents: z.number().int().positive(),
  money_request_id: z.guid().nullable(),
});

/**
 * Both sides of each payment by $tag of the batch, as the rules judge them (decision 054): the payer's tag_out and
 * the payee's tag_in, each named by that customer's own transaction (what the SAR lists), at the payment's time,
 * read in one statement by the payments' ids.
 */
async function tagPaymentSubjects(tx: Tx, events: JobEvent[]): Promise<Map<string, MonitoringSubject[]>> {
  const payments = events.flatMap((e) =>
    e.kind === TAG_PAYMENT_MADE ? [{ eventId: e.id, ...tagPaymentMade.parse(e.payload) }] : [],
  );
  if (payments.length === 0) return new Map();
  const rows = await queryRows(
    tx,
    sql`select id, payer_transaction_id, payee_transaction_id, created_at from tag_payments
        where id = any(${`{${payments.map((p) => p.payment_id).join(",")}}`}::uuid[])`,
    z.object({
      id: z.string(),
      payer_transaction_id: z.string(),
      payee_transaction_id: z.string(),
      created_at: z.string(),
    }),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const subjects = new Map<string, MonitoringSubject[]>();
  for (const p of payments) {
    const row = byId.get(p.payment_id);
    if (!row) continue;
    const at = new Date(row.created_at).getTime();
    const channel = p.money_request_id ? ("request" as const) : ("direct" as const);
    const common = { at, amountCents: p.amount_cents, address: null, channel };
    subjects.set(p.eventId, [
      {
        userId: p.payer_id,
        event: { ...common, kind: "tag_out", id: row.payer_transaction_id, counterparty: p.payee_id },
      },
      {
        userId: p.payee_id,
        event: { ...common, kind: "tag_in", id: row.payee_transaction_id, counterparty: p.payer_id },
      },
    ]);
  }
  return subjects;
}

/**
 * Transaction monitoring after the commit (decisions 049 and 054): the rules that do not block are judged
 * for a batch of transfer.requested and tag_payment.made events at once (three reads for the batch,
 * loadMonitoringInputs), a payment by $tag on both sides (the payer's money out, the payee's money in, whether paid
 * by tag or as a money request), and every alert is filed on the customer's case, including the new-device rule's
 * when create_transfer_request held the transfer with it (its decision, read from the event, is filed as made: the
 * rule is not judged twice). Events are judged in commit order, each seeing the alerts the earlier ones of the batch
 * raised (their cooldown).
 */
export const monitoringConsumer: Consumer = {
  name: "monitoring",
  kinds: [TRANSFER_REQUESTED, TAG_PAYMENT_MADE],
  batchSize: 100,
  async handle(tx, events) {
    const transfers = new Map(transferRequests(events).map((t) => [t.eventId, t]));
    const tagged = await tagPaymentSubjects(tx, events);
    const subjects: (MonitoringSubject & { newDeviceAt: string | null })[] = [];
    for (const e of events) {
      const t = transfers.get(e.id);
      if (t) {
        subjects.push({
          userId: t.userId,
          event: {
            kind: "transfer",
            id: t.transfer_id,
            at: Date.parse(t.created_at),
            amountCents: t.amount_cents,
            address: t.crypto_address.toLowerCase(),
            channel: t.channel ?? "direct",
          },
          newDeviceAt: t.new_device_at,
        });
      }
      for (const s of tagged.get(e.id) ?? []) subjects.push({ ...s, newDeviceAt: null });
    }
    if (subjects.length === 0) return;
    const config = monitoringConfig();
    const decidedAtRequest = newDeviceRuleAtRequest(config) ? (["new_device_new_address"] as const) : [];
    const inputs = await loadMonitoringInputs(tx, subjects, config);
    const raised = new Map<string, MonitoringInput["recentAlerts"]>();
    for (const [i, subject] of subjects.entries()) {
      const input = inputs[i]!;
      input.recentAlerts.push(...(raised.get(subject.userId) ?? []));
      // The transfer function decided the blocking rule for transfers; a payment by $tag is judged here.
      const alerts: RuleAlert[] = evaluateRules(
        input,
        config,
        input.event.kind === "transfer" ? decidedAtRequest : [],
      );
      if (subject.newDeviceAt) {
        alerts.push(newDeviceAlertAt(input.event, Date.parse(subject.newDeviceAt), config));
      }
      if (alerts.length === 0) continue;
      await recordAlerts(tx, subject.userId, input.event, alerts);
      raised.set(subject.userId, [
        ...(raised.get(subject.userId) ?? []),
        ...alerts.map((a) => ({ rule: a.rule, at: input.event.at })),
      ]);
    }
  },
};
