import { and, asc, desc, eq, isNotNull, isNull, lte } from "drizzle-orm";
import {
  annualBlockedReportDays,
  type FileOfacReportInput,
  type OfacReport,
  type OfacReportsResponse,
  REPORT_MESSAGES,
  type TransferDecision,
} from "@/contract/compliance";
import { bankToday } from "@/contract/kyc";
import { centsToDecimal, formatMoney } from "@/contract/money";
import type { StaffRole } from "@/contract/staff";
import type { Db, DbOrTx, Tx } from "@/server/db/client";
import { complianceHits, kycApplications, ofacReports, transferRequests, users } from "@/server/db/schema";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";

const MAX_LISTED = 500;

/** The compliance member acting (case-work's CaseActor; kept apart so case-work can import this file). */
interface CaseActor {
  id: string;
  role: StaffRole;
}

/**
 * 31 CFR 501.603-604 (decision 055): an approved block is reported as blocked property, an approved reject as a
 * rejected transaction, each within 10 business days, in the approval's transaction so the decision and its
 * report commit together. A reject on a case with no sanctions hit (monitoring only) is not OFAC's business and
 * records nothing; a block always does, since the money now sits in blocked_funds. Answers the due day or null.
 */
export async function recordOfacReport(
  tx: Tx,
  input: {
    caseId: string;
    decisionId: string;
    decision: TransferDecision;
    transferId: string;
    dueOn: string;
    now?: Date;
  },
): Promise<string | null> {
  const hits = await tx
    .select({
      programs: complianceHits.programs,
      source: complianceHits.listSource,
      entNum: complianceHits.entNum,
    })
    .from(complianceHits)
    .where(eq(complianceHits.caseId, input.caseId));
  if (input.decision === "reject_transfer" && hits.length === 0) return null;
  const [transfer] = await tx
    .select({
      userId: transferRequests.userId,
      amount: transferRequests.amount,
      recipientName: transferRequests.recipientName,
      cryptoAddress: transferRequests.cryptoAddress,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(transferRequests)
    .leftJoin(users, eq(users.id, transferRequests.userId))
    .where(eq(transferRequests.id, input.transferId));
  if (!transfer) return null;
  const [kyc] = transfer.userId
    ? await tx
        .select({ address: kycApplications.address })
        .from(kycApplications)
        .where(and(eq(kycApplications.userId, transfer.userId), isNull(kycApplications.supersededAt)))
    : [];
  const unique = (values: string[]) => [...new Set(values.filter(Boolean))].join("; ");
  const now = input.now ?? new Date();
  await tx
    .insert(ofacReports)
    .values({
      kind: input.decision === "block_transfer" ? "blocked" : "rejected",
      caseId: input.caseId,
      decisionId: input.decisionId,
      transferId: input.transferId,
      userId: transfer.userId,
      amount: transfer.amount,
      ownerName: `${transfer.firstName ?? ""} ${transfer.lastName ?? ""}`.trim() || "Deleted customer",
      ownerAddress: kyc?.address ?? null,
      counterpartyName: transfer.recipientName,
      counterpartyAddress: transfer.cryptoAddress,
      programs: unique(hits.map((h) => h.programs)),
      listEntries: unique(hits.map((h) => `${h.source} #${h.entNum}`)),
      decidedAt: now,
      decidedOn: bankToday(now),
      dueOn: input.dueOn,
    })
    .onConflictDoNothing({ target: ofacReports.decisionId });
  return input.dueOn;
}

const filers = users;

function toReport(
  row: typeof ofacReports.$inferSelect & { filedByEmail: string | null },
  today: string,
): OfacReport {
  return {
    id: row.id,
    kind: row.kind,
    caseId: row.caseId,
    transferId: row.transferId,
    amountCents: row.amount,
    formattedAmount: formatMoney(row.amount),
    ownerName: row.ownerName,
    counterpartyName: row.counterpartyName,
    counterpartyAddress: row.counterpartyAddress,
    programs: row.programs,
    listEntries: row.listEntries,
    decidedAt: row.decidedAt.toISOString(),
    decidedOn: row.decidedOn,
    dueOn: row.dueOn,
    overdue: row.filedAt === null && row.dueOn < today,
    filedOn: row.filedOn,
    filedReference: row.filedReference,
    filedBy: row.filedByEmail,
  };
}

const reportQuery = (db: DbOrTx) =>
  db
    .select({ report: ofacReports, filedByEmail: filers.email })
    .from(ofacReports)
    .leftJoin(filers, eq(filers.id, ofacReports.filedBy));

/**
 * The reports due (earliest due first, so the overdue lead) or those filed (latest first), with the annual
 * blocked-property report that comes next.
 */
export async function findOfacReports(
  db: DbOrTx,
  status: "due" | "filed",
  now = new Date(),
): Promise<OfacReportsResponse> {
  const rows = await reportQuery(db)
    .where(status === "due" ? isNull(ofacReports.filedAt) : isNotNull(ofacReports.filedAt))
    .orderBy(
      ...(status === "due"
        ? [asc(ofacReports.dueOn), asc(ofacReports.id)]
        : [desc(ofacReports.filedAt), desc(ofacReports.id)]),
    )
    .limit(MAX_LISTED);
  const today = bankToday(now);
  const year = Number(today.slice(0, 4));
  // The next annual report: this year's until September 30 has passed, then next year's.
  const annual = annualBlockedReportDays(today > `${year}-09-30` ? year + 1 : year);
  return { items: rows.map((r) => toReport({ ...r.report, filedByEmail: r.filedByEmail }, today)), annual };
}

/**
 * Records that a report was filed with OFAC: its reference and day. One member is enough: the block or reject
 * it reports was already decided by two, and this only records an act done outside Pillar (decision 055).
 */
export async function markOfacReportFiled(
  db: Db,
  actor: CaseActor,
  reportId: string,
  input: FileOfacReportInput,
  now = new Date(),
): Promise<{ message: string; report: OfacReport }> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(ofacReports).where(eq(ofacReports.id, reportId)).for("update");
    if (!row) throw new AppError("NOT_FOUND", REPORT_MESSAGES.reportNotFound);
    if (row.filedAt) throw new AppError("CONFLICT", REPORT_MESSAGES.reportFiled);
    if (input.filedOn < row.decidedOn || input.filedOn > bankToday(now)) {
      throw new AppError("VALIDATION", REPORT_MESSAGES.filedOnInvalid, { field: "filedOn" });
    }
    await tx
      .update(ofacReports)
      .set({ filedOn: input.filedOn, filedReference: input.reference, filedBy: actor.id, filedAt: now })
      .where(eq(ofacReports.id, reportId));
    await writeAudit(tx, {
      actorId: actor.id,
      actorRole: actor.role,
      action: "compliance.ofac_report_filed",
      targetType: "ofac_report",
      targetId: reportId,
      subjectUserId: row.userId,
      after: { kind: row.kind, caseId: row.caseId, reference: input.reference, filedOn: input.filedOn },
    });
  });
  const [row] = await reportQuery(db).where(eq(ofacReports.id, reportId));
  return {
    message: REPORT_MESSAGES.reportMarkedFiled,
    report: toReport({ ...row!.report, filedByEmail: row!.filedByEmail }, bankToday(now)),
  };
}

