import type { Db, Tx } from "@/server/db/client";
import { loadMonitoringInput } from "@/server/features/monitoring/load-monitoring-input";
import { monitoringConfig } from "@/server/features/monitoring/monitoring-config";
import { recordAlerts } from "@/server/features/monitoring/record-alerts";
import { evaluateRules, type MoneyEvent, type RuleAlert } from "@/server/features/monitoring/rules";

function reportFailure(event: MoneyEvent, err: unknown) {
  // No logger reaches the money code that calls this; a failure must be seen (tests fail on console.error).
  console.error(`transaction monitoring failed on ${event.kind} ${event.id}:`, err);
}

/**
 * Money in (a completed credit or a credited deposit): the rules run in the crediting transaction, inside a
 * savepoint, so the alerts commit with the credit and are never lost, and a rule that fails rolls back only
 * its savepoint: the credit goes through whatever monitoring does. Money already in is not held back; a
 * blocking alert holds the customer's money out from then on.
 */
export async function monitorMoneyIn(
  tx: Tx,
  userId: string,
  event: { kind: "credit" | "deposit"; id: string; amountCents: number },
): Promise<void> {
  const money: MoneyEvent = { ...event, at: Date.now(), address: null };
  try {
    await tx.transaction(async (sp) => {
      const config = monitoringConfig();
      const alerts = evaluateRules(await loadMonitoringInput(sp, userId, money, config), config);
      await recordAlerts(sp, userId, money, alerts);
    });
  } catch (err) {
    reportFailure(money, err);
  }
}

export interface TransferMonitoring {
  event: MoneyEvent;
  alerts: RuleAlert[];
  /** A blocking alert: the transfer waits under review like a sanctions hit. */
  blocking: boolean;
}

/**
 * A transfer about to be made: the rules run before its transaction (it stays the one call it is), and what
 * they raise is filed in that transaction by `fileTransferAlerts`. A failure to evaluate lets the transfer
 * through unmonitored rather than refusing the customer's money, and is reported.
 */
export async function evaluateTransfer(
  db: Db,
  userId: string,
  transfer: { id: string; amountCents: number; address: string; at: Date },
): Promise<TransferMonitoring> {
  const event: MoneyEvent = {
    kind: "transfer",
    id: transfer.id,
    amountCents: transfer.amountCents,
    address: transfer.address.toLowerCase(),
    at: transfer.at.getTime(),
  };
  try {
    const config = monitoringConfig();
    const alerts = evaluateRules(await loadMonitoringInput(db, userId, event, config), config);
    return { event, alerts, blocking: alerts.some((a) => a.blocking) };
  } catch (err) {
    reportFailure(event, err);
    return { event, alerts: [], blocking: false };
  }
}

/**
 * Files a transfer's alerts in its own transaction. Blocking ones are filed as part of it (the transfer never
 * exists unheld without its case); the others in a savepoint whose failure is reported, not passed on.
 */
export async function fileTransferAlerts(
  tx: Tx,
  userId: string,
  monitoring: TransferMonitoring,
): Promise<void> {
  const blocking = monitoring.alerts.filter((a) => a.blocking);
  const others = monitoring.alerts.filter((a) => !a.blocking);
  if (blocking.length > 0) await recordAlerts(tx, userId, monitoring.event, blocking);
  if (others.length === 0) return;
  try {
    await tx.transaction((sp) => recordAlerts(sp, userId, monitoring.event, others));
  } catch (err) {
    reportFailure(monitoring.event, err);
  }
}

/** Non-blocking alerts of a transfer already committed, in their own transaction; a failure is reported. */
export async function fileAlertsAfterTransfer(
  db: Db,
  userId: string,
  monitoring: TransferMonitoring,
): Promise<void> {
  if (monitoring.alerts.length === 0) return;
  try {
    await db.transaction((tx) => recordAlerts(tx, userId, monitoring.event, monitoring.alerts));
  } catch (err) {
    reportFailure(monitoring.event, err);
  }
}
