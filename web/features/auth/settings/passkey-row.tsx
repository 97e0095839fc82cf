import { KeyRound, Pencil } from "lucide-react";
import { type FormEvent, type KeyboardEvent, useState } from "react";
import { PASSKEY_NAME_MAX, type PasskeyInfo } from "@/contract/passkeys";
import { ConfirmButton } from "@/web/components/confirm-button";
import { fieldAria, focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, toastApiError, toastFieldError } from "@/web/components/toast-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/components/ui/use-toast";
import { useInlineRename } from "@/web/components/use-inline-rename";
import { useDeletePasskey } from "@/web/features/auth/api/delete-passkey";
import { useRenamePasskey } from "@/web/features/auth/api/rename-passkey";
import { PASSKEY_NAME_REQUIRED } from "@/web/features/auth/settings/add-passkey-dialog";
import { formatDate, formatRelativeTime } from "@/web/lib/format";

function RenameForm({ passkey, onDone }: { passkey: PasskeyInfo; onDone: () => void }) {
  const [name, setName] = useState(passkey.name);
  const [nameError, setNameError] = useState<string | null>(null);
  const rename = useRenamePasskey();
  const inputId = `passkey-name-${passkey.id}`;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(PASSKEY_NAME_REQUIRED);
      focusFieldInError(inputId);
      return toastFieldError(PASSKEY_NAME_REQUIRED);
    }
    if (trimmed === passkey.name) return onDone();
    rename.mutate(
      { id: passkey.id, name: trimmed },
      {
        onSuccess: () => {
          toast({ title: "Passkey renamed", description: trimmed });
          onDone();
        },
        onError: (error) => toastApiError(error, "Failed to rename passkey"),
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") onDone();
  };
  return (
    <form className="flex min-w-0 flex-1 flex-wrap items-center gap-2" onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId} className="sr-only">
        New name for {passkey.name}
      </label>
      <Input
        id={inputId}
        className="h-8 min-w-0 flex-1 basis-40"
        {...fieldAria(inputId, { error: nameError })}
        value={name}
        maxLength={PASSKEY_NAME_MAX}
        autoFocus
        onChange={(e) => {
          setName(e.target.value);
          setNameError(null);
          dismissFieldToast();
        }}
        onKeyDown={onKeyDown}
      />
      {nameError ? (
        <p id={`${inputId}-error`} className="basis-full text-sm text-negative">
          {nameError}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={rename.isPending}>
          Save
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function RemoveButton({ passkey }: { passkey: PasskeyInfo }) {
  const remove = useDeletePasskey();
  const onConfirm = () =>
    remove.mutate(passkey.id, {
      onSuccess: () => toast({ title: "Passkey removed", description: passkey.name }),
      onError: (error) => toastApiError(error, "Failed to remove passkey"),
    });
  return (
    <ConfirmButton
      variant="danger"
      aria-label={`Remove ${passkey.name}`}
      isPending={remove.isPending}
      title={`Remove “${passkey.name}”?`}
      description="You won't be able to sign in with this passkey any more. You can add it again later."
      confirmLabel="Remove passkey"
      onConfirm={onConfirm}
    >
      Remove
    </ConfirmButton>
  );
}

export function PasskeyRow({ passkey }: { passkey: PasskeyInfo }) {
  const rename = useInlineRename();
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <KeyRound className="size-4" aria-hidden />
      </span>
      {rename.isRenaming ? (
        <RenameForm passkey={passkey} onDone={rename.done} />
      ) : (
        <>
          <div className="grid min-w-0 flex-1 gap-0.5">
            <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
              <span className="truncate">{passkey.name}</span>
              {passkey.backedUp ? <Badge tone="brand">Synced</Badge> : <Badge>Single device</Badge>}
            </p>
            <p className="text-xs text-ink-muted">
              Added {formatDate(passkey.createdAt)} ·{" "}
              {passkey.lastUsedAt ? `Last used ${formatRelativeTime(passkey.lastUsedAt)}` : "Not used yet"}
            </p>
          </div>
          <div className="flex items-center gap-1">
            <Button
              ref={rename.renameButton}
              variant="ghost"
              size="sm"
              onClick={rename.start}
              aria-label={`Rename ${passkey.name}`}
            >
              <Pencil aria-hidden />
              <span className="hidden sm:inline">Rename</span>
            </Button>
            <RemoveButton passkey={passkey} />
          </div>
        </>
      )}
    </li>
  );
}
