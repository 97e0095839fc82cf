import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import {
  CASE_OUTCOME,
  type CaseActionResponse,
  COMPLIANCE_MESSAGES,
  type DecisionKind,
  isTransferDecision,
} from "@/contract/compliance";
import { IMAGE_CONTENT_TYPES, PDF_CONTENT_TYPE } from "@/contract/kyc";
import { holdsAnyRole, type StaffRole } from "@/contract/staff";
import type { AppDeps } from "@/server/app-deps";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import {
  complianceCaseComments,
  complianceCaseDecisions,
  complianceCaseDocuments,
  complianceCaseLinks,
  complianceCases,
  transferRequests,
  users,
} from "@/server/db/schema";
import { findCaseRow, getCase } from "@/server/features/compliance/cases";
import { releaseHeldDeposits } from "@/server/features/compliance/held-deposits";
import { decideHeldTransfer, findDecidableTransfer } from "@/server/features/compliance/held-transfers";
import { recordOfacReport } from "@/server/features/compliance/ofac-reports";
import { writeAudit } from "@/server/lib/audit";
import { AppError, pgConstraint, pgErrorCode } from "@/server/lib/errors";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { ensureUploadVerified, findOwnUpload } from "@/server/lib/storage/uploads";
import { updateUser } from "@/server/lib/write-user";

/** The compliance member acting, in the role the route's table authorised. */
export interface CaseActor {
  id: string;
  role: StaffRole;
}

type CaseRecord = typeof complianceCases.$inferSelect;

/** Every change to a case starts here: the row locked, so two members acting at once act one after the other. */
async function lockCase(tx: Tx, caseId: string): Promise<CaseRecord> {
  const [row] = await tx.select().from(complianceCases).where(eq(complianceCases.id, caseId)).for("update");
  if (!row) throw new AppError("NOT_FOUND", COMPLIANCE_MESSAGES.caseNotFound);
  return row;
}

function mustBeOpen(row: CaseRecord): void {
  if (row.status !== "open") throw new AppError("case_decided", COMPLIANCE_MESSAGES.caseDecided);
}

/**
 * An open case takes clear, restrict, freeze or file; a restricted one only lift (decision 039). Rejecting or
 * blocking a held transfer is for any case that still holds the customer's money: every one but a cleared case
 * (decision 048).
 */
function mustAccept(row: CaseRecord, decision: DecisionKind): void {
  if (isTransferDecision(decision)) {
    if (row.status === "cleared") throw new AppError("case_decided", COMPLIANCE_MESSAGES.caseDecided);
    return;
  }
  if (decision === "lift") {
    if (row.status === "open") throw new AppError("CONFLICT", COMPLIANCE_MESSAGES.liftNotRestricted);
    if (row.status !== "restricted") throw new AppError("case_decided", COMPLIANCE_MESSAGES.caseDecided);
    return;
  }
  mustBeOpen(row);
}

/**
 * One audited step: its action names what was done to the case, never listed in the customer's data-access view
 * (contract/audit.ts lists only compliance.account_reviewed, as "Reviewed your account").
 */
function auditStep(
  tx: Tx,
  actor: CaseActor,
  row: CaseRecord,
  action: string,
  after: Record<string, unknown>,
  before?: Record<string, unknown>,
) {
  return writeAudit(tx, {
    actorId: actor.id,
    actorRole: actor.role,
    action: `compliance.${action}`,
    targetType: "compliance_case",
    targetId: row.id,
    subjectUserId: row.userId,
    before: before ?? null,
    after,
  });
}

async function answer(db: Db, caseId: string, message: string): Promise<CaseActionResponse> {
  return { message, case: await getCase(db, caseId) };
}

/** Staff roles as stored now, not as a session cached them: a revoked member cannot act as one. */
async function currentRoles(tx: Tx, userId: string): Promise<StaffRole[]> {
  const [row] = await tx.select({ staffRoles: users.staffRoles }).from(users).where(eq(users.id, userId));
  return row?.staffRoles ?? [];
}

