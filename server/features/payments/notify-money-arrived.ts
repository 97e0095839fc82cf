import { eq } from "drizzle-orm";
import { formatMoney } from "@/contract/money";
import type { Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { moneyArrivedMail } from "@/server/lib/mail/money-templates";
import { enqueueMail } from "@/server/lib/mail/outbox";

/** Queues the "money arrived" mail for a credit (incoming payment or admin credit), in the crediting transaction. */
export async function notifyMoneyArrived(
  tx: Tx,
  credit: { userId: string | null; amount: number; description: string },
): Promise<void> {
  if (!credit.userId) return;
  const [owner] = await tx.select().from(users).where(eq(users.id, credit.userId));
  if (owner)
    await enqueueMail(
      tx,
      moneyArrivedMail(owner.email, {
        firstName: owner.firstName,
        amount: formatMoney(credit.amount),
        description: credit.description,
      }),
    );
}
