import type { AppDeps } from "@/server/app-deps";
import type { DbOrTx } from "@/server/db/client";
import { issueFreezeLink } from "@/server/features/security/freeze-links";
import { secondFactorChangedMail } from "@/server/lib/mail/security-templates";
import { notify } from "@/server/lib/notifications";

export type SecondFactorEvent = "totp_enabled" | "totp_disabled" | "recovery_codes_regenerated";

const SECOND_FACTOR_EVENTS: Record<SecondFactorEvent, { subject: string; change: string }> = {
  totp_enabled: {
    subject: "two-step verification is on",
    change:
      "An authenticator app was added to your account. Signing in, sending money and security changes now ask for a code from it.",
  },
  totp_disabled: {
    subject: "two-step verification was turned off",
    change: "The authenticator app was removed from your account, so its codes no longer work.",
  },
  recovery_codes_regenerated: {
    subject: "new recovery codes were created",
    change: "New recovery codes were created for your account. The previous codes no longer work.",
  },
};

/**
 * The one way second-factor changes reach the owner's inbox, with a "This wasn't me" link; call it in the
 * transaction that makes the change.
 */
export async function enqueueSecondFactorMail(
  tx: DbOrTx,
  deps: Pick<AppDeps, "config">,
  user: { id: string; email: string; firstName: string },
  event: SecondFactorEvent | { subject: string; change: string },
): Promise<void> {
  const { subject, change } = typeof event === "string" ? SECOND_FACTOR_EVENTS[event] : event;
  const freezeUrl = await issueFreezeLink(tx, deps, { userId: user.id, reason: "second_factor" });
  await notify(
    tx,
    user.id,
    "security",
    { title: "Security settings changed", body: change, link: "/settings" },
    secondFactorChangedMail(user.email, {
      firstName: user.firstName,
      when: new Date(),
      subject,
      change,
      freezeUrl,
    }),
  );
}