/** Assigns the case to a compliance member (or owner), or unassigns it with null. */
export async function assignCase(
  db: Db,
  actor: CaseActor,
  caseId: string,
  assigneeId: string | null,
): Promise<CaseActionResponse> {
  await db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    if (assigneeId !== null && !holdsAnyRole(await currentRoles(tx, assigneeId), ["compliance"])) {
      throw new AppError("VALIDATION", COMPLIANCE_MESSAGES.assigneeNotCompliance);
    }
    await tx
      .update(complianceCases)
      .set({ assignedTo: assigneeId, updatedAt: sql`now()` })
      .where(eq(complianceCases.id, caseId));
    await auditStep(
      tx,
      actor,
      row,
      "case_assigned",
      { assignedTo: assigneeId },
      { assignedTo: row.assignedTo },
    );
  });
  return answer(db, caseId, assigneeId ? "Case assigned" : "Case unassigned");
}

export async function commentOnCase(
  db: Db,
  actor: CaseActor,
  caseId: string,
  body: string,
): Promise<CaseActionResponse> {
  await db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    const [comment] = await tx
      .insert(complianceCaseComments)
      .values({ caseId, authorId: actor.id, body })
      .returning({ id: complianceCaseComments.id });
    await tx.update(complianceCases).set({ updatedAt: sql`now()` }).where(eq(complianceCases.id, caseId));
    await auditStep(tx, actor, row, "case_comment", { commentId: comment!.id, body });
  });
  return answer(db, caseId, "Comment added");
}

/** The SAR draft's narrative; editable while the case is open. */
export async function saveNarrative(
  db: Db,
  actor: CaseActor,
  caseId: string,
  narrative: string,
): Promise<CaseActionResponse> {
  await db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    mustBeOpen(row);
    await tx
      .update(complianceCases)
      .set({ narrative, updatedAt: sql`now()` })
      .where(eq(complianceCases.id, caseId));
    await auditStep(tx, actor, row, "case_narrative", { narrative }, { narrative: row.narrative });
  });
  return answer(db, caseId, "Narrative saved");
}

const DOCUMENT_TYPES: readonly string[] = [...IMAGE_CONTENT_TYPES, PDF_CONTENT_TYPE];

/**
 * Attaches a file the acting member uploaded through /api/objects/upload: the same size limit, daily allowance
 * and sniffed type checks as identity documents (images or PDF), and the same object route to open it, which
 * lets compliance and owners read it and nobody else.
 */
export async function attachCaseDocument(
  deps: AppDeps,
  actor: CaseActor,
  caseId: string,
  input: { documentUrl: string; title: string },
): Promise<CaseActionResponse> {
  const { db } = deps.database;
  await findCaseRow(db, caseId);
  const upload = await findOwnUpload(db, actor.id, input.documentUrl);
  if (!upload) throw new AppError("BAD_REQUEST", COMPLIANCE_MESSAGES.documentNotFound);
  const verified = await ensureUploadVerified(db, deps.storage, upload);
  if (!verified.contentType || !DOCUMENT_TYPES.includes(verified.contentType)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", COMPLIANCE_MESSAGES.documentType);
  }
  await db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    const inserted = await tx
      .insert(complianceCaseDocuments)
      .values({ caseId, uploadId: verified.id, title: input.title, addedBy: actor.id })
      .onConflictDoNothing()
      .returning({ id: complianceCaseDocuments.id });
    if (inserted.length === 0) return;
    await tx.update(complianceCases).set({ updatedAt: sql`now()` }).where(eq(complianceCases.id, caseId));
    await auditStep(tx, actor, row, "case_document", {
      documentId: inserted[0]!.id,
      uploadId: verified.id,
      title: input.title,
      contentType: verified.contentType,
      sizeBytes: verified.sizeBytes,
    });
  });
  return answer(db, caseId, "Document attached");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Links another customer (by e-mail or id) to the case, with how they are related. */
