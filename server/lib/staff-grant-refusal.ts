import { sql } from "drizzle-orm";
import { z } from "zod";
import { STAFF_MANAGEMENT_MESSAGES, type StaffRole } from "@/contract/staff";
import { queryRows, type Tx } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";
import { lockWallet } from "@/server/lib/ledger";

// Shared by the owner's grants (server/features/staff) and the ADMIN_EMAILS promotion at sign-in
// (server/features/auth/open-session.ts): every way to become staff asks the same questions.

/**
 * Whether the account banks with Pillar: an identity check, an account request or any transaction. Such an
 * account never becomes staff: staff cannot send transfers (their money would be stuck), and nobody should
 * review their own identity check or credit their own wallet. Staff work from a separate account.
 */
async function banksWithUs(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await queryRows(
    tx,
    sql`
    select (exists (select 1 from kyc_applications where user_id = ${userId})
            or exists (select 1 from account_requests where user_id = ${userId})
            or exists (select 1 from transactions where user_id = ${userId})) as banks`,
    z.object({ banks: z.boolean() }),
  );
  return row?.banks === true;
}

/**
 * Whether money sits on the account or is on its way to or from it: a balance or hold, a pending transfer, an
 * incoming payment or admin credit not yet settled, or a pending approval about the account. Staff never
 * bank, so a grant waits until none is left; otherwise a credit approved after the grant would land with a
 * staff member. The wallet is locked first: every credit and transfer locks it too, so none races the check.
 */
async function hasMoneyInFlight(tx: Tx, userId: string): Promise<boolean> {
  const wallet = await lockWallet(tx, userId);
  if (wallet.balance !== 0 || wallet.held !== 0) return true;
  const [row] = await queryRows(
    tx,
    sql`
    select (exists (select 1 from transfer_requests
                    where user_id = ${userId} and status in ('pending', 'processing'))
            or exists (select 1 from incoming_payments
                       where user_id = ${userId} and status in ('pending', 'processing'))
            or exists (select 1 from transactions
                       where user_id = ${userId} and status not in ('completed', 'failed', 'cancelled'))
            or exists (select 1 from approvals where user_id = ${userId} and status = 'pending')) as busy`,
    z.object({ busy: z.boolean() }),
  );
  return row?.busy === true;
}

/**
 * The refusal when `user` may not take a staff role now, or null: a customer who banks never becomes staff,
 * and nobody becomes (more) staff while money is on the account or on its way. Runs under the user row's lock.
 */
export async function staffGrantRefusal(
  tx: Tx,
  user: { id: string; staffRoles: readonly StaffRole[] },
): Promise<AppError | null> {
  if (user.staffRoles.length === 0 && (await banksWithUs(tx, user.id))) {
    return new AppError("customer_account", STAFF_MANAGEMENT_MESSAGES.customerAccount);
  }
  if (await hasMoneyInFlight(tx, user.id)) {
    return new AppError("money_in_flight", STAFF_MANAGEMENT_MESSAGES.moneyInFlight);
  }
  return null;
}
