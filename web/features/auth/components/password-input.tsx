import { Eye, EyeOff } from "lucide-react";
import { type ComponentProps, useState } from "react";
import { Input } from "@/web/components/ui/input";

/** A password field with a show/hide toggle that keeps its own accessible name. */
export function PasswordInput(props: Omit<ComponentProps<"input">, "type">) {
  const [isVisible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input {...props} type={isVisible ? "text" : "password"} className="pr-10" />
      <button
        type="button"
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-ink-subtle hover:text-ink"
        aria-label={isVisible ? "Hide password" : "Show password"}
        aria-pressed={isVisible}
        onClick={() => setVisible((v) => !v)}
        disabled={props.disabled}
      >
        {isVisible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </button>
    </div>
  );
}
