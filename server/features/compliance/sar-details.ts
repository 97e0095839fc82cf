import { and, eq, isNull, sql } from "drizzle-orm";
import {
  COMPLIANCE_MESSAGES,
  REPORT_MESSAGES,
  SAR_CATEGORY_KEYS,
  type SarCategory,
  type SarDetails,
  type SarDetailsResponse,
  sarClock,
  type sarDetailsInput,
} from "@/contract/compliance";
import { maskSsn } from "@/contract/kyc";
import type { Db, DbOrTx } from "@/server/db/client";
import { complianceCases, complianceSarDetails, kycApplications, users } from "@/server/db/schema";
import type { CaseActor } from "@/server/features/compliance/case-work";
import { findCaseRow } from "@/server/features/compliance/cases";
import { writeAudit } from "@/server/lib/audit";
import { encryptField } from "@/server/lib/crypto";
import { AppError } from "@/server/lib/errors";

type SarRecord = typeof complianceSarDetails.$inferSelect;
type SarInput = ReturnType<typeof sarDetailsInput.parse>;

/** A case with nothing recorded yet reads as an initial report on an identified subject. */
const EMPTY: Omit<SarRecord, "caseId" | "updatedAt" | "updatedBy"> = {
  filingType: "initial",
  priorReportId: null,
  priorFiledOn: null,
  subjectIdentified: true,
  categories: [],
  otherCategory: null,
  idType: null,
  idOtherType: null,
  idNumberCiphertext: null,
  idNumberLast4: null,
  idIssuerState: null,
  idIssuerCountry: null,
  occupation: null,
};

export async function findSarRecord(db: DbOrTx, caseId: string): Promise<SarRecord | null> {
  const [row] = await db.select().from(complianceSarDetails).where(eq(complianceSarDetails.caseId, caseId));
  return row ?? null;
}

/** What the subject's identity check and profile hold for the SAR: the SSN sealed, the phone. */
export async function findSubjectRecords(db: DbOrTx, userId: string | null) {
  if (!userId) return { kyc: null, phone: null };
  const [kyc] = await db
    .select({
      id: kycApplications.id,
      ssnCiphertext: kycApplications.ssnCiphertext,
      ssnLast4: kycApplications.ssnLast4,
      dateOfBirth: kycApplications.dateOfBirth,
      street: kycApplications.street,
      city: kycApplications.city,
      state: kycApplications.state,
      zipCode: kycApplications.zipCode,
      address: kycApplications.address,
      accountType: kycApplications.accountType,
      companyName: kycApplications.companyName,
    })
    .from(kycApplications)
    .where(and(eq(kycApplications.userId, userId), isNull(kycApplications.supersededAt)));
  const [user] = await db.select({ phone: users.phoneNumber }).from(users).where(eq(users.id, userId));
  return { kyc: kyc ?? null, phone: user?.phone ?? null };
}

/** FinCEN's names for what an export still lacks (the XML is refused until the list is empty). */
export function missingForExport(
  record: Omit<SarRecord, "caseId" | "updatedAt" | "updatedBy">,
  subject: { hasCustomer: boolean; narrative: string },
): string[] {
  const missing: string[] = [];
  if (record.categories.length === 0) missing.push("Suspicious activity categories (Part II)");
  if (subject.narrative.trim().length === 0) missing.push("Narrative (Part V)");
  if (subject.hasCustomer && record.subjectIdentified && !record.occupation) {
    missing.push("Subject's occupation or type of business (item 12)");
  }
  return missing;
}

