import { ShieldCheck, X } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import { Button } from "@/web/components/ui/button";
import { setDeviceCookie, useHasDeviceCookie } from "@/web/lib/device-cookies";

/** A cookie, not localStorage: the server draws the dashboard's first load with or without the banner. */
const DISMISSED_COOKIE = "pillar_2fa_tip_dismissed";

/** Recommends two-step verification to customers without it; dismissing it is remembered on this device. */
export function SecondFactorBanner() {
  const wasDismissed = useHasDeviceCookie(DISMISSED_COOKIE);
  const [isDismissed, setDismissed] = useState(false);
  if (wasDismissed || isDismissed) return null;
  const onDismiss = () => {
    setDeviceCookie(DISMISSED_COOKIE);
    setDismissed(true);
  };
  return (
    <section
      aria-labelledby="second-factor-banner-title"
      className="flex flex-wrap items-start gap-3 rounded-card border border-brand-200 bg-brand-50 p-4 sm:items-center"
    >
      <ShieldCheck className="mt-0.5 size-5 shrink-0 text-brand-700 sm:mt-0" aria-hidden />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <h2 id="second-factor-banner-title" className="text-sm font-semibold text-brand-900">
          Protect your account with two-step verification
        </h2>
        <p className="text-sm text-brand-900/80">
          Add an authenticator app so nobody can sign in or send your money with your password alone.
        </p>
      </div>
      <div className="flex items-center gap-1">
        <Button asChild size="sm">
          <Link href="/settings#security">Set it up</Link>
        </Button>
        <Button
          variant="ghost"
          size="icon"
          onClick={onDismiss}
          aria-label="Dismiss the two-step verification tip"
        >
          <X aria-hidden />
        </Button>
      </div>
    </section>
  );
}
