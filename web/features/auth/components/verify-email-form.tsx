import { MailCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, errorMessage, toastFieldError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useResendVerification } from "@/web/features/auth/api/resend-verification";
import { useVerifyEmail } from "@/web/features/auth/api/verify-email";
import { loadAuthRules, useAuthRules } from "@/web/features/auth/auth-rules";
import { failureOf, type ReasonOf, unhandledReason } from "@/web/lib/api";
import { cleanCode } from "@/web/lib/one-time-code";

/** Whether the code was refused because the registration changed since it was sent (its own message says so). */
function registrationChanged(reason: ReasonOf<"POST /api/auth/verify-email"> | undefined): boolean {
  switch (reason) {
    case "registration_changed":
      return true;
    case "invalid_code":
    case "service_unavailable":
    case undefined:
      return false;
    default:
      return unhandledReason(reason, false);
  }
}

export function VerifyEmailForm({
  email,
  password,
  onVerified,
  onBack,
}: {
  email: string;
  /** What the person typed to sign up or sign in: the code then only confirms a registration holding it. */
  password?: string;
  onVerified: () => void;
  onBack: () => void;
}) {
  const [code, setCode] = useState("");
  /** The toast's words, also under the field (a toast fades; the field keeps saying what is wrong). */
  const [codeError, setCodeError] = useState<string | null>(null);
  const verify = useVerifyEmail();
  const resend = useResendVerification();
  useAuthRules();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { AUTH_MESSAGES, CODE_PATTERN } = await loadAuthRules();
    if (!CODE_PATTERN.test(code)) {
      setCodeError(AUTH_MESSAGES.codeInvalid);
      focusFieldInError("verify-code");
      return toastFieldError(AUTH_MESSAGES.codeInvalid);
    }
    setCodeError(null);
    verify.mutate(
      { email, otp: code, password },
      {
        onSuccess: () => {
          toast({ title: "Email verified", description: "Your account is ready. Please sign in." });
          onVerified();
        },
        onError: (error) => {
          const description = registrationChanged(failureOf("POST /api/auth/verify-email", error))
            ? error.message
            : AUTH_MESSAGES.invalidCode;
          setCodeError(description);
          focusFieldInError("verify-code");
          toast({ title: "Verification failed", description, variant: "destructive" });
        },
      },
    );
  };

  const onResend = () => {
    resend.mutate(
      { email },
      {
        onSuccess: () => toast({ title: "Code sent", description: `We sent a new code to ${email}.` }),
        onError: (error) =>
          toast({
            title: "Failed to resend code",
            description: errorMessage(error, "Please try again in a moment"),
            variant: "destructive",
          }),
      },
    );
  };

  return (
    <form className="grid gap-5" onSubmit={onSubmit} noValidate>
      <div className="flex items-start gap-3 rounded-lg bg-brand-50 p-4 text-sm text-brand-900">
        <MailCheck className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden />
        <p>
          We sent a 6-digit code to <span className="font-semibold [overflow-wrap:anywhere]">{email}</span>.
          It expires in 10 minutes.
        </p>
      </div>
      <FormField id="verify-code" label="Verification code" error={codeError}>
        <Input
          id="verify-code"
          {...fieldAria("verify-code", { error: codeError })}
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="000000"
          className="h-12 text-center text-lg tracking-[0.5em] tabular-nums"
          value={code}
          onChange={(e) => {
            setCode(cleanCode(e.target.value));
            setCodeError(null);
            dismissFieldToast();
          }}
        />
      </FormField>
      <Button type="submit" size="lg" disabled={verify.isPending}>
        {verify.isPending ? <Spinner className="size-4 text-white" label="Verifying" /> : null}
        Verify Email
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <Button variant="ghost" size="sm" className="-ml-3" onClick={onBack}>
          Back to Login
        </Button>
        <Button variant="link" onClick={onResend} disabled={resend.isPending}>
          {resend.isPending ? "Sending…" : "Resend code"}
        </Button>
      </div>
    </form>
  );
}
