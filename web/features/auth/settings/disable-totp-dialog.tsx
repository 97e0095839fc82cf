import { type FormEvent, useState } from "react";
import { FormField } from "@/web/components/form-field";
import { errorMessage } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useDisableTotp } from "@/web/features/auth/api/disable-totp";

/** Turning the authenticator off needs the password and a current code (or a recovery code). */
export function DisableTotpDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const disable = useDisableTotp();
  const close = () => {
    setPassword("");
    setCode("");
    setError(null);
    onOpenChange(false);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || !code.trim()) {
      setError("Enter your password and a code from your authenticator app");
      return;
    }
    disable.mutate(
      { password, code: code.trim() },
      {
        onSuccess: (data) => {
          toast({ title: data.message });
          close();
        },
        onError: (caught) => setError(errorMessage(caught, "Could not turn it off. Please try again.")),
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Turn off two-step verification?</DialogTitle>
          <DialogDescription>
            Signing in will only need your password. Confirm with your password and a current code.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <FormField id="disable-totp-password" label="Password">
            <Input
              id="disable-totp-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </FormField>
          <FormField id="disable-totp-code" label="Authentication code" hint="Or one of your recovery codes.">
            <Input
              id="disable-totp-code"
              autoComplete="one-time-code"
              autoCapitalize="off"
              spellCheck={false}
              value={code}
              onChange={(e) => setCode(e.target.value.slice(0, 11))}
              className="font-mono"
            />
          </FormField>
          {error ? (
            <p role="alert" className="text-sm font-medium text-negative">
              {error}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={disable.isPending}>
              {disable.isPending ? <Spinner className="size-4 text-white" label="Turning off" /> : null}
              Turn off
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
