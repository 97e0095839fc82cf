import { AlertCircle, ShieldCheck, ShieldOff, Smartphone } from "lucide-react";
import { useState } from "react";
import type { TotpEnrollResponse } from "@/contract/security";
import { toastApiError } from "@/web/components/toast-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useEnrollTotp } from "@/web/features/auth/api/enroll-totp";
import { useSecondFactor } from "@/web/features/auth/api/get-second-factor";
import { useRegenerateRecoveryCodes } from "@/web/features/auth/api/regenerate-recovery-codes";
import { DisableTotpDialog } from "@/web/features/auth/settings/disable-totp-dialog";
import { RecoveryCodesView } from "@/web/features/auth/settings/recovery-codes-view";
import { TotpSetup } from "@/web/features/auth/settings/totp-setup";
import { formatDate } from "@/web/lib/format";
import { isStepUpCancelled } from "@/web/lib/step-up";

type View =
  | { step: "status" }
  | { step: "setup"; enrolment: TotpEnrollResponse }
  | { step: "codes"; codes: string[] };

/** Settings → Security: two-step verification status, the authenticator app and recovery codes (passkeys follow in their own card). */
export function SecurityCard() {
  const status = useSecondFactor();
  const enroll = useEnrollTotp();
  const regenerate = useRegenerateRecoveryCodes();
  const [view, setView] = useState<View>({ step: "status" });
  const [isDisableOpen, setDisableOpen] = useState(false);

  const onEnroll = () =>
    enroll.mutate(undefined, {
      onSuccess: (enrolment) => setView({ step: "setup", enrolment }),
      onError: (error) => {
        if (!isStepUpCancelled(error)) toastApiError(error, "Could not start the setup");
      },
    });
  const onRegenerate = () =>
    regenerate.mutate(undefined, {
      onSuccess: (data) => {
        toast({ title: data.message });
        setView({ step: "codes", codes: data.recoveryCodes });
      },
      onError: (error) => {
        if (!isStepUpCancelled(error)) toastApiError(error, "Could not create new recovery codes");
      },
    });

  const isOn = status.data?.enabled === true;
  return (
    <Card id="security" className="scroll-mt-6">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>Security</CardTitle>
          {status.data ? (
            <Badge tone={isOn ? "positive" : "neutral"}>
              {isOn ? (
                <ShieldCheck className="size-3" aria-hidden />
              ) : (
                <ShieldOff className="size-3" aria-hidden />
              )}
              Two-step verification {isOn ? "on" : "off"}
            </Badge>
          ) : null}
        </div>
        <CardDescription>
          A second factor keeps your money safe even if someone learns your password.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {status.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Loading security settings">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-10 w-48" />
          </div>
        ) : status.isError ? (
          <div className="flex flex-wrap items-center gap-3 text-sm text-ink-muted" role="alert">
            <AlertCircle className="size-4 text-negative" aria-hidden />
            <span>We could not load your security settings.</span>
            <Button variant="secondary" size="sm" onClick={() => void status.refetch()}>
              Try again
            </Button>
          </div>
        ) : view.step === "setup" ? (
          <TotpSetup
            enrolment={view.enrolment}
            onEnabled={(codes) => {
              toast({ title: "Two-step verification is on" });
              setView({ step: "codes", codes });
            }}
            onCancel={() => setView({ step: "status" })}
          />
        ) : view.step === "codes" ? (
          <RecoveryCodesView codes={view.codes} onDone={() => setView({ step: "status" })} />
        ) : (
          <>
            <section aria-labelledby="security-totp-title" className="flex flex-wrap items-start gap-3">
              <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <Smartphone className="size-4" aria-hidden />
              </span>
              <div className="grid min-w-48 flex-1 gap-0.5">
                <h3 id="security-totp-title" className="text-sm font-medium text-ink">
                  Authenticator app
                </h3>
                <p className="text-xs text-ink-muted">
                  {status.data.totp.enabled
                    ? `Added ${status.data.totp.confirmedAt ? formatDate(status.data.totp.confirmedAt) : ""}. Signing in, sending money and security changes ask for a code.`
                    : "Use a 6-digit code from an app on your phone when you sign in or send money."}
                </p>
              </div>
              {status.data.totp.enabled ? (
                <Button variant="secondary" size="sm" onClick={() => setDisableOpen(true)}>
                  Turn off
                </Button>
              ) : (
                <Button size="sm" onClick={onEnroll} disabled={enroll.isPending}>
                  {enroll.isPending ? <Spinner className="size-4 text-white" label="Starting" /> : null}
                  Set up authenticator app
                </Button>
              )}
            </section>
            {isOn ? (
              <section
                aria-labelledby="security-recovery-title"
                className="flex flex-wrap items-start gap-3 border-t border-line pt-5"
              >
                <div className="grid min-w-48 flex-1 gap-0.5">
                  <h3 id="security-recovery-title" className="text-sm font-medium text-ink">
                    Recovery codes
                  </h3>
                  <p className="text-xs text-ink-muted">
                    <span className="tabular-nums">{status.data.recoveryCodesLeft}</span> of 10 left. Each
                    works once if you lose your phone.
                  </p>
                </div>
                <Button variant="secondary" size="sm" onClick={onRegenerate} disabled={regenerate.isPending}>
                  {regenerate.isPending ? <Spinner className="size-4" label="Creating codes" /> : null}
                  Create new codes
                </Button>
              </section>
            ) : null}
          </>
        )}
      </CardContent>
      <DisableTotpDialog open={isDisableOpen} onOpenChange={setDisableOpen} />
    </Card>
  );
}
