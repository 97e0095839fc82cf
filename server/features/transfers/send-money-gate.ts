import { type SQL, sql } from "drizzle-orm";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { AppError } from "@/server/lib/errors";

/**
 * DESIGN: an outgoing transfer needs an approved account with a number and an approved KYC, both current.
 * A boolean SQL expression, so the transfer path reads it in the same query as its other checks.
 */
export function canSendMoney(userId: string): SQL<boolean> {
  return sql<boolean>`(
    exists (select 1 from kyc_applications k
            where k.user_id = ${userId} and k.superseded_at is null and k.status = 'approved')
    and exists (select 1 from account_requests a
                where a.user_id = ${userId} and a.superseded_at is null and a.status = 'approved'
                  and a.account_number is not null))`;
}

export function setupIncompleteError(): AppError {
  return new AppError("FORBIDDEN", TRANSFER_MESSAGES.setupIncomplete, { accountSetupIncomplete: true });
}
