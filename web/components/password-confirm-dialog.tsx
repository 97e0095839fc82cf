import { KeyRound } from "lucide-react";
import { type FormEvent, useState } from "react";
import { FormField, fieldAria } from "@/web/components/form-field";
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

/**
 * Asks a customer with no second factor for their password before a change that keeps money in (decision 047):
 * a stolen session or an injected script does not know it. A wrong one is said under the field; the dialog stays.
 */
export function PasswordConfirmDialog({
  open,
  what,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  /** What is being confirmed, e.g. "Block crypto sends for a 7-day cooldown". */
  what: string;
  onCancel: () => void;
  /** Sends the change with the password; rejects with the server's error. */
  onConfirm: (password: string) => Promise<unknown>;
}) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const close = () => {
    setPassword("");
    setError(null);
    onCancel();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError("Enter your password");
      return;
    }
    setPending(true);
    try {
      await onConfirm(password);
      setPassword("");
      setError(null);
    } catch (failure) {
      setError(errorMessage(failure, "Could not confirm. Please try again."));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : close())}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <div className="mb-1 flex size-10 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <KeyRound className="size-5" aria-hidden />
          </div>
          <DialogTitle>Confirm with your password</DialogTitle>
          <DialogDescription>{what}. For your security, enter your password to confirm.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <FormField id="confirm-password" label="Password" error={error}>
            <Input
              id="confirm-password"
              type="password"
              autoComplete="current-password"
              {...fieldAria("confirm-password", { error })}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner className="size-4 text-white" label="Confirming" /> : null}
              Confirm
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
