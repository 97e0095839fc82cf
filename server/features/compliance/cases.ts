import { and, desc, eq, inArray, sql } from "drizzle-orm";
import {
  type CaseDecision,
  type CasesQuery,
  COMPLIANCE_MESSAGES,
  type ComplianceCase,
  type ComplianceCaseDetail,
} from "@/contract/compliance";
import type { Page } from "@/contract/pages";
import type { StaffRole } from "@/contract/staff";
import type { Db, DbOrTx, Tx } from "@/server/db/client";
import { complianceCases, complianceHits, transferRequests, users } from "@/server/db/schema";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { beforeTimeKey, exactTime, searchAny, toPage } from "@/server/lib/keyset-page";

const caseColumns = {
  id: complianceCases.id,
  status: complianceCases.status,
  userId: complianceCases.userId,
  openedAt: complianceCases.openedAt,
  openedKey: exactTime(complianceCases.openedAt),
  decidedAt: complianceCases.decidedAt,
  decisionNote: complianceCases.decisionNote,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  hitCount: sql<number>`(select count(*)::int from compliance_hits h where h.case_id = ${complianceCases.id})`,
  heldTransfers: sql<number>`(select count(*)::int from transfer_requests t
    where t.user_id = ${complianceCases.userId} and t.status in ('pending', 'processing'))`,
};
type CaseRow = { [K in keyof typeof caseColumns]: unknown } & {
  id: string;
  status: ComplianceCase["status"];
  userId: string | null;
  openedAt: Date;
  openedKey: string;
  decidedAt: Date | null;
  decisionNote: string | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  hitCount: number;
  heldTransfers: number;
};

function toCase(row: CaseRow): ComplianceCase {
  return {
    id: row.id,
    status: row.status,
    customer:
      row.userId && row.email
        ? { id: row.userId, email: row.email, firstName: row.firstName ?? "", lastName: row.lastName ?? "" }
        : null,
    hitCount: Number(row.hitCount),
    heldTransfers: row.status === "cleared" ? 0 : Number(row.heldTransfers),
    openedAt: row.openedAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionNote: row.decisionNote,
  };
}

/** The case queue, newest first within a status (open by default); q searches the customer's e-mail and name. */
export async function findCases(db: DbOrTx, query: CasesQuery): Promise<Page<ComplianceCase>> {
  const rows = (await db
    .select(caseColumns)
    .from(complianceCases)
    .leftJoin(users, eq(users.id, complianceCases.userId))
    .where(
      and(
        query.status === "all" ? undefined : eq(complianceCases.status, query.status),
        beforeTimeKey(complianceCases.openedAt, complianceCases.id, query.cursor),
        searchAny(query.q, [users.email, users.firstName, users.lastName]),
      ),
    )
    .orderBy(desc(complianceCases.openedAt), desc(complianceCases.id))
    .limit(query.limit + 1)) as CaseRow[];
  return toPage(rows, query.limit, (r) => [r.openedKey, r.id], toCase);
}

export async function getCase(db: DbOrTx, caseId: string): Promise<ComplianceCaseDetail> {
  const [row] = (await db
    .select(caseColumns)
    .from(complianceCases)
    .leftJoin(users, eq(users.id, complianceCases.userId))
    .where(eq(complianceCases.id, caseId))) as CaseRow[];
  if (!row) throw new AppError("NOT_FOUND", COMPLIANCE_MESSAGES.caseNotFound);
  const hits = await db
    .select()
    .from(complianceHits)
    .where(eq(complianceHits.caseId, caseId))
    .orderBy(complianceHits.createdAt, complianceHits.id);
  return {
    ...toCase(row),
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
      createdAt: h.createdAt.toISOString(),
    })),
  };
}

/**
 * Compliance decides an open case: clear (a false positive: the customer's held transfers may move again)
 * or confirm (a true match: nothing leaves the account while the case stands). Audited; the row lock makes
 * two deciders racing decide once.
 */
export async function decideCase(
  db: Db,
  actor: { id: string; role: StaffRole },
  caseId: string,
  input: { decision: CaseDecision; note: string },
): Promise<ComplianceCaseDetail> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(complianceCases).where(eq(complianceCases.id, caseId)).for("update");
    if (!row) throw new AppError("NOT_FOUND", COMPLIANCE_MESSAGES.caseNotFound);
    if (row.status !== "open") {
      throw new AppError("case_decided", COMPLIANCE_MESSAGES.caseDecided);
    }
    const status = input.decision === "clear" ? "cleared" : "confirmed";
    await tx
      .update(complianceCases)
      .set({
        status,
        decisionNote: input.note,
        decidedBy: actor.id,
        decidedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(complianceCases.id, caseId));
    const held = row.userId
      ? await tx
          .select({ id: transferRequests.id })
          .from(transferRequests)
          .where(
            and(
              eq(transferRequests.userId, row.userId),
              inArray(transferRequests.status, ["pending", "processing"]),
            ),
          )
      : [];
    await writeAudit(tx, {
      actorId: actor.id,
      actorRole: actor.role,
      // One action name whatever the outcome, and the note kept out of `reason`: the customer's data-access
      // view lists this row ("Reviewed your account") and must not tell what compliance found or decided.
      action: "compliance.case_decided",
      targetType: "compliance_case",
      targetId: caseId,
      subjectUserId: row.userId,
      before: { status: row.status },
      after: { status, note: input.note, heldTransfers: held.map((t) => t.id) },
    });
  });
  return getCase(db, caseId);
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
