import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { PASSKEY_NAME_MAX } from "@/contract/passkeys";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, errorMessage, toastFieldError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useRegisterPasskey } from "@/web/features/auth/api/create-passkey";
import { isUnauthorized } from "@/web/lib/api";
import { defaultPasskeyName, isPasskeySupported, passkeyBrowserError } from "@/web/lib/webauthn";

export const PASSKEY_NAME_REQUIRED = "Please give this passkey a name";

/** Asks for a name, then lets the browser create the passkey; errors stay calm and say what to do. */
export function AddPasskeyDialog() {
  const [isOpen, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const register = useRegisterPasskey();
  const isSupported = isPasskeySupported();

  const onOpenChange = (open: boolean) => {
    if (open) {
      setName(defaultPasskeyName());
      setNameError(null);
    }
    setOpen(open);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(PASSKEY_NAME_REQUIRED);
      focusFieldInError("new-passkey-name");
      return toastFieldError(PASSKEY_NAME_REQUIRED);
    }
    register.mutate(trimmed, {
      onSuccess: (passkey) => {
        toast({ title: "Passkey added", description: `You can now sign in with “${passkey.name}”.` });
        setOpen(false);
      },
      onError: (error) => {
        if (isUnauthorized(error)) return;
        toast({
          title: "Passkey not added",
          description: passkeyBrowserError(error) ?? errorMessage(error, "Please try again"),
          variant: "destructive",
        });
      },
    });
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="secondary" className="sm:justify-self-start" disabled={!isSupported}>
          <Plus aria-hidden />
          Add a passkey
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <DialogHeader>
            <DialogTitle>Add a passkey</DialogTitle>
            <DialogDescription>
              Name it after the device or password manager that keeps it, so you can tell your passkeys apart.
              Your browser will then ask for your fingerprint, face or screen lock.
            </DialogDescription>
          </DialogHeader>
          <FormField id="new-passkey-name" label="Passkey name" error={nameError}>
            <Input
              id="new-passkey-name"
              {...fieldAria("new-passkey-name", { error: nameError })}
              value={name}
              maxLength={PASSKEY_NAME_MAX}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value);
                setNameError(null);
                dismissFieldToast();
              }}
            />
          </FormField>
          <DialogFooter>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={register.isPending}>
              {register.isPending ? (
                <Spinner className="size-4 text-white" label="Waiting for your passkey" />
              ) : null}
              Continue
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
