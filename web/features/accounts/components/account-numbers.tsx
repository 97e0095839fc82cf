import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import type { AccountRequest } from "@/contract/kyc";

/** Account numbers stay masked until asked for; routing numbers are public. */
export function AccountNumbers({ request }: { request: AccountRequest }) {
  const [isShown, setShown] = useState(false);
  const number = request.accountNumber ?? "";
  return (
    <dl className="grid gap-3 rounded-lg bg-canvas p-4 sm:grid-cols-2">
      <div className="grid gap-0.5">
        <dt className="text-xs text-ink-muted">Account number</dt>
        <dd className="flex items-center gap-2 text-sm font-medium text-ink tabular-nums">
          <span>{isShown ? number : `•••••${number.slice(-4)}`}</span>
          <button
            type="button"
            onClick={() => setShown((s) => !s)}
            aria-pressed={isShown}
            aria-label={isShown ? "Hide account number" : "Show account number"}
            className="rounded p-1 text-ink-subtle hover:text-ink"
          >
            {isShown ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
          </button>
        </dd>
      </div>
      <div className="grid gap-0.5">
        <dt className="text-xs text-ink-muted">Routing number</dt>
        <dd className="py-1 text-sm font-medium text-ink tabular-nums">{request.routingNumber ?? "—"}</dd>
      </div>
    </dl>
  );
}
