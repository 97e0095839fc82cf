import { useEffect, useState } from "react";
import type { PasswordStrength } from "@/contract/password-strength";
import { cn } from "@/web/lib/cn";

const LABELS = ["Very weak", "Weak", "Fair", "Strong", "Very strong"] as const;
const BAR_TONES = ["bg-negative", "bg-negative", "bg-pending", "bg-positive", "bg-positive"] as const;

type Checker = typeof import("@/contract/password-strength").checkPasswordStrength;
let checkerPromise: Promise<Checker> | undefined;

// The zxcvbn dictionaries are large, so they load on first keystroke in their own chunk, never up front.
function loadChecker(): Promise<Checker> {
  checkerPromise ??= import("@/contract/password-strength").then((m) => m.checkPasswordStrength);
  return checkerPromise;
}

/** A live strength meter under the sign-up password; advisory only — the server has the final say. */
export function PasswordStrengthHint({
  id,
  password,
  userInputs,
}: {
  id: string;
  password: string;
  userInputs: string[];
}) {
  const [strength, setStrength] = useState<PasswordStrength | null>(null);
  const inputsKey = userInputs.join("\u0000");

  useEffect(() => {
    if (!password) {
      setStrength(null);
      return;
    }
    let isCurrent = true;
    loadChecker()
      .then((check) => {
        if (isCurrent) setStrength(check(password, inputsKey.split("\u0000")));
      })
      .catch(() => {
        if (isCurrent) setStrength(null);
      });
    return () => {
      isCurrent = false;
    };
  }, [password, inputsKey]);

  if (!password || !strength) return null;
  const advice = strength.warning || strength.suggestions[0];
  return (
    <div id={id} className="grid gap-1" aria-live="polite">
      <div className="flex gap-1" aria-hidden>
        {LABELS.slice(1).map((label, i) => (
          <span
            key={label}
            className={cn(
              "h-1 flex-1 rounded-full",
              i < strength.score ? BAR_TONES[strength.score] : "bg-line",
            )}
          />
        ))}
      </div>
      <p className="text-xs text-ink-muted">
        Password strength: <span className="font-medium text-ink">{LABELS[strength.score]}</span>
        {advice ? <span> · {advice}</span> : null}
      </p>
    </div>
  );
}
