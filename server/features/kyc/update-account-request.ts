import { randomInt } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  ACCOUNT_NUMBER_MAX,
  ACCOUNT_NUMBER_MIN,
  DEFAULT_ROUTING_NUMBER,
  ONBOARDING_ADMIN_MESSAGES,
  type UpdateAccountRequestInput,
  type UpdateAccountRequestResponse,
} from "@/contract/admin-onboarding";
import type { Db, Tx } from "@/server/db/client";
import { accountRequests, kycApplications, users } from "@/server/db/schema";
import { toAdminAccountRequest } from "@/server/features/kyc/kyc-views";
import { writeAudit } from "@/server/lib/audit";
import { AppError, pgErrorCode } from "@/server/lib/errors";
import { openWallet } from "@/server/lib/ledger";
import { accountApprovedMail, accountRejectedMail } from "@/server/lib/mail/onboarding-templates";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { notify } from "@/server/lib/notifications";

const numberTaken = () => new AppError("CONFLICT", ONBOARDING_ADMIN_MESSAGES.accountNumberTaken);

async function isAccountNumberTaken(tx: Tx, accountNumber: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: accountRequests.id })
    .from(accountRequests)
    .where(eq(accountRequests.accountNumber, accountNumber))
    .limit(1);
  return Boolean(row);
}

/** A random 9-digit number (100000000–999999999) no account holds yet; the unique index backs this up. */
async function drawAccountNumber(tx: Tx): Promise<string> {
  for (;;) {
    const candidate = String(randomInt(ACCOUNT_NUMBER_MIN, ACCOUNT_NUMBER_MAX + 1));
    if (!(await isAccountNumberTaken(tx, candidate))) return candidate;
  }
}

/**
 * An admin sets any status on an account request. Approval assigns the account number and routing number once
 * (kept on later moves), stamps approvedAt, and opens the wallet; every change is audited and the user is
 * mailed on approval and rejection.
 */
export async function updateAccountRequest(
  db: Db,
  actorId: string,
  id: string,
  input: UpdateAccountRequestInput,
): Promise<UpdateAccountRequestResponse> {
  try {
    const result = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(accountRequests).where(eq(accountRequests.id, id)).for("update");
      if (!row) throw new AppError("NOT_FOUND", ONBOARDING_ADMIN_MESSAGES.accountRequestNotFound);
      if (row.supersededAt) throw new AppError("CONFLICT", ONBOARDING_ADMIN_MESSAGES.superseded);
      const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
      const isApproving = input.status === "approved";
      const becomesApproved = isApproving && row.status !== "approved";
      // The customer's current identity check, share-locked: a KYC decision racing this one waits.
      const [kyc] = await tx
        .select({ status: kycApplications.status })
        .from(kycApplications)
        .where(and(eq(kycApplications.userId, row.userId), isNull(kycApplications.supersededAt)))
        .for("share");
      if (becomesApproved) {
        // An account opens only for a verified identity.
        if (kyc?.status !== "approved") {
          throw new AppError(
            "identity_not_approved",
            ONBOARDING_ADMIN_MESSAGES.identityNotApproved,
            kyc ? { status: kyc.status } : {},
          );
        }
      }

      let accountNumber = row.accountNumber;
      if (isApproving && !accountNumber) {
        if (input.accountNumber && (await isAccountNumberTaken(tx, input.accountNumber))) throw numberTaken();
        accountNumber = input.accountNumber ?? (await drawAccountNumber(tx));
      }
      const [updated] = await tx
        .update(accountRequests)
        .set({
          status: input.status,
          statusMessage: input.statusMessage === undefined ? row.statusMessage : input.statusMessage,
          adminNotes: input.adminNotes === undefined ? row.adminNotes : input.adminNotes,
          accountNumber,
          routingNumber: isApproving
            ? (row.routingNumber ?? input.routingNumber ?? DEFAULT_ROUTING_NUMBER)
            : row.routingNumber,
          approvedAt: becomesApproved ? sql`now()` : row.approvedAt,
          updatedAt: sql`now()`,
        })
        .where(eq(accountRequests.id, id))
        .returning();
      // Wallets open at sign-up; this (idempotent) covers accounts created before the ledger existed.
      if (becomesApproved) await openWallet(tx, row.userId);

      const snapshot = (r: typeof row) => ({
        status: r.status,
        statusMessage: r.statusMessage,
        adminNotes: r.adminNotes,
        accountNumber: r.accountNumber,
        routingNumber: r.routingNumber,
      });
      await writeAudit(tx, {
        actorId,
        action: "account_request.update",
        targetType: "account_request",
        targetId: id,
        before: snapshot(row),
        after: snapshot(updated!),
      });
      if (becomesApproved) {
        await notify(
          tx,
          row.userId,
          "account_decision",
          { title: "Checking account approved", body: "Your checking account is open.", link: "/dashboard" },
          accountApprovedMail(user!.email, user!.firstName, accountNumber!),
        );
      }
      if (input.status === "rejected" && row.status !== "rejected") {
        await notify(
          tx,
          row.userId,
          "account_decision",
          {
            title: "Checking account not approved",
            body: updated!.statusMessage ?? "Your checking account application was not approved.",
            link: "/dashboard",
          },
          accountRejectedMail(user!.email, user!.firstName, updated!.statusMessage),
        );
      }
      return toAdminAccountRequest(updated!, user!, kyc?.status ?? null);
    });
    wakeMailWorker();
    return { message: ONBOARDING_ADMIN_MESSAGES.accountRequestUpdated, accountRequest: result };
  } catch (err) {
    if (pgErrorCode(err) === "23505") throw numberTaken();
    throw err;
  }
}
