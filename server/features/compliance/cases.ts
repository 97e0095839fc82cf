import { and, asc, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  type CaseDecisionRow,
  type CasesQuery,
  COMPLIANCE_MESSAGES,
  type ComplianceCase,
  type ComplianceCaseDetail,
  type SarFilingType,
  sarClock,
} from "@/contract/compliance";
import type { Page } from "@/contract/pages";
import type { DbOrTx, Tx } from "@/server/db/client";
import {
  complianceCaseComments,
  complianceCaseDecisions,
  complianceCaseDocuments,
  complianceCaseLinks,
  complianceCases,
  complianceHits,
  uploads,
  users,
} from "@/server/db/schema";
import { findHeldTransfers } from "@/server/features/compliance/held-transfers";
import { listSearch } from "@/server/lib/customer-search";
import { AppError } from "@/server/lib/errors";
import { beforeTimeKey, continuedAfter, exactTime, toPage } from "@/server/lib/keyset-page";
import { objectPathFor } from "@/server/lib/storage/uploads";

const assignees = alias(users, "assignees");

const caseColumns = {
  id: complianceCases.id,
  status: complianceCases.status,
  userId: complianceCases.userId,
  openedAt: complianceCases.openedAt,
  openedKey: exactTime(complianceCases.openedAt),
  decidedAt: complianceCases.decidedAt,
  decisionNote: complianceCases.decisionNote,
  narrative: complianceCases.narrative,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  assigneeId: complianceCases.assignedTo,
  assigneeEmail: assignees.email,
  hitCount: sql<number>`(select count(*)::int from compliance_hits h where h.case_id = ${complianceCases.id})`,
  alertCount: sql<number>`(select count(*)::int from monitoring_alerts a where a.case_id = ${complianceCases.id})`,
  // First detection: the earliest evidence filed on the case, a sanctions hit or a monitoring alert (the case
  // opens with it, so opened_at otherwise; least() passes over a kind with none).
  firstDetectedAt: sql<Date>`coalesce(least((select min(h.created_at) from compliance_hits h
    where h.case_id = ${complianceCases.id}), (select min(a.created_at) from monitoring_alerts a
    where a.case_id = ${complianceCases.id})), ${complianceCases.openedAt})`.mapWith(
    (v: string | Date) => new Date(v),
  ),
  heldTransfers: sql<number>`(select count(*)::int from transfer_requests t
    where t.user_id = ${complianceCases.userId} and t.status in ('pending', 'processing'))`,
  heldDeposits: sql<number>`(select count(*)::int from chain_deposits d
    where d.case_id = ${complianceCases.id} and d.status = 'held')`,
  pendingDecision: sql<CaseDecisionRow["decision"] | null>`(select d.decision from compliance_case_decisions d
    where d.case_id = ${complianceCases.id} and d.status = 'pending')`,
  // The SAR clock's inputs compliance records (decision 055): no suspect identified, or a continuing report.
  sarClock: sql<{
    subjectIdentified: boolean;
    filingType: SarFilingType;
    priorFiledOn: string | null;
  } | null>`(
    select json_build_object('subjectIdentified', s.subject_identified, 'filingType', s.filing_type,
      'priorFiledOn', s.prior_filed_on) from compliance_sar_details s where s.case_id = ${complianceCases.id})`,
};
type CaseRow = {
  id: string;
  status: ComplianceCase["status"];
  userId: string | null;
  openedAt: Date;
  openedKey: string;
  decidedAt: Date | null;
  decisionNote: string | null;
  narrative: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  assigneeId: string | null;
  assigneeEmail: string | null;
  hitCount: number;
  alertCount: number;
  firstDetectedAt: Date;
  heldTransfers: number;
  heldDeposits: number;
  pendingDecision: CaseDecisionRow["decision"] | null;
  sarClock: { subjectIdentified: boolean; filingType: SarFilingType; priorFiledOn: string | null } | null;
};

/**
 * The clock every open case shows: first detection plus 30 days, 60 when compliance recorded that no suspect is
 * identified, or a continuing report's 120 days from the prior filing (decision 055).
 */