const csvCell = (v: string | number | null) => {
  const text = v === null ? "" : String(v);
  // A leading =, +, - or @ would run as a formula in a spreadsheet: quote it as text.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const ANNUAL_CSV_HEADER = [
  "report_id",
  "blocked_on",
  "owner",
  "owner_address",
  "property",
  "amount_usd",
  "counterparty",
  "counterparty_address",
  "programs",
  "list_entries",
  "case_id",
  "transfer_id",
  "initial_report_filed_on",
  "initial_report_reference",
];

/**
 * The annual report of blocked property (31 CFR 501.603(b)(2)): every item blocked on or before June 30 of the
 * year and still held then, as CSV, with the total on the last line. Nothing in Pillar unblocks property
 * (decision 048), so "still held" is every blocked transfer whose status is still `blocked`. Audited: it lists
 * customers' names and addresses.
 */
export async function annualBlockedReportCsv(
  db: Db,
  actor: CaseActor,
  year: number,
  now = new Date(),
): Promise<{ csv: string; items: number; totalCents: number }> {
  if (year > Number(bankToday(now).slice(0, 4))) {
    throw new AppError("VALIDATION", REPORT_MESSAGES.yearInvalid, { field: "year" });
  }
  const { asOf } = annualBlockedReportDays(year);
  const rows = await db
    .select({ report: ofacReports })
    .from(ofacReports)
    .innerJoin(transferRequests, eq(transferRequests.id, ofacReports.transferId))
    .where(
      and(
        eq(ofacReports.kind, "blocked"),
        lte(ofacReports.decidedOn, asOf),
        eq(transferRequests.status, "blocked"),
      ),
    )
    .orderBy(asc(ofacReports.decidedOn), asc(ofacReports.id));
  const totalCents = rows.reduce((sum, r) => sum + r.report.amount, 0);
  const lines = [
    ANNUAL_CSV_HEADER.join(","),
    ...rows.map(({ report: r }) =>
      [
        r.id,
        r.decidedOn,
        r.ownerName,
        r.ownerAddress,
        "USDC transfer (funds held in the blocked account)",
        centsToDecimal(r.amount),
        r.counterpartyName,
        r.counterpartyAddress,
        r.programs,
        r.listEntries,
        r.caseId,
        r.transferId,
        r.filedOn,
        r.filedReference,
      ]
        .map(csvCell)
        .join(","),
    ),
    [
      "TOTAL",
      asOf,
      "",
      "",
      `${rows.length} items`,
      centsToDecimal(totalCents),
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
    ]
      .map(csvCell)
      .join(","),
  ];
  await writeAudit(db, {
    actorId: actor.id,
    actorRole: actor.role,
    action: "compliance.ofac_annual_report_exported",
    targetType: "ofac_report",
    targetId: null,
    after: { year, asOf, items: rows.length, totalCents },
  });
  return { csv: `${lines.join("\r\n")}\r\n`, items: rows.length, totalCents };
}
