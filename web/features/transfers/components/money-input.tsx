import { Input } from "@/web/components/ui/input";

/** A dollar amount field: a "$" prefix, a decimal keyboard, and only digits, dots and commas kept. */
export function MoneyInput({
  id,
  value,
  onChange,
  ...props
}: { id: string; value: string; onChange: (value: string) => void } & Record<
  `aria-${string}`,
  string | boolean | undefined
>) {
  return (
    <div className="relative">
      <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-ink-subtle">
        $
      </span>
      <Input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        className="pl-7 tabular-nums"
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/[^\d.,]/g, ""))}
        {...props}
      />
    </div>
  );
}
