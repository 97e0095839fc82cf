import { Lock } from "lucide-react";
import { Link } from "wouter";
import type { SelfLimits } from "@/contract/self-limits";

/**
 * Send Money while the customer's own "Block crypto sends" holds (on, or cooling down after being turned off): said
 * at the top instead of a form the server would refuse after Review. The state and its time (New York, marked ET, as the refusal says it) are the self-limits GET's.
 */
export function SendsBlockedBanner({ limits }: { limits: SelfLimits }) {
  return (
    <div
      id="sends-blocked"
      className="grid gap-2 rounded-lg border border-negative/30 bg-negative-soft p-4 text-sm text-ink"
    >
      <p className="flex items-start gap-2 font-semibold text-negative">
        <Lock className="mt-0.5 size-4 shrink-0" aria-hidden />
        {limits.blockedUntilText
          ? `Crypto sends are blocked until ${limits.blockedUntilText}`
          : "Crypto sends are blocked"}
      </p>
      <p>
        {limits.blockedUntilText
          ? "You turned the block off and its cooldown is running; no one can end it sooner. "
          : `You turned the block on. Turning it off starts its cooldown${limits.cooldown ? ` of ${limits.cooldown}` : ""}, and sending opens again after it. `}
        <Link href="/settings#sending-limits" className="font-medium underline underline-offset-2">
          Settings
        </Link>
      </p>
    </div>
  );
}
