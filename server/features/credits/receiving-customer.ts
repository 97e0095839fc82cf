import { and, eq, isNull } from "drizzle-orm";
import { CLOSURE_MESSAGES } from "@/contract/closure";
import { PAYMENT_MESSAGES } from "@/contract/credits";
import type { Tx } from "@/server/db/client";
import { accountRequests, users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";

export interface ReceivingCustomer {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export const staffCannotReceive = () =>
  new AppError("staff_cannot_receive", PAYMENT_MESSAGES.staffCannotReceive);

/**
 * The customer an incoming payment or admin credit is for, share-locked (a deletion or a staff grant waits),
 * when they may receive money: never staff (409 staffAccount: staff never bank), never a closed account (403
 * accountClosed), and only with an open checking account (409 accountNotOpen). Checked when the payment or credit is made and again when it posts,
 * so a grant or anything else that happened in between cannot slip money through.
 */
export async function lockReceivingCustomer(tx: Tx, userId: string): Promise<ReceivingCustomer> {
  const [owner] = await tx
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      staffRoles: users.staffRoles,
      closedAt: users.closedAt,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for("share");
  if (!owner) throw new AppError("NOT_FOUND", "User not found");
  if (owner.staffRoles.length > 0) throw staffCannotReceive();
  // A closed account receives nothing (decision 059): a deposit to it stays uncredited, a credit is refused.
  if (owner.closedAt) {
    throw new AppError("account_closed", CLOSURE_MESSAGES.accountClosed, {
      closedAt: owner.closedAt.toISOString(),
    });
  }
  const [open] = await tx
    .select({ id: accountRequests.id })
    .from(accountRequests)
    .where(
      and(
        eq(accountRequests.userId, userId),
        isNull(accountRequests.supersededAt),
        eq(accountRequests.status, "approved"),
      ),
    );
  if (!open) throw new AppError("account_not_open", PAYMENT_MESSAGES.accountNotOpen);
  const { staffRoles: _, closedAt: __, ...customer } = owner;
  return customer;
}

/** Whether the account holds a staff role now, share-locked like lockReceivingCustomer (balance adjustments). */
export async function isStaffAccount(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ staffRoles: users.staffRoles })
    .from(users)
    .where(eq(users.id, userId))
    .for("share");
  return (row?.staffRoles.length ?? 0) > 0;
}
