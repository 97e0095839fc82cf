import { sql } from "drizzle-orm";
import { z } from "zod";
import { CREDIT_WINDOW_HOURS } from "@/contract/approvals";
import { queryRows, type Tx } from "@/server/db/client";

/** Advisory-lock namespaces (first key of the two-key form): one per maker, one per receiving customer. */
const MAKER_WINDOW_LOCK = 26_005;
const CUSTOMER_WINDOW_LOCK = 26_006;

export interface CreditWindow {
  /** What the maker credited in the window, this credit included (cents). */
  makerCents: number;
  /** What the customer received in the window, this credit included (cents). */
  customerCents: number;
}

/**
 * Locks the maker's and the customer's credit windows for the rest of the transaction, so two credits racing
 * cannot both read a total below the threshold. Taken before any row lock and always maker first, so two
 * credits never wait on each other in a cycle. On PGlite transactions run one at a time anyway.
 */
async function lockCreditWindow(tx: Tx, makerId: string, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${MAKER_WINDOW_LOCK}, hashtext(${makerId}))`);
  await tx.execute(sql`select pg_advisory_xact_lock(${CUSTOMER_WINDOW_LOCK}, hashtext(${userId}))`);
}

/**
 * Locks both windows, then totals them with `amount` added (decision 017): money staff credited to a wallet in
 * the last CREDIT_WINDOW_HOURS (admin credits and incoming payments, whoever approved them; the journal entry's
 * actor is the maker, also when a checker approved it) plus credits waiting for approval asked for in that time.
 * Rejected, failed and cancelled credits moved nothing and do not count; neither do credits still pending
 * without an approval, which the check meets when they complete.
 */
export async function lockedCreditWindow(
  tx: Tx,
  makerId: string,
  userId: string,
  amount: number,
): Promise<CreditWindow> {
  await lockCreditWindow(tx, makerId, userId);
  const since = sql`now() - make_interval(hours => ${CREDIT_WINDOW_HOURS})`;
  const [row] = await queryRows(
    tx,
    sql`
    select
      (select coalesce(sum(p.amount), 0) from journal_entries e
         join postings p on p.entry_id = e.id
         join ledger_accounts a on a.id = p.account_id and a.kind = 'wallet'
       where e.actor_id = ${makerId} and e.kind in ('admin_credit', 'incoming_payment')
         and e.created_at > ${since})
      + (select coalesce(sum(amount), 0) from approvals
         where maker_id = ${makerId} and status = 'pending' and kind in ('credit', 'incoming_payment')
           and created_at > ${since}) as maker,
      (select coalesce(sum(p.amount), 0) from ledger_accounts a
         join postings p on p.account_id = a.id
         join journal_entries e on e.id = p.entry_id
       where a.user_id = ${userId} and a.kind = 'wallet'
         and e.kind in ('admin_credit', 'incoming_payment') and e.created_at > ${since})
      + (select coalesce(sum(amount), 0) from approvals
         where user_id = ${userId} and status = 'pending' and kind in ('credit', 'incoming_payment')
           and created_at > ${since}) as customer`,
    z.object({ maker: z.coerce.number(), customer: z.coerce.number() }),
  );
  return { makerCents: Number(row!.maker) + amount, customerCents: Number(row!.customer) + amount };
}

/** The credit waits for a second person when it takes either total past the threshold (exactly it does not). */
export const passesThreshold = (window: CreditWindow, threshold: number) =>
  window.makerCents > threshold || window.customerCents > threshold;
