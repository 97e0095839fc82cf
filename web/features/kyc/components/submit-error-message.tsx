import { AlertCircle, Phone, ShieldAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { KYC_MESSAGES } from "@/contract/kyc";
import { Button } from "@/web/components/ui/button";

/** The phone-missing redirect happens after 5 s. */
const PHONE_REDIRECT_SECONDS = 5;

export type SubmitError = { kind: "phone" } | { kind: "ssn" } | { kind: "other"; message: string };

/**
 * KYC submit errors (decision 023): phone required → Settings in 5 s; duplicate SSN; anything else as the
 * server said it.
 */
export function SubmitErrorMessage({ error }: { error: SubmitError }) {
  if (error.kind === "phone") return <PhoneRequiredMessage />;
  if (error.kind === "ssn") {
    return (
      <div
        role="alert"
        className="flex items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-negative"
      >
        <ShieldAlert className="mt-0.5 size-5 shrink-0" aria-hidden />
        <div className="grid gap-1">
          <p className="font-semibold">This SSN is already in use</p>
          <p>{KYC_MESSAGES.ssnDuplicate}</p>
        </div>
      </div>
    );
  }
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-negative"
    >
      <AlertCircle className="mt-0.5 size-5 shrink-0" aria-hidden />
      <p className="break-words">{error.message}</p>
    </div>
  );
}

function PhoneRequiredMessage() {
  const [, navigate] = useLocation();
  const [secondsLeft, setSecondsLeft] = useState(PHONE_REDIRECT_SECONDS);

  useEffect(() => {
    const started = Date.now();
    const tick = setInterval(() => {
      setSecondsLeft(Math.max(0, PHONE_REDIRECT_SECONDS - Math.floor((Date.now() - started) / 1000)));
    }, 250);
    const redirect = setTimeout(() => navigate("/settings"), PHONE_REDIRECT_SECONDS * 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(redirect);
    };
  }, [navigate]);

  return (
    <div role="alert" className="grid gap-3 rounded-lg bg-pending-soft p-4 text-sm text-pending">
      <div className="flex items-start gap-3">
        <Phone className="mt-0.5 size-5 shrink-0" aria-hidden />
        <div className="grid gap-1">
          <p className="font-semibold">Phone number required</p>
          <p>{KYC_MESSAGES.phoneRequired}.</p>
          <p className="text-xs tabular-nums">
            Taking you to Settings in {secondsLeft} {secondsLeft === 1 ? "second" : "seconds"}…
          </p>
        </div>
      </div>
      <Button asChild size="sm" className="justify-self-start sm:ml-8">
        <Link href="/settings">Go to Settings</Link>
      </Button>
    </div>
  );
}
