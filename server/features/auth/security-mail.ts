import type { DbOrTx } from "@/server/db/client";
import { enqueueMail } from "@/server/lib/mail/outbox";
import { type SecondFactorEvent, secondFactorChangedMail } from "@/server/lib/mail/templates";

/** The one way second-factor changes reach the owner's inbox; call it in the transaction that makes the change. */
export async function enqueueSecondFactorMail(
  tx: DbOrTx,
  user: { email: string; firstName: string },
  event: SecondFactorEvent,
): Promise<void> {
  await enqueueMail(tx, secondFactorChangedMail(user.email, user.firstName, event));
}
