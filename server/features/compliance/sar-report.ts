import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { alertEvidenceText } from "@/contract/alert-evidence-text";
import type { SarDraft } from "@/contract/compliance";
import { centsToDecimal } from "@/contract/money";
import { RULE_LABELS, RULE_NAMES } from "@/contract/monitoring";
import type { Db } from "@/server/db/client";
import {
  accountRequests,
  chainDeposits,
  kycApplications,
  monitoringAlerts,
  transactions,
  transferRequests,
} from "@/server/db/schema";
import type { CaseActor } from "@/server/features/compliance/case-work";
import { getCase, reportDueAt } from "@/server/features/compliance/cases";
import { writeAudit } from "@/server/lib/audit";

type Evidence = SarDraft["evidence"][number];

/** The case's monitoring alerts as SAR evidence: the rule, its score and what it saw (decision 039). */
async function alertEvidence(
  db: Db,
  caseId: string,
): Promise<Extract<Evidence, { kind: "monitoring_alert" }>[]> {
  const alerts = await db
    .select()
    .from(monitoringAlerts)
    .where(eq(monitoringAlerts.caseId, caseId))
    .orderBy(asc(monitoringAlerts.createdAt), asc(monitoringAlerts.id))
    .limit(500);
  return alerts.map((a) => {
    const rule = RULE_NAMES.find((r) => r === a.rule) ?? RULE_NAMES[0];
    return {
      kind: "monitoring_alert" as const,
      detectedAt: a.createdAt.toISOString(),
      alertId: a.id,
      rule,
      ruleLabel: RULE_LABELS[rule],
      score: a.score,
      blocking: a.blocking,
      eventKind: a.eventKind,
      eventId: a.eventId,
      details: a.evidence,
      summary: alertEvidenceText(a.evidence),
    };
  });
}

/**
 * The SAR-style draft of a case (decision 032): the subject as the identity check recorded them, the transfers
 * and the money in the evidence names (or, without any, all of it since 30 days before first detection), the
 * hits' and the monitoring alerts' evidence, related customers, the narrative and the approved decision. Reading
 * it is audited (staff-only).
 */
