import { eq } from "drizzle-orm";
import { formatMoney } from "@/contract/money";
import type { Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { moneyArrivedMail } from "@/server/lib/mail/money-templates";
import { notify } from "@/server/lib/notifications";

/**
 * Tells the owner a credit (incoming payment or admin credit) arrived, in the crediting transaction: the
 * notification centre and the "money arrived" mail, each as the customer chose for deposits and credits.
 */
export async function notifyMoneyArrived(
  tx: Tx,
  credit: { userId: string | null; amount: number; description: string },
): Promise<void> {
  if (!credit.userId) return;
  const [owner] = await tx.select().from(users).where(eq(users.id, credit.userId));
  if (!owner) return;
  const amount = formatMoney(credit.amount);
  await notify(
    tx,
    owner.id,
    "money_in",
    { title: `${amount} arrived`, body: credit.description, link: "/dashboard" },
    moneyArrivedMail(owner.email, { firstName: owner.firstName, amount, description: credit.description }),
  );
}
