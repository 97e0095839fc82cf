import { and, asc, eq, gte, inArray } from "drizzle-orm";
import {
  BLOCKED_REPORT_BUSINESS_DAYS,
  COMPLIANCE_MESSAGES,
  type HeldTransfer,
  type TransferDecision,
} from "@/contract/compliance";
import { bankToday } from "@/contract/kyc";
import { formatMoney } from "@/contract/money";
import type { DbOrTx, Tx } from "@/server/db/client";
import { payouts, transactions, transferRequests, users } from "@/server/db/schema";
import { addBusinessDays } from "@/server/features/compliance/business-days";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { captureHold, lockWallet, releaseHold, systemAccountId } from "@/server/lib/ledger";
import { transferSettledMail } from "@/server/lib/mail/money-templates";
import { notify } from "@/server/lib/notifications";
import { writtenSince } from "@/server/lib/partitions";

const HELD_STATUSES = ["pending", "processing"] as const;
const MAX_LISTED = 100;

/** The customer's transfers a case holds (every pending or processing one, as heldTransfers counts), oldest first. */
export async function findHeldTransfers(db: DbOrTx, userId: string | null): Promise<HeldTransfer[]> {
  if (!userId) return [];
  const rows = await db
    .select()
    .from(transferRequests)
    .where(and(eq(transferRequests.userId, userId), inArray(transferRequests.status, [...HELD_STATUSES])))
    .orderBy(asc(transferRequests.createdAt), asc(transferRequests.id))
    .limit(MAX_LISTED);
  return rows.map((r) => ({
    id: r.id,
    amountCents: r.amount,
    formattedAmount: formatMoney(r.amount),
    recipientName: r.recipientName,
    cryptoAddress: r.cryptoAddress,
    status: r.status as HeldTransfer["status"],
    createdAt: r.createdAt.toISOString(),
  }));
}

/**
 * A transfer a reject or block may name: the case customer's, still pending or processing, and with no payout
 * (a payout queued before the case opened belongs to the payout worker, which screens it again at signing).
 * Read under the caller's locks when `lock` is set.
 */
export async function findDecidableTransfer(tx: Tx, userId: string | null, transferId: string, lock = false) {
  if (!userId) throw new AppError("CONFLICT", COMPLIANCE_MESSAGES.transferNotHeld);
  const query = tx
    .select()
    .from(transferRequests)
    .where(and(eq(transferRequests.id, transferId), eq(transferRequests.userId, userId)));
  const [request] = lock ? await query.for("update") : await query;
  if (!request || !(HELD_STATUSES as readonly string[]).includes(request.status)) {
    throw new AppError("CONFLICT", COMPLIANCE_MESSAGES.transferNotHeld);
  }
  const [payout] = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(eq(payouts.transferRequestId, request.id));
  if (payout) throw new AppError("CONFLICT", COMPLIANCE_MESSAGES.transferNotHeld);
  return request;
}

export interface TransferDecided {
  transferId: string;
  reportDueOn: string;
  /** The customer's "cancelled" e-mail waits in the outbox: wake the mail worker after the commit. */
  mail: boolean;
}

/**
 * An approved reject_transfer or block_transfer, in the approval's transaction (the case row already locked, then
 * the wallet and the transfer, the order every money path takes). Reject is staff's cancel: the hold
 * released, the money available again, the customer told as for any cancel. Block moves the held amount out of the wallet into blocked_funds as one
 * entry that captures the hold (no fee: nothing was sent), and the transfer ends `blocked`. Either is due to OFAC
 * within 10 business days of today (New York); a transfer that settled meanwhile refuses, and nothing changes.
 */
export async function decideHeldTransfer(
  tx: Tx,
  actor: { id: string; role: string },
  userId: string | null,
  decision: { id: string; decision: TransferDecision; transferId: string },
): Promise<TransferDecided> {
  const reportDueOn = addBusinessDays(bankToday(), BLOCKED_REPORT_BUSINESS_DAYS);
  if (!userId) throw new AppError("stale_approval", COMPLIANCE_MESSAGES.transferSettledMeanwhile);
  const wallet = await lockWallet(tx, userId);
  const request = await findDecidableTransfer(tx, userId, decision.transferId, true).catch((err) => {
    if (err instanceof AppError) {
      throw new AppError("stale_approval", COMPLIANCE_MESSAGES.transferSettledMeanwhile);
    }
    throw err;
  });
  if (!request.holdId || !request.transactionId) {
    throw new AppError("stale_approval", COMPLIANCE_MESSAGES.transferSettledMeanwhile);
  }
  const isBlock = decision.decision === "block_transfer";
  const status = isBlock ? "blocked" : "cancelled";
  let entryId: string | null = null;
  if (isBlock) {
    entryId = await captureHold(tx, request.holdId, {
      kind: "compliance_block",
      description: `Blocked transfer to ${request.recipientName}`,
      referenceType: "transfer_request",
      referenceId: request.id,
      actorId: actor.id,
      postings: [
        { accountId: wallet.id, amount: -request.amount },
        { accountId: await systemAccountId(tx, "blocked_funds"), amount: request.amount },
      ],
    });
  } else {
    await releaseHold(tx, request.holdId);
  }
  const now = new Date();
  await tx
    .update(transferRequests)
    .set({ status, updatedAt: now, settledAt: now })
    .where(eq(transferRequests.id, request.id));
  await tx
    .update(transactions)
    // A blocked debit took the whole amount and no fee: the statement's fees and the history must not show one.
    .set({ status, ...(entryId ? { entryId, fee: 0, netAmount: request.amount } : {}), updatedAt: now })
    .where(
      and(
        eq(transactions.id, request.transactionId),
        gte(transactions.createdAt, writtenSince(request.createdAt)),
      ),
    );
  await writeAudit(tx, {
    actorId: actor.id,
    actorRole: actor.role,
    action: isBlock ? "transfer.blocked_by_compliance" : "transfer.rejected_by_compliance",
    targetType: "transfer_request",
    targetId: request.id,
    before: { status: request.status },
    after: { status, entryId, decisionId: decision.id, reportDueOn },
  });
  return { transferId: request.id, reportDueOn, mail: await tellCustomer(tx, userId, request, isBlock) };
}

/**
 * Neutral words, as every review is worded to the customer: never a list, a case or a reason. A rejected
 * transfer reads as any cancelled one (its notice and e-mail); a blocked one as not sent.
 */
async function tellCustomer(
  tx: Tx,
  userId: string,
  request: typeof transferRequests.$inferSelect,
  isBlock: boolean,
): Promise<boolean> {
  const amount = formatMoney(request.amount);
  const link = `/transfers/${request.id}`;
  if (isBlock) {
    await notify(tx, userId, "transfer_status", {
      title: "Transfer not sent",
      body: `Your transfer of ${amount} to ${request.recipientName} was not sent. Contact support about its funds.`,
      link,
    });
    return false;
  }
  const [owner] = await tx
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, userId));
  await notify(
    tx,
    userId,
    "transfer_status",
    {
      title: "Transfer cancelled",
      body: `Your transfer of ${amount} to ${request.recipientName} is cancelled.`,
      link,
    },
    owner
      ? transferSettledMail(owner.email, {
          firstName: owner.firstName,
          status: "cancelled",
          amount,
          recipientName: request.recipientName,
        })
      : undefined,
  );
  return owner !== undefined;
}
