import { Lock, Timer } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { AUTH_MESSAGES, CODE_PATTERN, PASSWORD_MIN } from "@/contract/auth";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, toastApiError, toastFieldError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useChangePassword } from "@/web/features/auth/api/change-password";
import { useSendPasswordOtp } from "@/web/features/auth/api/send-password-otp";
import { formatCountdown } from "@/web/lib/format";
import { cleanCode } from "@/web/lib/one-time-code";

/** The change-password code is good for 600 s. */
const CODE_LIFETIME_S = 600;

/** Seconds left until `expiresAt`, ticking once a second; null when no code is out. */
function useCountdown(expiresAt: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  if (expiresAt === null) return null;
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

type Field = "cp-current" | "cp-new" | "cp-confirm" | "cp-code";

export function ChangePasswordCard() {
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [otpCode, setOtpCode] = useState("");
  const [expiresAt, setExpiresAt] = useState<number | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const secondsLeft = useCountdown(expiresAt);
  const sendOtp = useSendPasswordOtp();
  const change = useChangePassword();
  const isCodeSent = expiresAt !== null;
  const isExpired = secondsLeft === 0;

  const resetCodeStep = () => {
    setExpiresAt(null);
    setOtpCode("");
    setErrors({});
  };

  /** The spec's toast, the same words under each field in error, and the first of them focused mid-screen. */
  const fail = (message: string, fields: Partial<Record<Field, string>>) => {
    setErrors(fields);
    const first = (Object.keys(fields) as Field[])[0];
    if (first) focusFieldInError(first);
    toastFieldError(message);
  };
  const clearError = (field: Field) => {
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
    dismissFieldToast();
  };

  const onSendCode = () => {
    if (!currentPassword || !newPassword || !confirmPassword) {
      const required = "This field is required";
      return fail(AUTH_MESSAGES.resetMissing, {
        ...(currentPassword ? {} : { "cp-current": required }),
        ...(newPassword ? {} : { "cp-new": required }),
        ...(confirmPassword ? {} : { "cp-confirm": required }),
      });
    }
    if (newPassword !== confirmPassword)
      return fail(AUTH_MESSAGES.passwordsDoNotMatch, { "cp-confirm": AUTH_MESSAGES.passwordsDoNotMatch });
    if (newPassword.length < PASSWORD_MIN)
      return fail(AUTH_MESSAGES.passwordTooShort, { "cp-new": AUTH_MESSAGES.passwordTooShort });
    setErrors({});
    sendOtp.mutate(undefined, {
      onSuccess: (data) => {
        setOtpCode("");
        setExpiresAt(Date.now() + (data?.expiresInSeconds ?? CODE_LIFETIME_S) * 1000);
        toast({ title: "Verification code sent", description: "Check your email for the 6-digit code." });
      },
      onError: (error) => toastApiError(error, "Failed to send OTP"),
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isCodeSent) return onSendCode();
    if (!otpCode)
      return fail(AUTH_MESSAGES.verificationCodeRequired, {
        "cp-code": AUTH_MESSAGES.verificationCodeRequired,
      });
    if (!CODE_PATTERN.test(otpCode))
      return fail(AUTH_MESSAGES.codeInvalid, { "cp-code": AUTH_MESSAGES.codeInvalid });
    setErrors({});
    change.mutate(
      { currentPassword, newPassword, otpCode },
      {
        onSuccess: () => {
          setCurrentPassword("");
          setNewPassword("");
          setConfirmPassword("");
          resetCodeStep();
          toast({ title: "Password updated", description: "Your password has been changed." });
        },
        onError: (error) => toastApiError(error, "Failed to change password"),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <CardDescription>We'll e-mail you a code to confirm it's you.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <FormField id="cp-current" label="Current password" error={errors["cp-current"]}>
            <Input
              id="cp-current"
              {...fieldAria("cp-current", { error: errors["cp-current"] })}
              type="password"
              autoComplete="current-password"
              disabled={isCodeSent}
              value={currentPassword}
              onChange={(e) => {
                setCurrentPassword(e.target.value);
                clearError("cp-current");
              }}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              id="cp-new"
              label="New password"
              hint={`At least ${PASSWORD_MIN} characters.`}
              error={errors["cp-new"]}
            >
              <Input
                id="cp-new"
                type="password"
                autoComplete="new-password"
                {...fieldAria("cp-new", { hint: true, error: errors["cp-new"] })}
                disabled={isCodeSent}
                value={newPassword}
                onChange={(e) => {
                  setNewPassword(e.target.value);
                  clearError("cp-new");
                }}
              />
            </FormField>
            <FormField id="cp-confirm" label="Confirm new password" error={errors["cp-confirm"]}>
              <Input
                id="cp-confirm"
                {...fieldAria("cp-confirm", { error: errors["cp-confirm"] })}
                type="password"
                autoComplete="new-password"
                disabled={isCodeSent}
                value={confirmPassword}
                onChange={(e) => {
                  setConfirmPassword(e.target.value);
                  clearError("cp-confirm");
                }}
              />
            </FormField>
          </div>

          {isCodeSent ? (
            <div className="grid gap-4 rounded-lg border border-line bg-canvas p-4">
              <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <span className="text-ink-muted">Enter the code we e-mailed you.</span>
                <span
                  className={`inline-flex items-center gap-1.5 font-medium tabular-nums ${isExpired ? "text-negative" : "text-ink"}`}
                >
                  <Timer className="size-4" aria-hidden />
                  {isExpired ? "Code expired" : `Expires in ${formatCountdown(secondsLeft ?? 0)}`}
                </span>
              </div>
              <FormField id="cp-code" label="Verification code" error={errors["cp-code"]}>
                <Input
                  id="cp-code"
                  {...fieldAria("cp-code", { error: errors["cp-code"] })}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  placeholder="000000"
                  className="tracking-[0.3em] tabular-nums"
                  value={otpCode}
                  onChange={(e) => {
                    setOtpCode(cleanCode(e.target.value));
                    clearError("cp-code");
                  }}
                />
              </FormField>
              <div className="flex flex-col gap-2 sm:flex-row">
                <Button type="submit" disabled={change.isPending || isExpired}>
                  {change.isPending ? <Spinner className="size-4 text-white" label="Updating" /> : null}
                  Update Password
                </Button>
                <Button variant="secondary" onClick={resetCodeStep} disabled={change.isPending}>
                  Cancel
                </Button>
                {isExpired ? (
                  <Button variant="ghost" onClick={onSendCode} disabled={sendOtp.isPending}>
                    Send a new code
                  </Button>
                ) : null}
              </div>
            </div>
          ) : (
            <Button type="submit" className="sm:justify-self-start" disabled={sendOtp.isPending}>
              {sendOtp.isPending ? (
                <Spinner className="size-4 text-white" label="Sending" />
              ) : (
                <Lock aria-hidden />
              )}
              Send Verification Code
            </Button>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
