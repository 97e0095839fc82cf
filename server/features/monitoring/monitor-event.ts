import type { Tx } from "@/server/db/client";
import { loadMonitoringInput } from "@/server/features/monitoring/load-monitoring-input";
import { monitoringConfig } from "@/server/features/monitoring/monitoring-config";
import { recordAlerts } from "@/server/features/monitoring/record-alerts";
import { evaluateRules, type MoneyEvent } from "@/server/features/monitoring/rules";

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
