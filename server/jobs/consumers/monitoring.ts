import { loadMonitoringInputs } from "@/server/features/monitoring/load-monitoring-input";
import { monitoringConfig } from "@/server/features/monitoring/monitoring-config";
import { recordAlerts } from "@/server/features/monitoring/record-alerts";
import {
  evaluateRules,
  type MoneyEvent,
  type MonitoringInput,
  newDeviceAlertAt,
  newDeviceRuleAtRequest,
} from "@/server/features/monitoring/rules";
import type { Consumer } from "@/server/jobs/consumer";
import { TRANSFER_REQUESTED, transferRequests } from "@/server/jobs/consumers/transfer-events";

/**
 * Transaction monitoring of transfers after their commit (issue 49, decision 049): the rules that do not block are
 * judged for a batch of transfer.requested events at once (three reads for the batch, loadMonitoringInputs), and
 * every alert is filed on the customer's case, including the new-device rule's when create_transfer_request held
 * the transfer with it (its decision, read from the event, is filed as made: the rule is not judged twice). Events
 * are judged in commit order, each seeing the alerts the earlier ones of the batch raised (their cooldown).
 */
export const monitoringConsumer: Consumer = {
  name: "monitoring",
  kinds: [TRANSFER_REQUESTED],
  batchSize: 100,
  async handle(tx, events) {
    const transfers = transferRequests(events);
    if (transfers.length === 0) return;
    const config = monitoringConfig();
    const decidedAtRequest = newDeviceRuleAtRequest(config) ? (["new_device_new_address"] as const) : [];
    const subjects = transfers.map((t) => ({
      userId: t.userId,
      event: {
        kind: "transfer",
        id: t.transfer_id,
        at: Date.parse(t.created_at),
        amountCents: t.amount_cents,
        address: t.crypto_address.toLowerCase(),
      } satisfies MoneyEvent,
    }));
    const inputs = await loadMonitoringInputs(tx, subjects, config);
    const raised = new Map<string, MonitoringInput["recentAlerts"]>();
    for (const [i, transfer] of transfers.entries()) {
      const input = inputs[i]!;
      input.recentAlerts.push(...(raised.get(transfer.userId) ?? []));
      const alerts = evaluateRules(input, config, decidedAtRequest);
      if (transfer.new_device_at) {
        alerts.push(newDeviceAlertAt(input.event, Date.parse(transfer.new_device_at), config));
      }
      if (alerts.length === 0) continue;
      await recordAlerts(tx, transfer.userId, input.event, alerts);
      raised.set(transfer.userId, [
        ...(raised.get(transfer.userId) ?? []),
        ...alerts.map((a) => ({ rule: a.rule, at: input.event.at })),
      ]);
    }
  },
};