export async function linkCustomer(
  db: Db,
  actor: CaseActor,
  caseId: string,
  input: { customer: string; note: string },
): Promise<CaseActionResponse> {
  await db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    const ref = input.customer.trim();
    const [found] = await tx
      .select({ id: users.id, staffRoles: users.staffRoles })
      .from(users)
      .where(UUID.test(ref) ? eq(users.id, ref) : eq(sql`lower(${users.email})`, ref.toLowerCase()));
    // Staff accounts never bank (docs/architecture.md "Staff roles"), so they are no customer to link.
    if (!found || found.staffRoles.length > 0) {
      throw new AppError("NOT_FOUND", COMPLIANCE_MESSAGES.linkedCustomerNotFound);
    }
    if (found.id === row.userId) throw new AppError("VALIDATION", COMPLIANCE_MESSAGES.linkSelf);
    const inserted = await tx
      .insert(complianceCaseLinks)
      .values({ caseId, userId: found.id, note: input.note, addedBy: actor.id })
      .onConflictDoNothing()
      .returning({ userId: complianceCaseLinks.userId });
    if (inserted.length === 0) throw new AppError("CONFLICT", COMPLIANCE_MESSAGES.linkDuplicate);
    await auditStep(tx, actor, row, "case_link", { linkedUserId: found.id, note: input.note });
  });
  return answer(db, caseId, "Customer linked");
}

/**
 * A member proposes a decision; nothing happens to the customer until a second member approves it. One
 * proposal waits at a time (409 caseDecisionPending); a decided case takes none (409 caseDecided).
 */
export async function proposeDecision(
  db: Db,
  actor: CaseActor,
  caseId: string,
  input: { decision: DecisionKind; note: string; transferId?: string },
): Promise<CaseActionResponse> {
  const transferId = input.transferId ?? null;
  if (isTransferDecision(input.decision) && !transferId) {
    throw new AppError("VALIDATION", COMPLIANCE_MESSAGES.transferRequired);
  }
  if (!isTransferDecision(input.decision) && transferId) {
    throw new AppError("VALIDATION", COMPLIANCE_MESSAGES.transferNotForDecision);
  }
  try {
    await db.transaction(async (tx) => {
      const row = await lockCase(tx, caseId);
      mustAccept(row, input.decision);
      if (transferId) await findDecidableTransfer(tx, row.userId, transferId);
      if (!row.userId && (input.decision === "restrict" || input.decision === "freeze")) {
        throw new AppError("CONFLICT", COMPLIANCE_MESSAGES.customerGone);
      }
      const [pending] = await tx
        .select({ id: complianceCaseDecisions.id })
        .from(complianceCaseDecisions)
        .where(
          and(eq(complianceCaseDecisions.caseId, caseId), eq(complianceCaseDecisions.status, "pending")),
        );
      if (pending) throw new AppError("approval_pending", COMPLIANCE_MESSAGES.decisionPending);
      const [proposal] = await tx
        .insert(complianceCaseDecisions)
        .values({ caseId, decision: input.decision, note: input.note, makerId: actor.id, transferId })
        .returning({ id: complianceCaseDecisions.id });
      await auditStep(tx, actor, row, "case_decision_proposed", {
        decisionId: proposal!.id,
        decision: input.decision,
        note: input.note,
        transferId,
      });
    });
  } catch (err) {
    if (pgErrorCode(err) === "23505" && pgConstraint(err) === "compliance_case_decisions_one_pending_key") {
      throw new AppError("approval_pending", COMPLIANCE_MESSAGES.decisionPending);
    }
    throw err;
  }
  return answer(db, caseId, COMPLIANCE_MESSAGES.decisionProposed);
}

/** The decision, locked after its case (the order every path takes), or 404 when it is not this case's. */
async function lockDecision(tx: Tx, caseId: string, decisionId: string) {
  const [decision] = await tx
    .select()
    .from(complianceCaseDecisions)
    .where(and(eq(complianceCaseDecisions.id, decisionId), eq(complianceCaseDecisions.caseId, caseId)))
    .for("update");
  if (!decision) throw new AppError("NOT_FOUND", COMPLIANCE_MESSAGES.decisionNotFound);
  if (decision.status !== "pending") {
    throw new AppError("approval_decided", COMPLIANCE_MESSAGES.decisionDecided, {
      status: decision.status,
    });
  }
  return decision;
}