export function reportDueAt(firstDetectedAt: Date, sar: CaseRow["sarClock"] = null): Date {
  return sarClock({
    firstDetectedAt,
    subjectIdentified: sar?.subjectIdentified ?? true,
    filingType: sar?.filingType ?? "initial",
    priorFiledOn: sar?.priorFiledOn ?? null,
  }).dueAt;
}

function toCase(row: CaseRow): ComplianceCase {
  return {
    id: row.id,
    status: row.status,
    customer:
      row.userId && row.email
        ? { id: row.userId, email: row.email, firstName: row.firstName ?? "", lastName: row.lastName ?? "" }
        : null,
    hitCount: Number(row.hitCount),
    alertCount: Number(row.alertCount),
    heldTransfers: row.status === "cleared" ? 0 : Number(row.heldTransfers),
    heldDeposits: Number(row.heldDeposits),
    assignee: row.assigneeId ? { id: row.assigneeId, email: row.assigneeEmail } : null,
    openedAt: row.openedAt.toISOString(),
    reportDueAt: reportDueAt(row.firstDetectedAt, row.sarClock).toISOString(),
    pendingDecision: row.pendingDecision ?? null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionNote: row.decisionNote,
  };
}

const caseQuery = (db: DbOrTx) =>
  db
    .select(caseColumns)
    .from(complianceCases)
    .leftJoin(users, eq(users.id, complianceCases.userId))
    .leftJoin(assignees, eq(assignees.id, complianceCases.assignedTo));

/** The case queue, newest first within a status (open by default); q searches the customer's e-mail and name. */
export async function findCases(db: DbOrTx, query: CasesQuery): Promise<Page<ComplianceCase>> {
  const filters = and(
    query.status === "all" ? undefined : eq(complianceCases.status, query.status),
    beforeTimeKey(complianceCases.openedAt, complianceCases.id, query.cursor),
  );
  const search = await listSearch(db, query.q, {
    table: complianceCases,
    order: { kind: "time", createdAt: complianceCases.openedAt, id: complianceCases.id },
    userId: complianceCases.userId,
    filters,
  });
  const rows = (await caseQuery(db)
    .where(and(filters, search.where))
    .orderBy(desc(complianceCases.openedAt), desc(complianceCases.id))
    .limit(query.limit + 1)) as CaseRow[];
  return continuedAfter(
    toPage(rows, query.limit, (r) => [r.openedKey, r.id], toCase),
    search,
  );
}

/** The case row as the list shows it, or 404. */
export async function findCaseRow(db: DbOrTx, caseId: string): Promise<CaseRow> {
  const [row] = (await caseQuery(db).where(eq(complianceCases.id, caseId))) as CaseRow[];
  if (!row) throw new AppError("NOT_FOUND", COMPLIANCE_MESSAGES.caseNotFound);
  return row;
}

const person = (id: string | null, email: string | null) => (id ? { id, email } : null);

