import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { SarDraft } from "@/contract/compliance";
import { centsToDecimal } from "@/contract/money";
import type { Db } from "@/server/db/client";
import { accountRequests, kycApplications, transferRequests } from "@/server/db/schema";
import type { CaseActor } from "@/server/features/compliance/case-work";
import { getCase, reportDueAt } from "@/server/features/compliance/cases";
import { writeAudit } from "@/server/lib/audit";

/**
 * The SAR-style draft of a case (decision 032): the subject as the identity check recorded them, the transfers
 * the evidence names (or, without any, every transfer since 30 days before first detection), the hits'
 * evidence, related customers, the narrative and the approved decision. Reading it is audited (staff-only).
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
      ...new Set(detail.hits.map((h) => h.transferId).filter((id): id is string => id !== null)),
    ];
    transfers = await db
      .select()
      .from(transferRequests)
      .where(
        named.length > 0
          ? and(eq(transferRequests.userId, userId), inArray(transferRequests.id, named))
          : and(
              eq(transferRequests.userId, userId),
              sql`${transferRequests.createdAt} >= ${firstDetectedAt.toISOString()}::timestamptz - interval '30 days'`,
            ),
      )
      .orderBy(desc(transferRequests.createdAt))
      .limit(500);
  }
  const times = transfers.map((t) => t.createdAt.getTime());
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
    },
    evidence: detail.hits.map((h) => ({
      kind: "sanctions_hit" as const,
      detectedAt: h.createdAt,
      screeningPoint: h.screeningPoint,
      subject: h.subject,
      matched: h.matched,
      score: h.score,
      list: `${h.listSource} #${h.entNum} (${h.programs || "no program"}), list version ${h.listVersion}`,
    })),
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
