import { KeyRound } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { AuthShell } from "@/web/components/auth-shell";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, errorMessage, toastFieldError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useForgotPassword } from "@/web/features/auth/api/forgot-password";
import { useResetPassword } from "@/web/features/auth/api/reset-password";
import { loadAuthRules, useAuthRules } from "@/web/features/auth/auth-rules";
import { EmailField } from "@/web/features/auth/components/email-field";
import { PasswordInput } from "@/web/features/auth/components/password-input";
import { cleanCode } from "@/web/lib/one-time-code";
import { useDocumentTitle } from "@/web/lib/use-document-title";

export default function ForgotPasswordPage() {
  const [, navigate] = useLocation();
  const [step, setStep] = useState<"email" | "reset">("email");
  const [email, setEmail] = useState("");
  const [resetCode, setResetCode] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [errors, setErrors] = useState<Partial<Record<"email" | "code" | "new" | "confirm", string>>>({});
  const forgot = useForgotPassword();
  const reset = useResetPassword();
  const rules = useAuthRules();
  useDocumentTitle("Reset password");

  const sendCode = (isResend: boolean) => {
    forgot.mutate(
      { email: email.trim() },
      {
        onSuccess: () => {
          toast({
            title: isResend ? "Check your inbox again" : "Check your inbox",
            description: `If an account exists for ${email.trim()}, a 6-digit code is on its way.`,
          });
          setStep("reset");
        },
        onError: (error) =>
          toast({
            title: isResend ? "Failed to resend reset code" : "Failed to send reset code",
            description: errorMessage(error, "Please try again in a moment"),
            variant: "destructive",
          }),
      },
    );
  };

  /** An edited field loses its error and the toast that said so. */
  const onEdit = (field: keyof typeof errors) => {
    setErrors(({ [field]: _fixed, ...rest }) => rest);
    dismissFieldToast();
  };

  const onEmailSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { AUTH_MESSAGES } = await loadAuthRules();
    if (!email.trim()) {
      setErrors({ email: AUTH_MESSAGES.emailRequired });
      focusFieldInError("forgot-email");
      return toastFieldError(AUTH_MESSAGES.emailRequired);
    }
    setErrors({});
    sendCode(false);
  };

  const onResetSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { AUTH_MESSAGES, RESET_PASSWORD_MIN } = await loadAuthRules();
    const found: typeof errors = {};
    let message: string | null = null;
    if (!resetCode || !newPassword || !confirmPassword) {
      message = AUTH_MESSAGES.resetMissing;
      if (!resetCode) found.code = "Enter the 6-digit code";
      if (!newPassword) found.new = "This field is required";
      if (!confirmPassword) found.confirm = "This field is required";
    } else if (newPassword !== confirmPassword) message = found.confirm = AUTH_MESSAGES.passwordsDoNotMatch;
    else if (newPassword.length < RESET_PASSWORD_MIN)
      message = found.new = AUTH_MESSAGES.resetPasswordTooShort;
    setErrors(found);
    if (message) {
      const first = found.code ? "reset-code" : found.new ? "reset-new" : "reset-confirm";
      focusFieldInError(first);
      return toastFieldError(message);
    }
    reset.mutate(
      { email: email.trim(), resetCode, newPassword },
      {
        onSuccess: () => {
          toast({ title: "Password reset", description: "Sign in with your new password." });
          navigate("/auth");
        },
        onError: (error) =>
          toast({
            title: "Failed to reset password",
            description: errorMessage(error, AUTH_MESSAGES.invalidCode),
            variant: "destructive",
          }),
      },
    );
  };

  if (step === "email") {
    return (
      <AuthShell
        back={{ label: "Back", href: "/auth" }}
        title="Forgot your password?"
        description="Enter your email and we'll send you a code to reset it."
      >
        <form className="grid gap-4" onSubmit={onEmailSubmit} noValidate>
          <EmailField
            id="forgot-email"
            value={email}
            error={errors.email}
            onChange={(value) => {
              setEmail(value);
              onEdit("email");
            }}
          />
          <Button type="submit" size="lg" disabled={forgot.isPending}>
            {forgot.isPending ? <Spinner className="size-4 text-white" label="Sending" /> : null}
            Send Reset Code
          </Button>
        </form>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      back={{ label: "Back", onClick: () => setStep("email") }}
      title="Reset your password"
      description="Enter the code from your e-mail and choose a new password."
    >
      <form className="grid gap-4" onSubmit={onResetSubmit} noValidate>
        <div className="flex items-start gap-3 rounded-lg bg-brand-50 p-4 text-sm text-brand-900">
          <KeyRound className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden />
          {/* Hedged like the toast: the server answers alike whether or not the address has an account. */}
          <p>
            If an account exists for{" "}
            <span className="font-semibold [overflow-wrap:anywhere]">{email.trim()}</span>, we sent it a
            6-digit code. It expires in 10 minutes.
          </p>
        </div>
        <FormField id="reset-code" label="Reset code" error={errors.code}>
          <Input
            id="reset-code"
            {...fieldAria("reset-code", { error: errors.code })}
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="000000"
            className="tracking-[0.3em] tabular-nums"
            value={resetCode}
            onChange={(e) => {
              setResetCode(cleanCode(e.target.value));
              onEdit("code");
            }}
          />
        </FormField>
        <FormField
          id="reset-new"
          label="New password"
          hint={rules ? `At least ${rules.RESET_PASSWORD_MIN} characters.` : undefined}
          error={errors.new}
        >
          <PasswordInput
            id="reset-new"
            autoComplete="new-password"
            {...fieldAria("reset-new", { hint: rules, error: errors.new })}
            value={newPassword}
            onChange={(e) => {
              setNewPassword(e.target.value);
              onEdit("new");
            }}
          />
        </FormField>
        <FormField id="reset-confirm" label="Confirm new password" error={errors.confirm}>
          <PasswordInput
            id="reset-confirm"
            {...fieldAria("reset-confirm", { error: errors.confirm })}
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(e) => {
              setConfirmPassword(e.target.value);
              onEdit("confirm");
            }}
          />
        </FormField>
        <Button type="submit" size="lg" disabled={reset.isPending}>
          {reset.isPending ? <Spinner className="size-4 text-white" label="Resetting" /> : null}
          Reset Password
        </Button>
        <Button variant="secondary" onClick={() => sendCode(true)} disabled={forgot.isPending}>
          {forgot.isPending ? "Sending…" : "Resend Code"}
        </Button>
      </form>
    </AuthShell>
  );
}