export async function getCase(db: DbOrTx, caseId: string): Promise<ComplianceCaseDetail> {
  const row = await findCaseRow(db, caseId);
  const makers = alias(users, "makers");
  const checkers = alias(users, "checkers");
  const linked = alias(users, "linked");
  const [hits, comments, documents, links, decisions, transfers] = await Promise.all([
    db
      .select()
      .from(complianceHits)
      .where(eq(complianceHits.caseId, caseId))
      .orderBy(complianceHits.createdAt, complianceHits.id),
    db
      .select({ c: complianceCaseComments, email: users.email })
      .from(complianceCaseComments)
      .leftJoin(users, eq(users.id, complianceCaseComments.authorId))
      .where(eq(complianceCaseComments.caseId, caseId))
      .orderBy(asc(complianceCaseComments.createdAt), asc(complianceCaseComments.id)),
    db
      .select({ d: complianceCaseDocuments, upload: uploads, email: users.email })
      .from(complianceCaseDocuments)
      .innerJoin(uploads, eq(uploads.id, complianceCaseDocuments.uploadId))
      .leftJoin(users, eq(users.id, complianceCaseDocuments.addedBy))
      .where(eq(complianceCaseDocuments.caseId, caseId))
      .orderBy(asc(complianceCaseDocuments.createdAt), asc(complianceCaseDocuments.id)),
    db
      .select({ l: complianceCaseLinks, customer: linked, email: users.email })
      .from(complianceCaseLinks)
      .innerJoin(linked, eq(linked.id, complianceCaseLinks.userId))
      .leftJoin(users, eq(users.id, complianceCaseLinks.addedBy))
      .where(eq(complianceCaseLinks.caseId, caseId))
      .orderBy(asc(complianceCaseLinks.createdAt)),
    db
      .select({ d: complianceCaseDecisions, makerEmail: makers.email, checkerEmail: checkers.email })
      .from(complianceCaseDecisions)
      .leftJoin(makers, eq(makers.id, complianceCaseDecisions.makerId))
      .leftJoin(checkers, eq(checkers.id, complianceCaseDecisions.checkerId))
      .where(eq(complianceCaseDecisions.caseId, caseId))
      .orderBy(asc(complianceCaseDecisions.createdAt), asc(complianceCaseDecisions.id)),
    // A cleared case holds nothing, as heldTransfers says.
    row.status === "cleared" ? [] : findHeldTransfers(db, row.userId),
  ]);
  return {
    ...toCase(row),
    narrative: row.narrative,
    transfers,
    hits: hits.map((h) => ({
      id: h.id,
      screeningPoint: h.screeningPoint as ComplianceCaseDetail["hits"][number]["screeningPoint"],
      subjectType: h.subjectType,
      subject: h.subject,
      matched: h.matched,
      score: h.score,
      listVersion: h.listVersion,
      listSource: h.listSource,
      entNum: h.entNum,
      programs: h.programs,
      transferId: h.transferId,
      depositId: h.depositId,
      scoreParts: h.scoreParts ?? null,
      createdAt: h.createdAt.toISOString(),
    })),
    comments: comments.map(({ c, email }) => ({
      id: c.id,
      author: person(c.authorId, email),
      body: c.body,
      createdAt: c.createdAt.toISOString(),
    })),
    documents: documents.map(({ d, upload, email }) => ({
      id: d.id,
      title: d.title,
      url: objectPathFor(upload.objectKey),
      contentType: upload.contentType,
      sizeBytes: upload.sizeBytes,
      addedBy: person(d.addedBy, email),
      createdAt: d.createdAt.toISOString(),
    })),
    links: links.map(({ l, customer, email }) => ({
      customer: {
        id: customer.id,
        email: customer.email,
        firstName: customer.firstName,
        lastName: customer.lastName,
      },
      note: l.note,
      addedBy: person(l.addedBy, email),
      createdAt: l.createdAt.toISOString(),
    })),
    decisions: decisions.map(({ d, makerEmail, checkerEmail }) => ({
      id: d.id,
      decision: d.decision,
      note: d.note,
      status: d.status,
      maker: person(d.makerId, makerEmail),
      checker: person(d.checkerId, checkerEmail),
      checkerNote: d.checkerNote,
      createdAt: d.createdAt.toISOString(),
      decidedAt: d.decidedAt?.toISOString() ?? null,
      transferId: d.transferId,
      reportDueOn: d.reportDueOn,
    })),
  };
}

/**
 * The customer's open case, opened when there is none, in the caller's transaction: sanctions hits and
 * monitoring alerts (server/features/monitoring) file on it. A racing opener's insert loses to the one-open-case
 * index and joins that case.
 */
export async function openCaseFor(tx: Tx, userId: string): Promise<string> {
  await tx.execute(
    sql`insert into compliance_cases (user_id) values (${userId}::uuid)
        on conflict (user_id) where status = 'open' do nothing`,
  );
  const [open] = await tx
    .select({ id: complianceCases.id })
    .from(complianceCases)
    .where(and(eq(complianceCases.userId, userId), eq(complianceCases.status, "open")));
  return open!.id;
}
