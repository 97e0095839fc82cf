import { type FormEvent, useState } from "react";
import { BRAND } from "@/contract/brand";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, errorMessage, toastFieldError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Checkbox } from "@/web/components/ui/checkbox";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useRegister } from "@/web/features/auth/api/register";
import { loadAuthRules, useAuthRules } from "@/web/features/auth/auth-rules";
import { EmailField } from "@/web/features/auth/components/email-field";
import { PasswordInput } from "@/web/features/auth/components/password-input";
import { PasswordStrengthHint } from "@/web/features/auth/components/password-strength-hint";
import { failureOf, type ReasonOf, unhandledReason } from "@/web/lib/api";

const HANDLE_MAX = 20;

/** The handle input lowercases and keeps only a-z, 0-9 and underscore, up to 20. */
function cleanHandle(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "")
    .slice(0, HANDLE_MAX);
}

type Field = keyof typeof EMPTY | "terms";
type FieldErrors = Partial<Record<Field, string>>;

/** Form order, so the first field in error is the one focused. */
const FIELD_IDS: Record<Field, string> = {
  firstName: "signup-first-name",
  lastName: "signup-last-name",
  email: "signup-email",
  pillarTag: "signup-tag",
  phoneNumber: "signup-phone",
  password: "signup-password",
  confirmPassword: "signup-confirm",
  terms: "signup-terms",
};

const REQUIRED = "This field is required";
const TERMS_REQUIRED = "Please agree to the Terms of Service and Privacy Policy";

const EMPTY = {
  email: "",
  password: "",
  confirmPassword: "",
  firstName: "",
  lastName: "",
  pillarTag: "",
  phoneNumber: "",
};

/** Whether a refused registration is an unverified account's (its details replaced, a new code sent). */
function registrationUnverified(reason: ReasonOf<"POST /api/auth/register"> | undefined): boolean {
  switch (reason) {
    case "registration_unverified":
      return true;
    case "email_taken":
    case "pillar_tag_taken":
    case "service_unavailable":
    case "common_password":
    case "name_characters_invalid":
    case undefined:
      return false;
    default:
      return unhandledReason(reason, false);
  }
}