/** The existing freeze (users.frozen_at, as "This wasn't me" sets it): lifted by the unfreeze approval. */
async function freezeCustomer(tx: Tx, actor: CaseActor, userId: string, caseId: string): Promise<void> {
  const [user] = await tx
    .select({ frozenAt: users.frozenAt })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!user || user.frozenAt) return;
  await updateUser(tx, userId, { frozenAt: sql`now()`, updatedAt: sql`now()` });
  const flagged = await queryRows(
    tx,
    sql`update transfer_requests set flagged_at = now(), updated_at = now()
        where user_id = ${userId} and status in ('pending', 'processing') and flagged_at is null
        returning id`,
    z.object({ id: z.string() }),
  );
  await writeAudit(tx, {
    actorId: actor.id,
    actorRole: actor.role,
    action: "user.freeze",
    targetType: "user",
    targetId: userId,
    after: { reason: "compliance_case", caseId, flaggedTransferIds: flagged.map((t) => t.id) },
  });
}

type DecisionRecord = typeof complianceCaseDecisions.$inferSelect;

/**
 * The row the customer's data-access view lists as "Reviewed your account", whatever the decision: one action
 * name, and the note kept out of `reason`, so it never tells what compliance found or decided, nor that there
 * was a case.
 */
function auditReviewed(
  tx: Tx,
  actor: CaseActor,
  row: CaseRecord,
  decision: DecisionRecord,
  checkerNote: string | undefined,
  after: Record<string, unknown>,
) {
  return writeAudit(tx, {
    actorId: actor.id,
    actorRole: actor.role,
    action: "compliance.account_reviewed",
    targetType: "compliance_case",
    targetId: row.id,
    subjectUserId: row.userId,
    before: { status: row.status },
    after: {
      decisionId: decision.id,
      makerId: decision.makerId,
      checkerId: actor.id,
      note: decision.note,
      checkerNote: checkerNote ?? null,
      ...after,
    },
  });
}

