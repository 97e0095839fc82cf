import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { formatBankTime } from "@/contract/bank-time";
import {
  type AccountClosure,
  CLOSURE_BLOCKER_MESSAGES,
  CLOSURE_BLOCKERS,
  CLOSURE_MESSAGES,
  type CloseAccountResponse,
} from "@/contract/closure";
import { SECURITY_MESSAGES } from "@/contract/security";
import { SELF_LIMIT_MESSAGES } from "@/contract/self-limits";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows, type Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { stepUpRequired } from "@/server/features/auth/second-factor";
import { getStepUpState } from "@/server/features/auth/step-up";
import { closureMail } from "@/server/features/closure/closure-mail";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { lockWallet } from "@/server/lib/ledger";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { notify } from "@/server/lib/notifications";
import { verifyPassword } from "@/server/lib/passwords";
import type { SessionRef } from "@/server/lib/session";
import { updateUser } from "@/server/lib/write-user";

const closedOnFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  dateStyle: "long",
});

function closureOf(row: { closedAt: Date; closedBy: string | null }, ownerId: string): AccountClosure {
  return {
    closedAt: row.closedAt.toISOString(),
    closedBy: row.closedBy === ownerId ? "customer" : "staff",
    closedOn: closedOnFormat.format(row.closedAt),
  };
}

/** GET /api/account/closure: the closure of the signed-in customer's account, or null while it is open. */
export async function getClosure(db: DbOrTx, userId: string): Promise<{ closure: AccountClosure | null }> {
  const [row] = await db
    .select({ closedAt: users.closedAt, closedBy: users.closedBy })
    .from(users)
    .where(eq(users.id, userId));
  return {
    closure: row?.closedAt ? closureOf({ closedAt: row.closedAt, closedBy: row.closedBy }, userId) : null,
  };
}

export interface ClosingCustomer {
  id: string;
  isAdmin: boolean;
  session?: SessionRef | null;
}

/**
 * The customer's own closure needs the proof decision 047 asks before a change that keeps money in: this session's
 * step-up within five minutes when a second factor is enrolled, else the account password (a cookie or an
 * injected script does not carry it).
 */
async function confirmOwner(deps: AppDeps, user: ClosingCustomer, password: string | undefined) {
  const { db } = deps.database;
  const state = await getStepUpState(db, user.id, user.session ?? { idHash: "", publicId: "" });
  if (state.enabled) {
    if (!state.fresh) throw stepUpRequired(state.methods);
    return;
  }
  if (password === undefined) {
    throw new AppError("password_confirm_required", SELF_LIMIT_MESSAGES.passwordConfirmRequired);
  }
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id));
  if (!row || !(await verifyPassword(row.passwordHash, password))) {
    throw new AppError("password_wrong", SECURITY_MESSAGES.passwordWrong);
  }
}

/** POST /api/account/close: the customer closes their own account. */
export async function closeOwnAccount(
  deps: AppDeps,
  user: ClosingCustomer,
  input: { password?: string },
): Promise<CloseAccountResponse> {
  if (user.isAdmin) throw new AppError("FORBIDDEN", CLOSURE_MESSAGES.staffCannotClose);
  await confirmOwner(deps, user, input.password);
  const closure = await closeAccount(deps, { actorId: user.id, actorRole: null }, user.id, null);
  return { message: CLOSURE_MESSAGES.closed, closure };
}

/** POST /api/admin/users/:userId/close: staff close a customer's account, with the reason. */
export async function closeAccountByStaff(
  deps: AppDeps,
  staff: { id: string; staffRoles: readonly string[] },
  userId: string,
  reason: string,
): Promise<CloseAccountResponse> {
  const actorRole = staff.staffRoles.includes("compliance") ? "compliance" : (staff.staffRoles[0] ?? null);
  const closure = await closeAccount(deps, { actorId: staff.id, actorRole }, userId, reason);
  return { message: CLOSURE_MESSAGES.closedByStaff, closure };
}

const blockerRow = z.object({ blocker: z.enum(CLOSURE_BLOCKERS).nullable() });

/**
 * Closes the account in one transaction: the user row (FOR NO KEY UPDATE) and then the wallet are locked (the order
 * a deletion and a credit take them in), every refusal is re-read under those locks by closure_blocker, and the closure, its audit
 * row and the customer's notice (in-app and e-mail) commit together. A transfer or payment racing the closure
 * either committed first (and closure_blocker sees it) or waits for the locks and meets a closed account.
 */
async function closeAccount(
  deps: AppDeps,
  actor: { actorId: string; actorRole: string | null },
  userId: string,
  reason: string | null,
): Promise<AccountClosure> {
  const { db } = deps.database;
  const closure = await db.transaction(async (tx: Tx) => {
    // NO KEY UPDATE, not UPDATE: a payment into this wallet that locked it first writes rows naming this user,
    // whose foreign keys take KEY SHARE on the row; FOR UPDATE would make it wait for this transaction while this
    // one waits for its wallet (a deadlock, answered 500). Closing changes no key, so the payment commits first
    // and closure_blocker then sees its money.
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("no key update");
    if (!user) throw new AppError("NOT_FOUND", "User not found");
    if (user.isAdmin) throw new AppError("FORBIDDEN", CLOSURE_MESSAGES.staffCannotClose);
    if (user.closedAt) {
      throw new AppError("account_already_closed", CLOSURE_MESSAGES.alreadyClosed, {
        closedAt: user.closedAt.toISOString(),
      });
    }
    await lockWallet(tx, userId);
    const [row] = await queryRows(tx, sql`select closure_blocker(${userId}::uuid) as blocker`, blockerRow);
    if (row?.blocker) {
      throw new AppError("closure_blocked", CLOSURE_BLOCKER_MESSAGES[row.blocker], {
        closureBlocker: row.blocker,
      });
    }
    // A savings account left open owes nothing (closure_blocker refused one that might): it closes with the account,
    // and the credit job settles its month's row at zero (less than a cent is given up, as close_savings does).
    await tx.execute(
      sql`update savings_accounts set closed_at = now() where user_id = ${userId} and closed_at is null`,
    );
    await updateUser(tx, userId, {
      closedAt: sql`now()`,
      closedBy: actor.actorId,
      closureReason: reason,
      status: "closed",
      updatedAt: sql`now()`,
    });
    const [closed] = await tx
      .select({ closedAt: users.closedAt, closedBy: users.closedBy })
      .from(users)
      .where(eq(users.id, userId));
    const view = closureOf({ closedAt: closed!.closedAt!, closedBy: closed!.closedBy }, userId);
    await writeAudit(tx, {
      actorId: actor.actorId,
      actorRole: actor.actorRole,
      action: "account.close",
      targetType: "user",
      targetId: userId,
      subjectUserId: userId,
      reason,
      before: { status: user.status, closedAt: null },
      after: { status: "closed", closedAt: view.closedAt, closedBy: view.closedBy },
    });
    const when = formatBankTime(closed!.closedAt!);
    await notify(
      tx,
      userId,
      "security",
      {
        title: CLOSURE_MESSAGES.noticeTitle,
        body: `Your account was closed on ${when}. You can still sign in to read and download your statements.`,
        link: "/statements",
      },
      closureMail(user.email, { firstName: user.firstName, when, byStaff: view.closedBy === "staff" }),
    );
    return view;
  });
  wakeMailWorker();
  return closure;
}
