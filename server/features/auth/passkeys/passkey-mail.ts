import type { AppDeps } from "@/server/app-deps";
import type { DbOrTx } from "@/server/db/client";
import { enqueueSecondFactorMail } from "@/server/features/auth/security-mail";

/**
 * The one place passkey changes are mailed from, inside the caller's transaction, with a "This wasn't me"
 * link. The caller wakes the mail worker after commit.
 */
export async function notifyPasskeyChange(
  tx: DbOrTx,
  deps: Pick<AppDeps, "config">,
  user: { id: string; email: string; firstName: string },
  { kind, passkeyName }: { kind: "added" | "removed"; passkeyName: string },
): Promise<void> {
  await enqueueSecondFactorMail(
    tx,
    deps,
    user,
    kind === "added"
      ? {
          subject: "a passkey was added to your account",
          change: `A passkey named "${passkeyName}" was added to your account. It can now be used to sign in.`,
        }
      : {
          subject: "a passkey was removed from your account",
          change: `The passkey named "${passkeyName}" was removed from your account and can no longer be used to sign in.`,
        },
  );
}
