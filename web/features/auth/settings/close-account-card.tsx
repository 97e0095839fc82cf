import { Lock } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import { ConfirmButton } from "@/web/components/confirm-button";
import { LoadErrorNote } from "@/web/components/load-error";
import { PasswordConfirmDialog } from "@/web/components/password-confirm-dialog";
import { errorMessage } from "@/web/components/toast-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import { useAccountClosure, useCloseAccount } from "@/web/features/accounts/api/account-closure";
import { failureOf, type ReasonOf, unhandledReason } from "@/web/lib/api";
import { isStepUpCancelled } from "@/web/lib/step-up";

const WHAT = "Close your Pillar account";

/**
 * Settings → "Close account" (decision 059). The customer confirms twice: this dialog, then the proof decision 047
 * asks before a change that keeps money in (the step-up dialog with a second factor, else the password). What
 * keeps the account open comes back from the server in words and is shown here, in a live region.
 */
/** What a refused closing asks of the card: the password (no second factor), the password again, or its message. */
function closeRefusal(
  reason: ReasonOf<"POST /api/account/close"> | undefined,
): "ask-password" | "password-wrong" | "message" {
  switch (reason) {
    case "password_confirm_required":
      return "ask-password";
    case "password_wrong":
      return "password-wrong";
    case "step_up_required":
    case "account_already_closed":
    case "closure_blocked":
    case "service_unavailable":
    case undefined:
      return "message";
    default:
      return unhandledReason(reason, "message");
  }
}

export function CloseAccountCard() {
  const closure = useAccountClosure();
  const close = useCloseAccount();
  const [askPassword, setAskPassword] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const done = (message: string) => {
    setAskPassword(false);
    setRefusal(null);
    toast({ title: "Account closed", description: message });
  };
  const onConfirm = async () => {
    setRefusal(null);
    try {
      done((await close.mutateAsync({})).message);
    } catch (error) {
      if (closeRefusal(failureOf("POST /api/account/close", error)) === "ask-password") setAskPassword(true);
      else if (!isStepUpCancelled(error)) setRefusal(errorMessage(error, "Could not close the account"));
    }
  };
  const onPassword = async (password: string) => {
    try {
      done((await close.mutateAsync({ password })).message);
    } catch (error) {
      if (closeRefusal(failureOf("POST /api/account/close", error)) === "password-wrong") throw error;
      setAskPassword(false);
      setRefusal(errorMessage(error, "Could not close the account"));
    }
  };

  const data = closure.data;
  return (
    <Card role="region" aria-labelledby="close-account-title" id="close-account">
      <CardHeader>
        <CardTitle id="close-account-title">Close account</CardTitle>
        <CardDescription>
          Closing stops all money in and out. You keep your sign-in to read your history and download
          statements and tax forms.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {closure.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : closure.isError || !data ? (
          <LoadErrorNote what="your account's state" onRetry={() => void closure.refetch()} />
        ) : data.closure ? (
          <p className="flex items-start gap-2 text-sm text-ink">
            <Lock className="mt-0.5 size-4 shrink-0 text-ink-muted" aria-hidden />
            <span>
              Your account was closed on {data.closure.closedOn}.{" "}
              <Link href="/statements" className="font-medium text-brand-700 hover:underline">
                Your statements
              </Link>
            </span>
          </p>
        ) : (
          <>
            <ul className="grid list-disc gap-1 pl-5 text-sm text-ink-muted">
              <li>Your balance must be $0.00: send any money out first.</li>
              <li>No transfer may be pending, and no payment on its way to you.</li>
              <li>Cancel scheduled transfers and open money requests, sent or received.</li>
            </ul>
            <div aria-live="polite" className="text-sm">
              {refusal ? (
                <p
                  role="alert"
                  className="rounded-lg border border-negative/30 bg-negative-soft p-3 text-ink"
                >
                  {refusal}
                </p>
              ) : null}
            </div>
            <div>
              <ConfirmButton
                variant="destructive"
                title="Close your account?"
                description="Nothing can be sent or received after this, and it cannot be reopened from here. Your history and statements stay available."
                confirmLabel="Close my account"
                cancelLabel="Keep my account"
                isPending={close.isPending}
                onConfirm={() => void onConfirm()}
              >
                Close account
              </ConfirmButton>
            </div>
          </>
        )}
      </CardContent>
      <PasswordConfirmDialog
        open={askPassword}
        what={WHAT}
        onCancel={() => setAskPassword(false)}
        onConfirm={onPassword}
      />
    </Card>
  );
}
