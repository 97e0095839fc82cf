import { eq } from "drizzle-orm";
import { CHAT_MESSAGES, type ChatCustomer } from "@/contract/chat";
import { formatMoney } from "@/contract/money";
import type { Db } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";

/** Who support is talking to: profile, onboarding state, balances and latest transfers. */
export async function getChatCustomer(db: Db, userId: string): Promise<ChatCustomer> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("NOT_FOUND", CHAT_MESSAGES.userNotFound);
  const zero = formatMoney(0);
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    pillarTag: user.pillarTag,
    phoneNumber: user.phoneNumber,
    status: user.status,
    memberSince: user.createdAt.toISOString(),
    // Filled when the ledger / KYC land: KYC and account-request status, balances and the last five transfers.
    kycStatus: null,
    accountRequestStatus: null,
    totalBalance: zero,
    availableBalance: zero,
    pendingBalance: zero,
    recentTransfers: [],
  };
}