export async function getSarDetails(db: DbOrTx, caseId: string): Promise<SarDetails> {
  const row = await findCaseRow(db, caseId);
  const stored = await findSarRecord(db, caseId);
  const record = stored ?? { ...EMPTY };
  const { kyc, phone } = await findSubjectRecords(db, row.userId);
  const clock = sarClock({
    firstDetectedAt: row.firstDetectedAt,
    subjectIdentified: record.subjectIdentified,
    filingType: record.filingType,
    priorFiledOn: record.priorFiledOn,
  });
  const [updater] = stored?.updatedBy
    ? await db.select({ email: users.email }).from(users).where(eq(users.id, stored.updatedBy))
    : [];
  return {
    filingType: record.filingType,
    priorReportId: record.priorReportId,
    priorFiledOn: record.priorFiledOn,
    subjectIdentified: record.subjectIdentified,
    categories: record.categories.filter((c): c is SarCategory =>
      (SAR_CATEGORY_KEYS as readonly string[]).includes(c),
    ),
    otherCategory: record.otherCategory,
    idType: record.idType,
    idOtherType: record.idOtherType,
    idNumberMasked: record.idNumberLast4 ? `****${record.idNumberLast4}` : null,
    idIssuerState: record.idIssuerState,
    idIssuerCountry: record.idIssuerCountry,
    occupation: record.occupation,
    ssnMasked: kyc ? maskSsn(kyc.ssnLast4) : null,
    phone,
    reviewOn: clock.reviewOn,
    reportDueAt: clock.dueAt.toISOString(),
    missing: missingForExport(record, { hasCustomer: row.userId !== null, narrative: row.narrative }),
    updatedAt: stored?.updatedAt.toISOString() ?? null,
    updatedBy: updater?.email ?? null,
  };
}

/**
 * Records the SAR's fields on an open case (a decided case's report is what was filed; a continuing or corrected
 * report is a new case naming it). The ID number is sealed under DATA_KEY; the audit row keeps its last four.
 */
export async function saveSarDetails(
  db: Db,
  dataKey: Buffer,
  actor: CaseActor,
  caseId: string,
  input: SarInput,
): Promise<SarDetailsResponse> {
  await db.transaction(async (tx) => {
    const [kase] = await tx
      .select({ id: complianceCases.id, status: complianceCases.status, userId: complianceCases.userId })
      .from(complianceCases)
      .where(eq(complianceCases.id, caseId))
      .for("update");
    if (!kase) throw new AppError("NOT_FOUND", COMPLIANCE_MESSAGES.caseNotFound);
    if (kase.status !== "open") throw new AppError("case_decided", COMPLIANCE_MESSAGES.caseDecided);
    const before = await findSarRecord(tx, caseId);
    const idNumber =
      input.idNumber === undefined
        ? {
            idNumberCiphertext: before?.idNumberCiphertext ?? null,
            idNumberLast4: before?.idNumberLast4 ?? null,
          }
        : input.idNumber === null
          ? { idNumberCiphertext: null, idNumberLast4: null }
          : {
              idNumberCiphertext: encryptField(dataKey, input.idNumber),
              idNumberLast4: input.idNumber.slice(-4),
            };
    if (input.idType === null && idNumber.idNumberCiphertext) {
      throw new AppError("VALIDATION", REPORT_MESSAGES.idTypeRequired, { field: "idType" });
    }
    const values = {
      filingType: input.filingType,
      priorReportId: input.priorReportId,
      priorFiledOn: input.filingType === "initial" ? null : input.priorFiledOn,
      subjectIdentified: input.subjectIdentified,
      categories: input.categories,
      otherCategory: input.otherCategory,
      idType: input.idType,
      idOtherType: input.idOtherType,
      ...idNumber,
      idIssuerState: input.idIssuerState,
      idIssuerCountry: input.idIssuerCountry,
      occupation: input.occupation,
      updatedBy: actor.id,
      updatedAt: sql`now()`,
    };
    await tx
      .insert(complianceSarDetails)
      .values({ caseId, ...values })
      .onConflictDoUpdate({ target: complianceSarDetails.caseId, set: values });
    await tx.update(complianceCases).set({ updatedAt: sql`now()` }).where(eq(complianceCases.id, caseId));
    const { idNumberCiphertext: _sealed, updatedAt: _at, updatedBy: _by, ...after } = values;
    await writeAudit(tx, {
      actorId: actor.id,
      actorRole: actor.role,
      action: "compliance.case_sar_details",
      targetType: "compliance_case",
      targetId: caseId,
      subjectUserId: kase.userId,
      before: before
        ? {
            filingType: before.filingType,
            categories: before.categories,
            idNumberLast4: before.idNumberLast4,
          }
        : null,
      after,
    });
  });
  return { message: REPORT_MESSAGES.sarSaved, sar: await getSarDetails(db, caseId) };
}
