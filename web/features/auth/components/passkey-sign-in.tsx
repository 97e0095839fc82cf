import { KeyRound } from "lucide-react";
import { errorMessage } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { usePasskeyLogin } from "@/web/features/auth/api/passkey-login";
import { afterSignInPath } from "@/web/lib/return-path";
import { isPasskeySupported, passkeyBrowserError } from "@/web/lib/webauthn";

/** "Sign in with a passkey" under the password form: a passkey is a full sign-in on its own. */
export function PasskeySignIn() {
  const login = usePasskeyLogin();
  if (!isPasskeySupported()) return null;
  const onClick = () =>
    login.mutate(undefined, {
      // A full load, like password sign-in, so the router starts again with the new session.
      onSuccess: () => {
        window.location.href = afterSignInPath();
      },
      onError: (error) =>
        toast({
          title: "Passkey sign-in failed",
          description: passkeyBrowserError(error) ?? errorMessage(error, "Please try again"),
          variant: "destructive",
        }),
    });
  const isBusy = login.isPending || login.isSuccess;
  return (
    <div className="mt-6 grid gap-4">
      <div className="flex items-center gap-3 text-xs text-ink-subtle" aria-hidden>
        <span className="h-px flex-1 bg-line" />
        or
        <span className="h-px flex-1 bg-line" />
      </div>
      <Button variant="secondary" size="lg" onClick={onClick} disabled={isBusy}>
        {isBusy ? <Spinner className="size-4" label="Waiting for your passkey" /> : <KeyRound aria-hidden />}
        Sign in with a passkey
      </Button>
    </div>
  );
}
