import { ShieldAlert } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import type { SecondFactorMethod } from "@/contract/security";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, errorMessage, toastFieldError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Checkbox } from "@/web/components/ui/checkbox";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useLogin } from "@/web/features/auth/api/login";
import { loadAuthRules, useAuthRules } from "@/web/features/auth/auth-rules";
import { EmailField } from "@/web/features/auth/components/email-field";
import { PasswordInput } from "@/web/features/auth/components/password-input";
import { failureOf, type ReasonOf, unhandledReason } from "@/web/lib/api";
import { afterSignInPath } from "@/web/lib/return-path";

/** What a refused sign-in asks of the form: a password reset (frozen), the e-mail verified, or just its message. */
function loginRefusal(reason: ReasonOf<"POST /api/auth/login"> | undefined): "reset" | "verify" | "message" {
  switch (reason) {
    case "password_reset_required":
      return "reset";
    case "email_not_verified":
      return "verify";
    case "service_unavailable":
    case undefined:
      return "message";
    default:
      return unhandledReason(reason, "message");
  }
}

export function SignInForm({
  initialEmail,
  onNeedsVerification,
  onSecondFactor,
}: {
  initialEmail: string;
  onNeedsVerification: (email: string, password: string) => void;
  /** The password was right and a second factor is on: the verify step comes next. */
  onSecondFactor: (email: string, methods: SecondFactorMethod[]) => void;
}) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [isRemembered, setRemembered] = useState(false);
  const [resetRequired, setResetRequired] = useState<string | null>(null);
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({});
  const login = useLogin();
  useAuthRules();

  /** An edited field loses its "required" and the toast that said so. */
  const onEdit = (field: "email" | "password") => {
    setMissing(({ [field]: _fixed, ...rest }) => rest);
    dismissFieldToast();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { AUTH_MESSAGES } = await loadAuthRules();
    const trimmedEmail = email.trim();
    if (!trimmedEmail || !password) {
      const required = "This field is required";
      setMissing({ email: trimmedEmail ? undefined : required, password: password ? undefined : required });
      focusFieldInError(trimmedEmail ? "signin-password" : "signin-email");
      toastFieldError(AUTH_MESSAGES.loginMissing);
      return;
    }
    setMissing({});
    setResetRequired(null);
    login.mutate(
      { email: trimmedEmail, password },
      {
        // A full load, so the router starts again with the new session.
        onSuccess: (data) => {
          if ("secondFactorRequired" in data) {
            onSecondFactor(trimmedEmail, data.methods);
            return;
          }
          window.location.href = afterSignInPath();
        },
        onError: (error) => {
          const message = errorMessage(error, "");
          // A frozen account: said in the form, with the way out, rather than in a toast that fades.
          const refusal = loginRefusal(failureOf("POST /api/auth/login", error));
          if (refusal === "reset") {
            setResetRequired(message);
            return;
          }
          if (refusal === "verify") {
            toast({ title: "Email verification required", description: message, variant: "destructive" });
            onNeedsVerification(trimmedEmail, password);
            return;
          }
          toast({
            title: "Login failed",
            description: message || "Please check your credentials",
            variant: "destructive",
          });
        },
      },
    );
  };

  const isBusy = login.isPending || (login.isSuccess && !("secondFactorRequired" in login.data));
  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate>
      <EmailField
        id="signin-email"
        value={email}
        error={missing.email}
        onChange={(value) => {
          setEmail(value);
          onEdit("email");
        }}
      />
      <FormField id="signin-password" label="Password" error={missing.password}>
        <PasswordInput
          id="signin-password"
          {...fieldAria("signin-password", { error: missing.password })}
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            onEdit("password");
          }}
        />
      </FormField>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <Checkbox
            id="signin-remember"
            checked={isRemembered}
            onCheckedChange={(v) => setRemembered(v === true)}
          />
          <Label htmlFor="signin-remember" className="font-normal text-ink-muted">
            Remember me
          </Label>
        </div>
        <Link href="/forgot-password" className="text-sm font-medium text-brand-600 hover:underline">
          Forgot password?
        </Link>
      </div>
      {resetRequired ? (
        <div role="alert" className="flex items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-ink">
          <ShieldAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-negative" />
          <div className="grid gap-1">
            <p className="font-medium">Reset your password to sign in</p>
            <p>{resetRequired}</p>
            <Link href="/forgot-password" className="font-medium text-brand-600 hover:underline">
              Reset my password
            </Link>
          </div>
        </div>
      ) : null}
      <Button type="submit" size="lg" disabled={isBusy}>
        {isBusy ? <Spinner className="size-4 text-white" label="Signing in" /> : null}
        Sign In
      </Button>
    </form>
  );
}
