import { type FormEvent, useState } from "react";
import { BRAND } from "@/contract/brand";
import { FormField } from "@/web/components/form-field";
import { errorMessage, toastError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Checkbox } from "@/web/components/ui/checkbox";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useRegister } from "@/web/features/auth/api/register";
import { loadAuthRules, useAuthRules } from "@/web/features/auth/auth-rules";
import { PasswordInput } from "@/web/features/auth/components/password-input";
import { PasswordStrengthHint } from "@/web/features/auth/components/password-strength-hint";
import { ApiError } from "@/web/lib/api";

const HANDLE_MAX = 20;

/** Spec §5: the handle input lowercases and keeps only a-z, 0-9 and underscore, up to 20. */
function cleanHandle(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "")
    .slice(0, HANDLE_MAX);
}

const EMPTY = {
  email: "",
  password: "",
  confirmPassword: "",
  firstName: "",
  lastName: "",
  pillarTag: "",
  phoneNumber: "",
};

export function SignUpForm({
  onNeedsVerification,
}: {
  onNeedsVerification: (email: string, password: string) => void;
}) {
  const [form, setForm] = useState(EMPTY);
  const [hasAcceptedTerms, setAcceptedTerms] = useState(false);
  const register = useRegister();
  useAuthRules();
  const set = (field: keyof typeof EMPTY) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { AUTH_MESSAGES, HANDLE_PATTERN, PASSWORD_MIN } = await loadAuthRules();
    const input = {
      email: form.email.trim(),
      password: form.password,
      firstName: form.firstName.trim(),
      lastName: form.lastName.trim(),
      pillarTag: form.pillarTag,
      phoneNumber: form.phoneNumber.trim(),
    };
    if (Object.values(input).some((v) => !v)) return toastError(AUTH_MESSAGES.signupMissing);
    if (form.password !== form.confirmPassword) return toastError(AUTH_MESSAGES.passwordsDoNotMatch);
    if (form.password.length < PASSWORD_MIN) return toastError(AUTH_MESSAGES.passwordTooShort);
    if (!HANDLE_PATTERN.test(input.pillarTag)) return toastError(AUTH_MESSAGES.handleInvalid);

    register.mutate(input, {
      onSuccess: () => {
        toast({ title: "Account created", description: `We sent a 6-digit code to ${input.email}.` });
        setForm(EMPTY);
        onNeedsVerification(input.email, input.password);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.hasFlag("emailNotVerified")) {
          toast({ title: "Account needs verification", description: error.message, variant: "destructive" });
          onNeedsVerification(input.email, input.password);
          return;
        }
        toast({
          title: "Registration failed",
          description: errorMessage(error, "Please try again"),
          variant: "destructive",
        });
      },
    });
  };

  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="signup-first-name" label="First name">
          <Input
            id="signup-first-name"
            autoComplete="given-name"
            value={form.firstName}
            onChange={(e) => set("firstName")(e.target.value)}
          />
        </FormField>
        <FormField id="signup-last-name" label="Last name">
          <Input
            id="signup-last-name"
            autoComplete="family-name"
            value={form.lastName}
            onChange={(e) => set("lastName")(e.target.value)}
          />
        </FormField>
      </div>
      <FormField id="signup-email" label="Email">
        <Input
          id="signup-email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={form.email}
          onChange={(e) => set("email")(e.target.value)}
        />
      </FormField>
      <FormField
        id="signup-tag"
        label={BRAND.handleLabel}
        hint="3-20 characters: letters, numbers and underscores."
      >
        <div className="relative">
          <span
            aria-hidden
            className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm font-medium text-ink-subtle"
          >
            $
          </span>
          <Input
            id="signup-tag"
            className="pl-6"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={HANDLE_MAX}
            placeholder="yourtag"
            aria-describedby="signup-tag-hint"
            value={form.pillarTag}
            onChange={(e) => set("pillarTag")(cleanHandle(e.target.value))}
          />
        </div>
      </FormField>
      <FormField id="signup-phone" label="Phone number">
        <Input
          id="signup-phone"
          type="tel"
          autoComplete="tel"
          placeholder="(555) 123-4567"
          value={form.phoneNumber}
          onChange={(e) => set("phoneNumber")(e.target.value)}
        />
      </FormField>
      <FormField id="signup-password" label="Password">
        <PasswordInput
          id="signup-password"
          autoComplete="new-password"
          aria-describedby="signup-password-strength"
          value={form.password}
          onChange={(e) => set("password")(e.target.value)}
        />
        <PasswordStrengthHint
          id="signup-password-strength"
          password={form.password}
          userInputs={[form.email, form.firstName, form.lastName, form.pillarTag]}
        />
      </FormField>
      <FormField id="signup-confirm" label="Confirm password">
        <PasswordInput
          id="signup-confirm"
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={(e) => set("confirmPassword")(e.target.value)}
        />
      </FormField>
      <div className="flex items-start gap-2">
        <Checkbox
          id="signup-terms"
          className="mt-0.5"
          checked={hasAcceptedTerms}
          onCheckedChange={(v) => setAcceptedTerms(v === true)}
        />
        <Label htmlFor="signup-terms" className="font-normal text-ink-muted">
          I agree to the Terms of Service and Privacy Policy
        </Label>
      </div>
      <Button type="submit" size="lg" disabled={register.isPending}>
        {register.isPending ? <Spinner className="size-4 text-white" label="Creating account" /> : null}
        Create Account
      </Button>
    </form>
  );
}