/** Clear, restrict, freeze, file or lift: the case takes its outcome (decisions 032, 039). */
async function applyCaseOutcome(
  tx: Tx,
  actor: CaseActor,
  row: CaseRecord,
  decision: DecisionRecord & { decision: Exclude<DecisionKind, "reject_transfer" | "block_transfer"> },
  note: string | undefined,
): Promise<void> {
  const outcome = CASE_OUTCOME[decision.decision];
  if (!row.userId && (decision.decision === "restrict" || decision.decision === "freeze")) {
    throw new AppError("CONFLICT", COMPLIANCE_MESSAGES.customerGone);
  }
  await tx
    .update(complianceCases)
    .set({
      status: outcome,
      decisionNote: decision.note,
      decidedBy: actor.id,
      decidedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(complianceCases.id, row.id));
  if (decision.decision === "freeze" && row.userId) await freezeCustomer(tx, actor, row.userId, row.id);
  // Clear and lift make the deposits held under the case available; the other outcomes keep them held.
  const releasedDeposits = outcome === "cleared" ? await releaseHeldDeposits(tx, row.id) : [];
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
  await auditReviewed(tx, actor, row, decision, note, {
    status: outcome,
    heldTransfers: held.map((t) => t.id),
    releasedDeposits,
  });
}

/**
 * Reject or block one held transfer (decision 048): the case keeps its status, the decision row keeps the day
 * the OFAC report is due. Answers whether the customer's e-mail waits in the outbox.
 */
async function applyTransferDecision(
  tx: Tx,
  actor: CaseActor,
  row: CaseRecord,
  decision: DecisionRecord & { decision: "reject_transfer" | "block_transfer" },
  note: string | undefined,
): Promise<boolean> {
  if (!decision.transferId)
    throw new AppError("stale_approval", COMPLIANCE_MESSAGES.transferSettledMeanwhile);
  const decided = await decideHeldTransfer(tx, actor, row.userId, {
    id: decision.id,
    decision: decision.decision,
    transferId: decision.transferId,
  });
  // The OFAC report is recorded with the decision (decision 055); a reject on a case without a sanctions hit
  // records none, and its decision shows no due day.
  const reportDueOn = await recordOfacReport(tx, {
    caseId: row.id,
    decisionId: decision.id,
    decision: decision.decision,
    transferId: decided.transferId,
    dueOn: decided.reportDueOn,
  });
  await tx
    .update(complianceCaseDecisions)
    .set({ reportDueOn })
    .where(eq(complianceCaseDecisions.id, decision.id));
  await tx.update(complianceCases).set({ updatedAt: sql`now()` }).where(eq(complianceCases.id, row.id));
  await auditReviewed(tx, actor, row, decision, note, {
    status: row.status,
    transferId: decided.transferId,
    transferOutcome: decision.decision === "block_transfer" ? "blocked" : "cancelled",
    reportDueOn,
  });
  return decided.mail;
}

const isTransferRecord = (
  d: DecisionRecord,
): d is DecisionRecord & { decision: "reject_transfer" | "block_transfer" } => isTransferDecision(d.decision);

/**
 * A second compliance member approves (the decision takes effect) or rejects it, saying why (the case stays as
 * it was, and a new decision may be proposed). The maker can do neither (403 selfApproval); a decided proposal
 * answers 409 (a replay, or a racing checker who lost the lock).
 */
export async function checkDecision(
  db: Db,
  actor: CaseActor,
  caseId: string,
  decisionId: string,
  verdict: "approve" | "reject",
  note: string | undefined,
): Promise<CaseActionResponse> {
  const checkerNote = note?.trim() || undefined;
  const mail = await db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    const decision = await lockDecision(tx, caseId, decisionId);
    if (decision.makerId === actor.id) throw new AppError("self_approval", COMPLIANCE_MESSAGES.selfCheck);
    if (!holdsAnyRole(await currentRoles(tx, actor.id), ["compliance"])) {
      throw new AppError("role_required", "Your staff role does not allow this", {
        allowedRoles: ["compliance", "owner"],
      });
    }
    // Who may reject, and what, is settled first (an unknown case or decision is a 404); then the reason.
    if (verdict === "reject" && (!checkerNote || checkerNote.length < 3)) {
      throw new AppError("reason_required", COMPLIANCE_MESSAGES.checkerReasonRequired, { field: "note" });
    }
    const status = verdict === "approve" ? "approved" : "rejected";
    await tx
      .update(complianceCaseDecisions)
      .set({ status, checkerId: actor.id, checkerNote: checkerNote ?? null, decidedAt: sql`now()` })
      .where(eq(complianceCaseDecisions.id, decision.id));
    if (verdict === "reject") {
      await auditStep(tx, actor, row, "case_decision_rejected", {
        decisionId: decision.id,
        decision: decision.decision,
        note: checkerNote ?? null,
      });
      return false;
    }
    mustAccept(row, decision.decision);
    if (isTransferRecord(decision)) return applyTransferDecision(tx, actor, row, decision, checkerNote);
    await applyCaseOutcome(
      tx,
      actor,
      row,
      decision as DecisionRecord & { decision: Exclude<DecisionKind, "reject_transfer" | "block_transfer"> },
      checkerNote,
    );
    return false;
  });
  if (mail) wakeMailWorker();
  return answer(
    db,
    caseId,
    verdict === "approve" ? COMPLIANCE_MESSAGES.decisionApproved : COMPLIANCE_MESSAGES.decisionRejected,
  );
}

/** Who a case can be assigned to: staff holding compliance or owner. */
export async function findComplianceMembers(db: Db) {
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`${users.staffRoles} && array['compliance', 'owner']::text[]`)
    .orderBy(users.email)
    .limit(500);
  return { items: rows };
}