export function SignUpForm({
  onNeedsVerification,
}: {
  onNeedsVerification: (email: string, password: string) => void;
}) {
  const [form, setForm] = useState(EMPTY);
  const [hasAcceptedTerms, setAcceptedTerms] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const register = useRegister();
  useAuthRules();
  const set = (field: keyof typeof EMPTY) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors(({ [field]: _fixed, ...rest }) => rest);
    dismissFieldToast();
  };
  /** Props a control needs to announce its own error. */
  const invalid = (field: Field, hint?: string) =>
    fieldAria(FIELD_IDS[field], { hint, error: errors[field] });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // The name rule comes with the auth contract's chunk (its schemas use it), not on the page's first load.
    const [{ AUTH_MESSAGES, HANDLE_PATTERN, PASSWORD_MIN }, { nameCharactersProblem }] = await Promise.all([
      loadAuthRules(),
      import("@/contract/person-name"),
    ]);
    const input = {
      email: form.email.trim(),
      password: form.password,
      firstName: form.firstName.trim(),
      lastName: form.lastName.trim(),
      pillarTag: form.pillarTag,
      phoneNumber: form.phoneNumber.trim(),
    };
    const found: FieldErrors = {};
    for (const [field, value] of Object.entries(input)) if (!value) found[field as Field] = REQUIRED;
    let message: string | null = Object.keys(found).length > 0 ? AUTH_MESSAGES.signupMissing : null;
    for (const field of ["firstName", "lastName"] as const) {
      const problem = message ? null : nameCharactersProblem(input[field]);
      if (problem) message = found[field] = problem;
    }
    if (!message && form.password !== form.confirmPassword)
      message = found.confirmPassword = AUTH_MESSAGES.passwordsDoNotMatch;
    if (!message && form.password.length < PASSWORD_MIN)
      message = found.password = AUTH_MESSAGES.passwordTooShort;
    if (!message && !HANDLE_PATTERN.test(input.pillarTag))
      message = found.pillarTag = AUTH_MESSAGES.handleInvalid;
    // The terms are required (issue "A customer's trust"), beyond the spec's unenforced checkbox.
    if (!hasAcceptedTerms) {
      found.terms = TERMS_REQUIRED;
      message ??= TERMS_REQUIRED;
    }
    setErrors(found);
    if (message) {
      toastFieldError(message);
      const first = (Object.keys(FIELD_IDS) as Field[]).find((field) => found[field]);
      if (first) focusFieldInError(FIELD_IDS[first]);
      return;
    }

    register.mutate(input, {
      onSuccess: () => {
        toast({ title: "Account created", description: `We sent a 6-digit code to ${input.email}.` });
        setForm(EMPTY);
        onNeedsVerification(input.email, input.password);
      },
      onError: (error) => {
        if (registrationUnverified(failureOf("POST /api/auth/register", error))) {
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
        <FormField id="signup-first-name" error={errors.firstName} label="First name">
          <Input
            id="signup-first-name"
            {...invalid("firstName")}
            autoComplete="given-name"
            value={form.firstName}
            onChange={(e) => set("firstName")(e.target.value)}
          />
        </FormField>
        <FormField id="signup-last-name" error={errors.lastName} label="Last name">
          <Input
            id="signup-last-name"
            autoComplete="family-name"
            {...invalid("lastName")}
            value={form.lastName}
            onChange={(e) => set("lastName")(e.target.value)}
          />
        </FormField>
      </div>
      <EmailField id={FIELD_IDS.email} value={form.email} error={errors.email} onChange={set("email")} />
      <FormField
        id="signup-tag"
        error={errors.pillarTag}
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
            {...invalid("pillarTag", "hint")}
            value={form.pillarTag}
            onChange={(e) => set("pillarTag")(cleanHandle(e.target.value))}
          />
        </div>
      </FormField>
      <FormField id="signup-phone" error={errors.phoneNumber} label="Phone number">
        <Input
          id="signup-phone"
          {...invalid("phoneNumber")}
          type="tel"
          autoComplete="tel"
          placeholder="(555) 123-4567"
          value={form.phoneNumber}
          onChange={(e) => set("phoneNumber")(e.target.value)}
        />
      </FormField>
      <FormField id="signup-password" label="Password" error={errors.password}>
        <PasswordInput
          id="signup-password"
          autoComplete="new-password"
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={
            errors.password ? "signup-password-strength signup-password-error" : "signup-password-strength"
          }
          value={form.password}
          onChange={(e) => set("password")(e.target.value)}
        />
        <PasswordStrengthHint
          id="signup-password-strength"
          password={form.password}
          userInputs={[form.email, form.firstName, form.lastName, form.pillarTag]}
        />
      </FormField>
      <FormField id="signup-confirm" error={errors.confirmPassword} label="Confirm password">
        <PasswordInput
          id="signup-confirm"
          {...invalid("confirmPassword")}
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={(e) => set("confirmPassword")(e.target.value)}
        />
      </FormField>
      <div className="grid gap-1.5">
        <div className="flex items-start gap-2">
          <Checkbox
            id="signup-terms"
            className="mt-0.5"
            required
            aria-required
            {...invalid("terms")}
            checked={hasAcceptedTerms}
            onCheckedChange={(v) => {
              setAcceptedTerms(v === true);
              if (v === true) setErrors(({ terms: _fixed, ...rest }) => rest);
              dismissFieldToast();
            }}
          />
          <Label htmlFor="signup-terms" className="font-normal text-ink-muted">
            {/* New tabs, so reading the terms never loses what was typed here. */}I agree to the{" "}
            <a href="/terms" target="_blank" rel="noopener" className="font-medium text-brand-600 underline">
              Terms of Service
            </a>{" "}
            and{" "}
            <a
              href="/privacy"
              target="_blank"
              rel="noopener"
              className="font-medium text-brand-600 underline"
            >
              Privacy Policy
            </a>
          </Label>
        </div>
        {errors.terms ? (
          <p id="signup-terms-error" className="text-sm text-negative">
            {errors.terms}
          </p>
        ) : null}
      </div>
      <Button type="submit" size="lg" disabled={register.isPending}>
        {register.isPending ? <Spinner className="size-4 text-white" label="Creating account" /> : null}
        Create Account
      </Button>
    </form>
  );
}
