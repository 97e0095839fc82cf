import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { alertEvidenceText } from "@/contract/alert-evidence-text";
import { AUDIT_MESSAGES } from "@/contract/audit";
import {
  REPORT_MESSAGES,
  SAR_CATEGORIES,
  SAR_FILING_TYPE_LABELS,
  SAR_ID_TYPE_LABELS,
  type SarDraft,
  type SarReport,
} from "@/contract/compliance";
import { centsToDecimal } from "@/contract/money";
import { RULE_LABELS, RULE_NAMES } from "@/contract/monitoring";
import type { Db } from "@/server/db/client";
import {
  accountRequests,
  chainDeposits,
  type complianceSarDetails,
  kycApplications,
  monitoringAlerts,
  transactions,
  transferRequests,
} from "@/server/db/schema";
import type { CaseActor } from "@/server/features/compliance/case-work";
import { findCaseRow, getCase } from "@/server/features/compliance/cases";
import { findSarRecord, findSubjectRecords, getSarDetails } from "@/server/features/compliance/sar-details";
import { writeAudit } from "@/server/lib/audit";
import { decryptField } from "@/server/lib/crypto";
import { AppError } from "@/server/lib/errors";
import type { FilingInstitution } from "@/server/lib/filing-institution";

type SarRecord = typeof complianceSarDetails.$inferSelect;

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
async function assembleSarDraft(db: Db, caseId: string, now: Date): Promise<SarDraft> {
  const detail = await getCase(db, caseId);
  const userId = detail.customer?.id ?? null;
  const { firstDetectedAt } = await findCaseRow(db, caseId);

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
    // Money in that alerts name; a payment by $tag sent (tag_out) names the payer's own debit, not money in: its
    // alert stays in the evidence with what it saw.
    const namedCredits = alerts
      .filter((a) => a.eventKind !== "transfer" && a.eventKind !== "tag_out")
      .map((a) => a.eventId);
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
    reportDueAt: detail.reportDueAt,
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
  return draft;
}

const institutionView = (i: FilingInstitution): SarReport["filingInstitution"] => ({
  name: i.name,
  ein: i.ein,
  address: `${i.street}, ${i.city}, ${i.state} ${i.zip}`,
  regulator: i.regulator,
  contactOffice: i.contactOffice,
  contactPhone: i.contactPhone,
});

async function assembleSarReport(
  db: Db,
  institution: FilingInstitution,
  caseId: string,
  now: Date,
): Promise<{ report: SarReport; record: SarRecord | null; kyc: SubjectKyc }> {
  const draft = await assembleSarDraft(db, caseId, now);
  const details = await getSarDetails(db, caseId);
  const record = await findSarRecord(db, caseId);
  const { kyc } = await findSubjectRecords(db, draft.subject?.id ?? null);
  const report: SarReport = {
    ...draft,
    filing: {
      filingType: details.filingType,
      filingTypeLabel: SAR_FILING_TYPE_LABELS[details.filingType],
      priorReportId: details.priorReportId,
      priorFiledOn: details.priorFiledOn,
      reviewOn: details.reviewOn,
      subjectIdentified: details.subjectIdentified,
      categories: details.categories.map((key) => ({ key, label: SAR_CATEGORIES[key].label })),
      otherCategory: details.otherCategory,
      missing: details.missing,
    },
    filingInstitution: institutionView(institution),
    subjectIdentity: draft.subject
      ? {
          ssnMasked: details.ssnMasked,
          phone: details.phone,
          occupation: details.occupation,
          idType: details.idType,
          idTypeLabel: details.idType
            ? details.idType === "other"
              ? (details.idOtherType ?? SAR_ID_TYPE_LABELS.other)
              : SAR_ID_TYPE_LABELS[details.idType]
            : null,
          idNumberMasked: details.idNumberMasked,
          idIssuerState: details.idIssuerState,
          idIssuerCountry: details.idIssuerCountry,
        }
      : null,
  };
  return { report, record, kyc };
}

type SubjectKyc = Awaited<ReturnType<typeof findSubjectRecords>>["kyc"];

function auditExport(db: Db, actor: CaseActor, report: SarReport, format: string, full: boolean) {
  return writeAudit(db, {
    actorId: actor.id,
    actorRole: actor.role,
    action: "compliance.case_report_exported",
    targetType: "compliance_case",
    targetId: report.caseId,
    subjectUserId: report.subject?.id ?? null,
    // The XML carries the full SSN and ID number: the row says so, so a reader of the log knows who saw them.
    after: { format, status: report.status, ...(full ? { unmasked: ["ssn", "idNumber"] } : {}) },
  });
}

/**
 * The SAR-style draft of a case (decision 032) with FinCEN's fields (decision 055): the subject as the identity
 * check recorded them (SSN masked), the transfers and the money in the evidence names (or, without any, all of it
 * since 30 days before first detection), the hits' and the monitoring alerts' evidence, related customers, the
 * narrative, the approved decision, the filing and the filing institution. Reading it is audited (staff-only).
 */
export async function buildSarDraft(
  db: Db,
  institution: FilingInstitution,
  actor: CaseActor,
  caseId: string,
  format: "json" | "pdf",
  now = new Date(),
): Promise<SarReport> {
  const { report } = await assembleSarReport(db, institution, caseId, now);
  await auditExport(db, actor, report, format, false);
  return report;
}

/** What the FinCEN XML needs beyond the draft: the SSN and ID number unsealed, the address in its parts. */
export interface SarExport {
  report: SarReport;
  institution: FilingInstitution;
  ssn: string | null;
  idNumber: string | null;
  record: SarRecord | null;
  address: { street: string; city: string; state: string; zip: string } | null;
}

/**
 * The SAR for FinCEN's batch XML: refused (409 sarNotReady, with what is missing) until categories, narrative
 * and occupation are recorded; otherwise the SSN and the ID number are unsealed and the export is audited as
 * unmasked before anything is answered.
 */
export async function buildSarExport(
  db: Db,
  dataKey: Buffer,
  institution: FilingInstitution,
  actor: CaseActor,
  caseId: string,
  now = new Date(),
): Promise<SarExport> {
  const { report, record, kyc } = await assembleSarReport(db, institution, caseId, now);
  if (report.filing.missing.length > 0) {
    throw new AppError("CONFLICT", `${REPORT_MESSAGES.sarNotReady}: ${report.filing.missing.join("; ")}`);
  }
  const unseal = (sealed: string | null | undefined) => {
    if (!sealed) return null;
    try {
      return decryptField(dataKey, sealed);
    } catch {
      throw new AppError("ssn_unreadable", AUDIT_MESSAGES.ssnUnreadable);
    }
  };
  const ssn = unseal(kyc?.ssnCiphertext)?.replace(/\D/g, "") ?? null;
  const idNumber = unseal(record?.idNumberCiphertext);
  await auditExport(db, actor, report, "xml", true);
  return {
    report,
    institution,
    ssn,
    idNumber,
    record,
    address: kyc ? { street: kyc.street, city: kyc.city, state: kyc.state, zip: kyc.zipCode } : null,
  };
}
