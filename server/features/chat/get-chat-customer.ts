import { desc, eq } from "drizzle-orm";
import { CHAT_MESSAGES, type ChatCustomer } from "@/contract/chat";
import { maskDateOfBirth } from "@/contract/kyc";
import { formatMoney } from "@/contract/money";
import type { Db } from "@/server/db/client";
import { transferRequests, users } from "@/server/db/schema";
import { findCurrentOnboarding } from "@/server/features/kyc/get-kyc-status";
import { toOnboardingUser } from "@/server/features/kyc/kyc-views";
import { AppError } from "@/server/lib/errors";
import { findWallet, walletBalances } from "@/server/lib/ledger";

/** Who support is talking to: profile, onboarding state, balances and latest transfers. */
export async function getChatCustomer(db: Db, userId: string): Promise<ChatCustomer> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("NOT_FOUND", CHAT_MESSAGES.userNotFound);
  const [onboarding, wallet, transfers] = await Promise.all([
    findCurrentOnboarding(db, userId),
    findWallet(db, userId),
    db
      .select()
      .from(transferRequests)
      .where(eq(transferRequests.userId, userId))
      .orderBy(desc(transferRequests.createdAt), desc(transferRequests.id))
      .limit(5),
  ]);
  const { totalBalance, availableBalance, pendingBalance } = walletBalances(wallet);
  return {
    ...toOnboardingUser(user),
    status: user.status,
    memberSince: user.createdAt.toISOString(),
    kycStatus: onboarding.kyc?.status ?? null,
    // Support sees the year only; compliance reveals the full date, audited.
    dateOfBirth: maskDateOfBirth(onboarding.kyc?.dateOfBirth),
    accountRequestStatus: onboarding.accountRequest?.status ?? null,
    totalBalance,
    availableBalance,
    pendingBalance,
    recentTransfers: transfers.map((t) => ({
      id: t.id,
      amount: formatMoney(t.amount),
      recipientName: t.recipientName,
      status: t.status,
      createdAt: t.createdAt.toISOString(),
    })),
  };
}
