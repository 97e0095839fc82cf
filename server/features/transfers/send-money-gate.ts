import { TRANSFER_MESSAGES } from "@/contract/transfers";
import type { DbOrTx } from "@/server/db/client";
import { findCurrentOnboarding } from "@/server/features/kyc/get-kyc-status";
import { AppError } from "@/server/lib/errors";

/** DESIGN: an outgoing transfer needs an approved account with a number and an approved KYC. */
export async function assertCanSendMoney(db: DbOrTx, userId: string): Promise<void> {
  const { kyc, accountRequest } = await findCurrentOnboarding(db, userId);
  const isAccountReady = accountRequest?.status === "approved" && Boolean(accountRequest.accountNumber);
  if (!isAccountReady || kyc?.status !== "approved") {
    throw new AppError("FORBIDDEN", TRANSFER_MESSAGES.setupIncomplete, { accountSetupIncomplete: true });
  }
}
