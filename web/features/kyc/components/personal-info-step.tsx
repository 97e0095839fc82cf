import { Briefcase, User } from "lucide-react";
import { type AccountType, bankToday } from "@/contract/kyc";
import { FormField, fieldAria } from "@/web/components/form-field";
import { Input } from "@/web/components/ui/input";
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

export function PersonalInfoStep({
  form,
  missing,
  onAccountType,
  onField,
}: {
  form: ApplicationForm;
  /** Fields to flag after a Next with gaps, each with what to say under it. */
  missing: ReadonlyMap<TextField, string>;
  onAccountType: (type: AccountType) => void;
  onField: (field: TextField, value: string) => void;
}) {
  const text = (field: TextField, hasHint = false) => ({
    id: `kyc-${field}`,
    name: field,
    value: form[field],
    ...fieldAria(`kyc-${field}`, { hint: hasHint, error: missing.get(field) }),
  });
  const errorOf = (field: TextField) => missing.get(field);

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
          <FormField
            id="kyc-companyName"
            label="Company name"
            className="sm:col-span-2"
            error={errorOf("companyName")}
          >
            <Input
              {...text("companyName")}
              autoComplete="organization"
              maxLength={200}
              onChange={(e) => onField("companyName", e.target.value)}
            />
          </FormField>
        ) : null}
        <FormField id="kyc-firstName" label="First name" error={errorOf("firstName")}>
          <Input
            {...text("firstName")}
            autoComplete="given-name"
            required
            maxLength={100}
            onChange={(e) => onField("firstName", e.target.value)}
          />
        </FormField>
        <FormField id="kyc-lastName" label="Last name" error={errorOf("lastName")}>
          <Input
            {...text("lastName")}
            autoComplete="family-name"
            required
            maxLength={100}
            onChange={(e) => onField("lastName", e.target.value)}
          />
        </FormField>
        <FormField
          id="kyc-dateOfBirth"
          label="Date of birth"
          hint="You must be 18 or older."
          className="sm:col-span-2"
          error={errorOf("dateOfBirth")}
        >
          <Input
            {...text("dateOfBirth", true)}
            type="date"
            autoComplete="bday"
            required
            min="1900-01-01"
            max={bankToday()}
            className="tabular-nums sm:max-w-56"
            onChange={(e) => onField("dateOfBirth", e.target.value)}
          />
        </FormField>
        <FormField id="kyc-street" label="Street address" className="sm:col-span-2" error={errorOf("street")}>
          <Input
            {...text("street")}
            autoComplete="address-line1"
            required
            maxLength={200}
            onChange={(e) => onField("street", e.target.value)}
          />
        </FormField>
        <FormField id="kyc-city" label="City" className="sm:col-span-2" error={errorOf("city")}>
          <Input
            {...text("city")}
            autoComplete="address-level2"
            required
            maxLength={100}
            onChange={(e) => onField("city", e.target.value)}
          />
        </FormField>
        <div className="grid grid-cols-2 gap-4 sm:col-span-2">
          <FormField id="kyc-state" label="State" hint="2 letters, e.g. NY" error={errorOf("state")}>
            <Input
              {...text("state", true)}
              autoComplete="address-level1"
              required
              placeholder="NY"
              className="uppercase"
              onChange={(e) => onField("state", formatStateInput(e.target.value))}
            />
          </FormField>
          <FormField id="kyc-zipCode" label="ZIP code" hint="5 digits" error={errorOf("zipCode")}>
            <Input
              {...text("zipCode", true)}
              autoComplete="postal-code"
              inputMode="numeric"
              required
              placeholder="10001"
              className="tabular-nums"
              onChange={(e) => onField("zipCode", formatZipInput(e.target.value))}
            />
          </FormField>
        </div>
        <FormField
          id="kyc-ssn"
          label="Social Security Number"
          hint="Encrypted and never shown in full after you submit."
          className="sm:col-span-2"
          error={errorOf("ssn")}
        >
          <Input
            {...text("ssn", true)}
            autoComplete="off"
            inputMode="numeric"
            required
            placeholder="123-45-6789"
            className="tabular-nums"
            onChange={(e) => onField("ssn", formatSsnInput(e.target.value))}
          />
        </FormField>
      </div>
    </div>
  );
}
