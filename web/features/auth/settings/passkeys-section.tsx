import { KeyRound } from "lucide-react";
import { LoadErrorNote } from "@/web/components/load-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { usePasskeys } from "@/web/features/auth/api/get-passkeys";
import { AddPasskeyDialog } from "@/web/features/auth/settings/add-passkey-dialog";
import { PasskeyRow } from "@/web/features/auth/settings/passkey-row";
import { isPasskeySupported } from "@/web/lib/webauthn";

function LoadingRows() {
  return (
    <div className="grid gap-3" role="status" aria-label="Loading passkeys">
      {[0, 1].map((i) => (
        <div key={i} className="flex items-center gap-3">
          <Skeleton className="size-9 rounded-full" />
          <div className="grid flex-1 gap-1.5">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-1/2" />
          </div>
        </div>
      ))}
    </div>
  );
}

function EmptyState() {
  return (
    <div className="flex items-start gap-3 rounded-lg border border-dashed border-line p-4">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <KeyRound className="size-4" aria-hidden />
      </span>
      <div className="grid gap-0.5">
        <p className="text-sm font-medium text-ink">No passkeys yet</p>
        <p className="text-sm text-ink-muted">
          A passkey signs you in with your fingerprint, face or screen lock. It can't be phished or guessed.
        </p>
      </div>
    </div>
  );
}

/** Passkeys in Settings: list, add, rename and remove. Standalone, with its own heading. */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Passkeys</CardTitle>
        <CardDescription>
          Sign in without a password, and confirm payments, on your own devices.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {passkeys.isPending ? (
          <LoadingRows />
        ) : passkeys.isError ? (
          <LoadErrorNote what="your passkeys" onRetry={() => void passkeys.refetch()} />
        ) : passkeys.data.length === 0 ? (
          <EmptyState />
        ) : (
          <ul className="divide-y divide-line" aria-label="Your passkeys">
            {passkeys.data.map((p) => (
              <PasskeyRow key={p.id} passkey={p} />
            ))}
          </ul>
        )}
        {passkeys.isError ? null : <AddPasskeyDialog />}
        {isPasskeySupported() ? null : (
          <p className="text-xs text-ink-subtle">This browser doesn't support passkeys.</p>
        )}
      </CardContent>
    </Card>
  );
}
