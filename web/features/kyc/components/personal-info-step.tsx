import { Briefcase, User } from "lucide-react";
import type { ReactNode } from "react";
import type { AccountType } from "@/contract/kyc";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import {
  type ApplicationForm,
  formatSsnInput,
  formatStateInput,
  formatZipInput,
  type TextField,
} from "@/web/features/kyc/application-form";
import { cn } from "@/web/lib/cn";

const ACCOUNT_TYPES: { value: AccountType; label: string; description: string; icon: typeof User }[] = [
  { value: "personal", label: "Personal", description: "For your everyday banking", icon: User },
  { value: "business", label: "Business", description: "For your LLC or company", icon: Briefcase },
];

function Field({
  id,
  label,
  hint,
  className,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("grid content-start gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-ink-subtle">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function PersonalInfoStep({
  form,
  missing,
  onAccountType,
  onField,
}: {
  form: ApplicationForm;
  /** Fields to flag after a Next with gaps. */
  missing: ReadonlySet<TextField>;
  onAccountType: (type: AccountType) => void;
  onField: (field: TextField, value: string) => void;
}) {
  const text = (field: TextField) => ({
    id: `kyc-${field}`,
    name: field,
    value: form[field],
    "aria-invalid": missing.has(field) ? true : undefined,
  });

  return (
    <div className="grid gap-6">
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium text-ink">Account type</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {ACCOUNT_TYPES.map(({ value, label, description, icon: Icon }) => {
            const isChecked = form.accountType === value;
            return (
              <label
                key={value}
                className={cn(
                  "flex cursor-pointer items-center gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500",
                  isChecked ? "border-brand-500 bg-brand-50" : "border-line bg-surface hover:bg-canvas",
                )}
              >
                <input
                  type="radio"
                  name="accountType"
                  value={value}
                  checked={isChecked}
                  onChange={() => onAccountType(value)}
                  className="sr-only"
                />
                <span
                  className={cn(
                    "flex size-10 shrink-0 items-center justify-center rounded-full",
                    isChecked ? "bg-brand-800 text-white" : "bg-brand-50 text-brand-700",
                  )}
                >
                  <Icon className="size-5" aria-hidden />
                </span>
                <span className="grid gap-0.5">
                  <span className="text-sm font-semibold text-ink">{label}</span>
                  <span className="text-xs text-ink-muted">{description}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        {form.accountType === "business" ? (
          <Field id="kyc-companyName" label="Company name" className="sm:col-span-2">
            <Input
              {...text("companyName")}
              autoComplete="organization"
              maxLength={200}
              onChange={(e) => onField("companyName", e.target.value)}
            />
          </Field>
        ) : null}
        <Field id="kyc-firstName" label="First name">
          <Input
            {...text("firstName")}
            autoComplete="given-name"
            required
            maxLength={100}
            onChange={(e) => onField("firstName", e.target.value)}
          />
        </Field>
        <Field id="kyc-lastName" label="Last name">
          <Input
            {...text("lastName")}
            autoComplete="family-name"
            required
            maxLength={100}
            onChange={(e) => onField("lastName", e.target.value)}
          />
        </Field>
        <Field id="kyc-street" label="Street address" className="sm:col-span-2">
          <Input
            {...text("street")}
            autoComplete="address-line1"
            required
            maxLength={200}
            onChange={(e) => onField("street", e.target.value)}
          />
        </Field>
        <Field id="kyc-city" label="City" className="sm:col-span-2">
          <Input
            {...text("city")}
            autoComplete="address-level2"
            required
            maxLength={100}
            onChange={(e) => onField("city", e.target.value)}
          />
        </Field>
        <div className="grid grid-cols-2 gap-4 sm:col-span-2">
          <Field id="kyc-state" label="State" hint="2 letters, e.g. NY">
            <Input
              {...text("state")}
              autoComplete="address-level1"
              required
              placeholder="NY"
              aria-describedby="kyc-state-hint"
              className="uppercase"
              onChange={(e) => onField("state", formatStateInput(e.target.value))}
            />
          </Field>
          <Field id="kyc-zipCode" label="ZIP code" hint="5 digits">
            <Input
              {...text("zipCode")}
              autoComplete="postal-code"
              inputMode="numeric"
              required
              placeholder="10001"
              aria-describedby="kyc-zipCode-hint"
              className="tabular-nums"
              onChange={(e) => onField("zipCode", formatZipInput(e.target.value))}
            />
          </Field>
        </div>
        <Field
          id="kyc-ssn"
          label="Social Security Number"
          hint="Encrypted and never shown in full after you submit."
          className="sm:col-span-2"
        >
          <Input
            {...text("ssn")}
            autoComplete="off"
            inputMode="numeric"
            required
            placeholder="123-45-6789"
            aria-describedby="kyc-ssn-hint"
            className="tabular-nums"
            onChange={(e) => onField("ssn", formatSsnInput(e.target.value))}
          />
        </Field>
      </div>
    </div>
  );
}
