import type { DbOrTx } from "@/server/db/client";
import { enqueueMail } from "@/server/lib/mail/outbox";
import { passkeyAddedMail, passkeyRemovedMail } from "@/server/lib/mail/templates";

/**
 * The one place passkey changes are mailed from, inside the caller's transaction (a "This wasn't me" link
 * joins here later). The caller wakes the mail worker after commit.
 */
export async function notifyPasskeyChange(
  tx: DbOrTx,
  user: { email: string; firstName: string },
  change: { kind: "added" | "removed"; passkeyName: string },
): Promise<void> {
  const mail = change.kind === "added" ? passkeyAddedMail : passkeyRemovedMail;
  await enqueueMail(tx, mail(user.email, user.firstName, change.passkeyName));
}
