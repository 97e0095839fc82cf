import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AccountSummary } from "@/contract/transactions";
import { type Db, type DbOrTx, queryRows } from "@/server/db/client";
import { preparedPerDatabase } from "@/server/db/prepared";
import { getBalances } from "@/server/features/accounts/account-queries";
import {
  currentOnboardingDigests,
  currentOnboardingJoins,
  getKycStatus,
} from "@/server/features/kyc/get-kyc-status";
import { type Conditional, loadConditional, userEtag } from "@/server/lib/conditional-reply";

/** Whether money may leave: the can_send_money SQL function, the rule create_transfer_request enforces. */
async function canSendMoney(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`select can_send_money(${userId}::uuid) as open`,
    z.object({ open: z.boolean() }),
  );
  return row!.open;
}

/**
 * Account summary: display balances plus the current KYC and account request, and the send-money gate
 * as the server decides it, which the web shows rather than re-deriving (decision 019).
 */
export async function getAccountSummary(db: DbOrTx, userId: string): Promise<AccountSummary> {
  const [balances, onboarding, open] = await Promise.all([
    getBalances(db, userId),
    getKycStatus(db, userId),
    canSendMoney(db, userId),
  ]);
  return { ...balances, kyc: onboarding.kyc, accountRequest: onboarding.accountRequest, canSendMoney: open };
}

/** The summary's ETag: the wallet's balance and held plus the current onboarding rows, in one small query. */
const summaryVersionQuery = preparedPerDatabase((db) =>
  db
    .select({
      v: sql<string>`concat_ws('/',
           coalesce(w.balance::text || ':' || w.held::text, '-'),
           ${currentOnboardingDigests})`,
    })
    .from(
      sql`(select ${sql.placeholder("userId")}::uuid as id) u
          left join ledger_accounts w on w.user_id = u.id
          ${currentOnboardingJoins}`,
    )
    .prepare("account_summary_version"),
);

async function accountSummaryVersion(db: Db, userId: string): Promise<string> {
  const [row] = await summaryVersionQuery(db).execute({ userId });
  return row!.v;
}

/** GET /api/account/summary as a conditional request: a current copy costs one small query and a 304. */
export async function getAccountSummaryIfChanged(
  db: Db,
  userId: string,
  ifNoneMatch: string | undefined,
): Promise<Conditional<AccountSummary>> {
  const etag = userEtag("summary", userId, await accountSummaryVersion(db, userId));
  return loadConditional(ifNoneMatch, etag, () => getAccountSummary(db, userId));
}
