import { Pencil, Send } from "lucide-react";
import { type FormEvent, type KeyboardEvent, useState } from "react";
import { Link } from "wouter";
import { RECIPIENT_NAME_MAX, renameRecipientInput, type SavedRecipient } from "@/contract/recipients";
import { ConfirmButton } from "@/web/components/confirm-button";
import { toastApiError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/components/ui/use-toast";
import { useInlineRename } from "@/web/components/use-inline-rename";
import { WalletAddress } from "@/web/components/wallet-address";
import { useDeleteRecipient } from "@/web/features/recipients/api/delete-recipient";
import { useRenameRecipient } from "@/web/features/recipients/api/rename-recipient";
import { ApiError, isUnauthorized } from "@/web/lib/api";
import { formatDate } from "@/web/lib/format";

function RenameForm({ recipient, onDone }: { recipient: SavedRecipient; onDone: () => void }) {
  const [name, setName] = useState(recipient.name);
  const [error, setError] = useState<string | null>(null);
  const rename = useRenameRecipient();
  const inputId = `recipient-name-${recipient.id}`;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = renameRecipientInput.safeParse({ name });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Check the name");
    if (parsed.data.name === recipient.name) return onDone();
    rename.mutate(
      { id: recipient.id, name: parsed.data.name },
      {
        onSuccess: () => {
          toast({ title: "Recipient renamed", description: parsed.data.name });
          onDone();
        },
        onError: (err) => {
          if (isUnauthorized(err)) return;
          if (err instanceof ApiError && err.status < 500) setError(err.message);
          else toastApiError(err, "Failed to rename recipient");
        },
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") onDone();
  };
  return (
    <form className="grid min-w-0 flex-1 gap-1.5" onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId} className="text-sm font-medium text-ink">
        New name for {recipient.name}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id={inputId}
          className="h-9 min-w-0 flex-1 basis-48"
          value={name}
          maxLength={RECIPIENT_NAME_MAX + 20}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
          onKeyDown={onKeyDown}
        />
        <div className="flex gap-2">
          <Button type="submit" size="sm" disabled={rename.isPending}>
            Save
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </div>
      {error ? (
        <p id={`${inputId}-error`} className="text-sm text-negative">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function RemoveButton({ recipient }: { recipient: SavedRecipient }) {
  const remove = useDeleteRecipient();
  const onConfirm = () =>
    remove.mutate(recipient.id, {
      onSuccess: () => toast({ title: "Recipient removed", description: recipient.name }),
      onError: (error) => toastApiError(error, "Failed to remove recipient"),
    });
  return (
    <ConfirmButton
      variant="danger"
      aria-label={`Remove ${recipient.name}`}
      isPending={remove.isPending}
      title={`Remove “${recipient.name}”?`}
      description="Transfers you already made are not affected. Lookalikes of this address will no longer be flagged unless you save it again."
      confirmLabel="Remove recipient"
      onConfirm={onConfirm}
    >
      Remove
    </ConfirmButton>
  );
}

export function RecipientRow({ recipient }: { recipient: SavedRecipient }) {
  const rename = useInlineRename();
  return (
    <li className="flex flex-wrap items-start gap-3 px-4 py-4">
      {rename.isRenaming ? (
        <RenameForm recipient={recipient} onDone={rename.done} />
      ) : (
        <>
          <div className="grid min-w-0 flex-1 basis-64 gap-1">
            <p className="truncate text-sm font-semibold text-ink">{recipient.name}</p>
            <WalletAddress address={recipient.address} className="text-xs" />
            <p className="text-xs text-ink-muted">Saved {formatDate(recipient.createdAt)}</p>
          </div>
          <div className="flex items-center gap-1">
            <Button asChild variant="ghost" size="sm">
              <Link
                href={`/send-money?to=${encodeURIComponent(recipient.id)}`}
                aria-label={`Send money to ${recipient.name}`}
              >
                <Send aria-hidden />
                <span className="hidden sm:inline">Send</span>
              </Link>
            </Button>
            <Button
              ref={rename.renameButton}
              variant="ghost"
              size="sm"
              onClick={rename.start}
              aria-label={`Rename ${recipient.name}`}
            >
              <Pencil aria-hidden />
              <span className="hidden sm:inline">Rename</span>
            </Button>
            <RemoveButton recipient={recipient} />
          </div>
        </>
      )}
    </li>
  );
}