export async function buildSarDraft(
  db: Db,
  actor: CaseActor,
  caseId: string,
  format: "json" | "pdf",
  now = new Date(),
): Promise<SarDraft> {
  const detail = await getCase(db, caseId);
  const userId = detail.customer?.id ?? null;
  const firstDetectedAt = new Date(new Date(detail.reportDueAt).getTime() - 30 * 24 * 60 * 60 * 1000);

  let subject: SarDraft["subject"] = null;
  let transfers: (typeof transferRequests.$inferSelect)[] = [];
  let moneyIn: (typeof transactions.$inferSelect)[] = [];
  const alerts = await alertEvidence(db, caseId);
  if (userId && detail.customer) {
    const [kyc] = await db
      .select({ dateOfBirth: kycApplications.dateOfBirth, address: kycApplications.address })
      .from(kycApplications)
      .where(and(eq(kycApplications.userId, userId), isNull(kycApplications.supersededAt)));
    const [account] = await db
      .select({ accountNumber: accountRequests.accountNumber })
      .from(accountRequests)
      .where(and(eq(accountRequests.userId, userId), isNull(accountRequests.supersededAt)));
    subject = {
      id: userId,
      firstName: detail.customer.firstName,
      lastName: detail.customer.lastName,
      email: detail.customer.email,
      dateOfBirth: kyc?.dateOfBirth ?? null,
      address: kyc?.address ?? null,
      accountNumber: account?.accountNumber ?? null,
    };
    const named = [
      ...new Set(
        [
          ...detail.hits.map((h) => h.transferId),
          ...alerts.map((a) => (a.eventKind === "transfer" ? a.eventId : null)),
        ].filter((id): id is string => id !== null),
      ),
    ];
    const namedCredits = alerts.filter((a) => a.eventKind !== "transfer").map((a) => a.eventId);
    const namedDeposits = detail.hits.map((h) => h.depositId).filter((id): id is string => id !== null);
    const anyNamed = named.length + namedCredits.length + namedDeposits.length > 0;
    const since = sql`${firstDetectedAt.toISOString()}::timestamptz - interval '30 days'`;
    // Evidence that names money events reports those; evidence that names none, the period's.
    transfers =
      anyNamed && named.length === 0
        ? []
        : await db
            .select()
            .from(transferRequests)
            .where(
              and(
                eq(transferRequests.userId, userId),
                anyNamed
                  ? inArray(transferRequests.id, named)
                  : sql`${transferRequests.createdAt} >= ${since}`,
              ),
            )
            .orderBy(desc(transferRequests.createdAt))
            .limit(500);
    const depositCredits = namedDeposits.length
      ? await db
          .select({ id: chainDeposits.transactionId })
          .from(chainDeposits)
          .where(inArray(chainDeposits.id, namedDeposits))
      : [];
    const creditIds = [
      ...new Set([...namedCredits, ...depositCredits.map((d) => d.id).filter((id): id is string => !!id)]),
    ];
    moneyIn =
      anyNamed && creditIds.length === 0
        ? []
        : await db
            .select()
            .from(transactions)
            .where(
              and(
                eq(transactions.userId, userId),
                anyNamed
                  ? inArray(transactions.id, creditIds)
                  : and(
                      inArray(transactions.type, ["credit", "incoming_payment"]),
                      sql`${transactions.createdAt} >= ${since}`,
                    ),
              ),
            )
            .orderBy(desc(transactions.createdAt))
            .limit(500);
  }
  const times = [...transfers, ...moneyIn].map((t) => t.createdAt.getTime());
  const approved = detail.decisions.find((d) => d.status === "approved");
  const draft: SarDraft = {
    caseId: detail.id,
    status: detail.status,
    filed: detail.status === "filed",
    generatedAt: now.toISOString(),
    firstDetectedAt: firstDetectedAt.toISOString(),
    reportDueAt: reportDueAt(firstDetectedAt).toISOString(),
    subject,
    activity: {
      from: times.length ? new Date(Math.min(...times)).toISOString() : null,
      to: times.length ? new Date(Math.max(...times)).toISOString() : null,
      totalAmount: centsToDecimal(transfers.reduce((sum, t) => sum + t.amount, 0)),
      transfers: transfers.map((t) => ({
        id: t.id,
        createdAt: t.createdAt.toISOString(),
        amount: centsToDecimal(t.amount),
        status: t.status,
        recipientName: t.recipientName,
        cryptoAddress: t.cryptoAddress,
      })),
      moneyInTotal: centsToDecimal(moneyIn.reduce((sum, t) => sum + t.amount, 0)),
      moneyIn: moneyIn.map((t) => ({
        id: t.id,
        createdAt: t.createdAt.toISOString(),
        amount: centsToDecimal(t.amount),
        status: t.status,
        description: t.description,
      })),
    },
    evidence: [
      ...detail.hits.map((h) => ({
        kind: "sanctions_hit" as const,
        detectedAt: h.createdAt,
        screeningPoint: h.screeningPoint,
        subject: h.subject,
        matched: h.matched,
        score: h.score,
        list: `${h.listSource} #${h.entNum} (${h.programs || "no program"}), list version ${h.listVersion}`,
      })),
      ...alerts,
    ].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt)),
    relatedCustomers: detail.links.map((l) => ({ id: l.customer.id, email: l.customer.email, note: l.note })),
    narrative: detail.narrative,
    decision: approved
      ? {
          maker: approved.maker?.email ?? null,
          checker: approved.checker?.email ?? null,
          note: approved.note,
          decidedAt: approved.decidedAt ?? now.toISOString(),
        }
      : null,
  };
  await writeAudit(db, {
    actorId: actor.id,
    actorRole: actor.role,
    action: "compliance.case_report_exported",
    targetType: "compliance_case",
    targetId: caseId,
    subjectUserId: userId,
    after: { format, status: detail.status },
  });
  return draft;
}
