import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/server/db/client";
import { complianceCases, monitoringAlerts } from "@/server/db/schema";
import { openCaseFor } from "@/server/features/compliance/cases";
import type { MoneyEvent, RuleAlert } from "@/server/features/monitoring/rules";

const dedupeKey = (userId: string, rule: string, event: MoneyEvent) =>
  createHash("sha256").update([userId, rule, event.kind, event.id].join("\u0000")).digest("hex");

/**
 * Files a customer's alerts on their one open case (opened when there is none), in the caller's transaction.
 * The same rule on the same event never makes a second alert. Answers how many were new.
 */
export async function recordAlerts(
  tx: Tx,
  userId: string,
  event: MoneyEvent,
  alerts: RuleAlert[],
): Promise<number> {
  if (alerts.length === 0) return 0;
  const caseId = await openCaseFor(tx, userId);
  const inserted = await tx
    .insert(monitoringAlerts)
    .values(
      alerts.map((a) => ({
        caseId,
        userId,
        rule: a.rule,
        score: a.score,
        blocking: a.blocking,
        eventKind: event.kind,
        eventId: event.id,
        transferId: event.kind === "transfer" ? event.id : null,
        evidence: a.evidence,
        dedupeKey: dedupeKey(userId, a.rule, event),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: monitoringAlerts.id });
  await tx.update(complianceCases).set({ updatedAt: sql`now()` }).where(eq(complianceCases.id, caseId));
  return inserted.length;
}
