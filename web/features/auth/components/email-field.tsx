import { FormField, fieldAria } from "@/web/components/form-field";
import { Input } from "@/web/components/ui/input";

/** The auth forms' "Email" field: an e-mail input with the spec's placeholder and its error under it. */
export function EmailField({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <FormField id={id} label="Email" error={error}>
      <Input
        id={id}
        {...fieldAria(id, { error })}
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </FormField>
  );
}
